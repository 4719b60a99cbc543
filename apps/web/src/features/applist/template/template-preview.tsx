import { renderTemplate, SAMPLE_PARAMS, TEMPLATE_PARAMS, type TemplateParamGroup, unknownParams } from '@iot/contract';
import { Alert, Card, Form, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** The push template being edited, rendered as it types with its parameter group's sample values. */
export const TemplatePreview = () => {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const title = (Form.useWatch('title', form) as string | undefined) ?? '';
  const body = (Form.useWatch('body', form) as string | undefined) ?? '';
  const group = ((Form.useWatch('param', form) as TemplateParamGroup | undefined) ?? 'system') as TemplateParamGroup;
  const params = Object.fromEntries((TEMPLATE_PARAMS[group] ?? []).map((name) => [name, SAMPLE_PARAMS[name] ?? name]));
  const unknown = [...new Set([...unknownParams(title, group), ...unknownParams(body, group)])];
  return (
    <Card
      size="small"
      title={t('push_template.preview')}
      extra={<Typography.Text type="secondary">{t('push_template.preview_hint')}</Typography.Text>}
    >
      <section aria-label={t('push_template.preview')}>
        {title && <Typography.Title level={5}>{renderTemplate(title, params).text}</Typography.Title>}
        <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>{renderTemplate(body, params).text}</Typography.Paragraph>
      </section>
      {unknown.length > 0 && (
        <Alert style={{ marginTop: 8 }} type="warning" showIcon title={t('push_template.missing', { names: unknown.join(', ') })} />
      )}
    </Card>
  );
};
