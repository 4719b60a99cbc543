import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { LANGUAGES, ruleOfIssue, versionDetailSchema } from '@iot/contract';
import { AutoComplete, Button, Card, Col, Form, Input, InputNumber, Row, Space, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ruleMessage } from '../../../lib/rule-messages';
import { isBlank } from '../../../lib/schema-fields';

/** One language's entry as the form holds it (size may be blank: SPEC §5, an empty size is 0). */
export interface DetailDraft {
  lang?: string;
  url?: string;
  title?: string;
  content?: string;
  size?: number | null;
}

const FIELDS = ['lang', 'url', 'title', 'content', 'size'] as const;
type DetailField = (typeof FIELDS)[number];

/** The first language the list does not hold yet (a new entry's default). */
const nextLanguage = (rows: DetailDraft[]) => LANGUAGES.find((l) => !rows.some((r) => r.lang?.toLowerCase() === l.toLowerCase())) ?? '';

interface DetailsEditorProps {
  value?: DetailDraft[];
  onChange?: (rows: DetailDraft[]) => void;
  disabled?: boolean;
  id?: string;
}

/**
 * Form control of a version's `details`: one entry per language (language, download URL, title,
 * release notes, size), added and removed here. Each entry's fields are checked as the contract
 * checks them while typing; a language given twice is marked on its second entry.
 */
export const DetailsEditor = ({ value, onChange, disabled, id = 'details' }: DetailsEditorProps) => {
  const { t } = useTranslation();
  const rows = value ?? [];
  const update = (i: number, patch: DetailDraft) => onChange?.(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));

  /** What is wrong with one field of one entry, once it holds something (blank required fields are the submit's). */
  const problem = (i: number, field: DetailField): string | undefined => {
    const row = rows[i] ?? {};
    const v = row[field];
    if (field !== 'size' && isBlank(v)) return undefined;
    if (field === 'lang' && rows.slice(0, i).some((r) => r.lang && r.lang.toLowerCase() === String(v).toLowerCase()))
      return t('firmware.rules.duplicate');
    const parsed = versionDetailSchema.shape[field].safeParse(v);
    const [issue] = parsed.success ? [] : parsed.error.issues;
    return issue ? ruleMessage(ruleOfIssue(issue, v), t, { area: 'firmware' }) : undefined;
  };

  const item = (i: number, field: DetailField, control: ReactNode, required = false) => {
    const help = problem(i, field);
    return (
      <Form.Item
        label={t(`firmware.details_editor.${field}`)}
        htmlFor={`${id}-${i}-${field}`}
        required={required}
        validateStatus={help ? 'error' : undefined}
        help={help}
        style={{ marginBottom: 8 }}
      >
        {control}
      </Form.Item>
    );
  };

  return (
    <Space orientation="vertical" style={{ width: '100%' }} size="small" id={id}>
      {rows.length === 0 && <Typography.Text type="secondary">{t('firmware.details_editor.empty')}</Typography.Text>}
      {rows.map((row, i) => (
        <Card
          // Entries have no identity of their own; their place is it.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          key={i}
          size="small"
          title={t('firmware.details_editor.entry', { n: i + 1 })}
          extra={
            <Button
              size="small"
              type="link"
              danger
              icon={<DeleteOutlined />}
              disabled={disabled}
              aria-label={`${t('firmware.details_editor.remove')} ${i + 1}`}
              onClick={() => onChange?.(rows.filter((_, j) => j !== i))}
            >
              {t('firmware.details_editor.remove')}
            </Button>
          }
        >
          <Row gutter={8}>
            <Col xs={24} sm={8}>
              {item(
                i,
                'lang',
                <AutoComplete
                  id={`${id}-${i}-lang`}
                  value={row.lang ?? ''}
                  disabled={disabled}
                  options={LANGUAGES.map((l) => ({ value: l, label: `${l} · ${t(`app.languages.${l}`)}` }))}
                  onChange={(v: string) => update(i, { lang: v })}
                />,
                true,
              )}
            </Col>
            <Col xs={24} sm={16}>
              {item(
                i,
                'url',
                <Input
                  id={`${id}-${i}-url`}
                  value={row.url ?? ''}
                  disabled={disabled}
                  maxLength={1024}
                  placeholder="https://"
                  onChange={(e) => update(i, { url: e.target.value })}
                />,
                true,
              )}
            </Col>
            <Col xs={24} sm={16}>
              {item(
                i,
                'title',
                <Input
                  id={`${id}-${i}-title`}
                  value={row.title ?? ''}
                  disabled={disabled}
                  maxLength={128}
                  onChange={(e) => update(i, { title: e.target.value })}
                />,
              )}
            </Col>
            <Col xs={24} sm={8}>
              {item(
                i,
                'size',
                <InputNumber
                  id={`${id}-${i}-size`}
                  value={row.size ?? null}
                  disabled={disabled}
                  min={0}
                  precision={0}
                  style={{ width: '100%' }}
                  onChange={(v) => update(i, { size: v })}
                />,
              )}
            </Col>
            <Col span={24}>
              {item(
                i,
                'content',
                <Input.TextArea
                  id={`${id}-${i}-content`}
                  value={row.content ?? ''}
                  disabled={disabled}
                  maxLength={4000}
                  autoSize={{ minRows: 2, maxRows: 8 }}
                  onChange={(e) => update(i, { content: e.target.value })}
                />,
              )}
            </Col>
          </Row>
        </Card>
      ))}
      <Button
        icon={<PlusOutlined />}
        disabled={disabled}
        onClick={() => onChange?.([...rows, { lang: nextLanguage(rows), url: '', title: '', content: '', size: null }])}
      >
        {t('firmware.details_editor.add')}
      </Button>
    </Space>
  );
};
