import { DownOutlined, UpOutlined } from '@ant-design/icons';
import { Button, Form, type FormInstance, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Payload } from '../lib/resource';
import { isBlank } from '../lib/schema-fields';
import { useIsMobile } from '../lib/use-mobile';
import { FormField } from './form-field';
import type { FormModel, ResolvedField } from './form-model';

/**
 * On a phone the bar shows this many filters (one to a row there); the others fold behind a
 * toggle, so a list's rows are in the first screen however many filters it has.
 */
const PHONE_SHOWN = 1;

/** A filter the user has set: a value other than blank and other than the filter's own first value. */
const isSet = (field: ResolvedField, value: unknown) => {
  if (Array.isArray(value)) return value.some((v) => !isBlank(v));
  return !isBlank(typeof value === 'string' ? value.trim() : value) && value !== field.initialValue;
};

export interface FilterBarProps {
  form: FormInstance<Payload>;
  model: FormModel;
  /** The form's name (ids of its fields). */
  name: string;
  initialValues: Payload;
  /** Search (and Reset, with the reset values). */
  onSearch: (values: Payload) => void;
}

/**
 * The filter bar of a list (ResourceTable): the filters in a row with Search and Reset. On a
 * phone the filters past the first fold behind "More filters", which says how many of them are
 * set while folded; folded filters stay in the form, so they still apply. Desktop: no toggle.
 */
export const FilterBar = ({ form, model, name, initialValues, onSearch }: FilterBarProps) => {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const [expanded, setExpanded] = useState(false);
  const folds = isMobile && model.fields.length > PHONE_SHOWN;
  const foldedSet =
    Form.useWatch(
      (values: Payload | undefined) => model.fields.slice(PHONE_SHOWN).filter((f) => isSet(f, values?.[f.name])).length,
      form,
    ) ?? 0;

  const toggleText = expanded
    ? t('common.fewer_filters')
    : foldedSet > 0
      ? t('common.more_filters_active', { count: foldedSet })
      : t('common.more_filters');

  return (
    <Form
      form={form}
      layout={isMobile ? 'vertical' : 'inline'}
      name={name}
      aria-label={t('common.filters')}
      onFinish={onSearch}
      initialValues={initialValues}
      style={{ marginBottom: 16, rowGap: 8 }}
    >
      {model.fields.map((f, i) => (
        // Folded filters stay mounted (hidden): their values are kept and sent.
        <div key={f.name} hidden={folds && !expanded && i >= PHONE_SHOWN} style={{ minWidth: isMobile ? undefined : 200 }}>
          <FormField field={f} model={model} compact />
        </div>
      ))}
      <Form.Item style={isMobile ? { marginBottom: 0 } : undefined}>
        <Space wrap>
          <Button type="primary" htmlType="submit">
            {t('common.search')}
          </Button>
          <Button
            onClick={() => {
              form.resetFields();
              onSearch(form.getFieldsValue());
            }}
          >
            {t('common.reset')}
          </Button>
          {folds && (
            <Button
              type="link"
              aria-expanded={expanded}
              icon={expanded ? <UpOutlined aria-hidden /> : <DownOutlined aria-hidden />}
              iconPlacement="end"
              onClick={() => setExpanded(!expanded)}
            >
              {toggleText}
            </Button>
          )}
        </Space>
      </Form.Item>
    </Form>
  );
};
