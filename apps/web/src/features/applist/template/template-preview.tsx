import { render, sampleParams, type TemplateParamGroup, unknownParams } from '@iot/contract';
import { Alert, Card, Form, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** The push template being edited, rendered as it types with its parameter group's sample values. */
export const TemplatePreview = () => {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const title = (Form.useWatch('title', form) as string | undefined) ?? '';
  const body = (Form.useWatch('body', form) as string | undefined) ?? '';
  const group = ((Form.useWatch('param', form) as TemplateParamGroup | undefined) ?? 'system') as TemplateParamGroup;
  const lang = (Form.useWatch('lang', form) as string | undefined) ?? 'en';
  const shown = render({ title, body }, sampleParams(group), { lang });
  const unknown = [...new Set([...unknownParams(title, group), ...unknownParams(body, group)])];
  return (
    <Card
      size="small"
      title={t('push_template.preview')}
      extra={<Typography.Text type="secondary">{t('push_template.preview_hint')}</Typography.Text>}
    >
      <section aria-label={t('push_template.preview')}>
        {shown.title && <Typography.Title level={5}>{shown.title}</Typography.Title>}
        <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>{shown.body}</Typography.Paragraph>
      </section>
      {unknown.length > 0 && (
        <Alert style={{ marginTop: 8 }} type="warning" showIcon title={t('push_template.missing', { names: unknown.join(', ') })} />
      )}
    </Card>
  );
};
