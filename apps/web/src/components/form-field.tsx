import { DatePicker, Form, Input, InputNumber, Select, Switch, TreeSelect } from 'antd';
import type { FormInstance, Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import { cloneElement } from 'react';
import { useTranslation } from 'react-i18next';
import { checkPhoneForArea, checkRule } from '../lib/form-rules';
import type { FieldConfig } from './field-config';

export const fieldLabelKey = (field: FieldConfig, i18nPrefix: string) => field.label ?? `${i18nPrefix}.fields.${field.name}`;

const rulesOf = (field: FieldConfig, t: TFunction): Rule[] => {
  const rules: Rule[] = [];
  if (field.required) {
    const message = t(field.type === 'date' ? 'rules.date_required' : 'rules.required');
    const isText = field.type === undefined || field.type === 'text' || field.type === 'textarea' || field.type === 'password';
    // Only text gets `whitespace`: any key besides required/message makes
    // async-validator check the value's type (string), failing numeric selects.
    rules.push(isText ? { required: true, whitespace: true, message } : { required: true, message });
  }
  if (field.type === 'integer') {
    rules.push({ validator: async (_r, v) => (checkRule('integer', v) ? undefined : Promise.reject(new Error(t('rules.integer')))) });
  }
  for (const name of field.rules ?? []) {
    if (name === 'phone' && field.areaField) continue;
    rules.push({ validator: async (_r, v) => (checkRule(name, v) ? undefined : Promise.reject(new Error(t(`rules.${name}`)))) });
  }
  if (field.areaField) {
    const area = field.areaField;
    rules.push((form) => ({
      validator: async (_r, v) =>
        checkPhoneForArea(v, form.getFieldValue(area)) ? undefined : Promise.reject(new Error(t('rules.phone'))),
    }));
  }
  if (field.sameAs) {
    const other = field.sameAs;
    rules.push((form) => ({
      validator: async (_r, v) =>
        !v || v === form.getFieldValue(other) ? undefined : Promise.reject(new Error(t('rules.password_mismatch'))),
    }));
  }
  return rules;
};

const optionsOf = (field: FieldConfig, t: TFunction) =>
  (field.options ?? []).map((o) => ({
    value: o.value,
    label: o.text ?? (o.label ? t(o.label) : String(o.value)),
    disabled: o.disabled,
  }));

interface FieldControlProps {
  field: FieldConfig;
  disabled?: boolean;
  /** In a filter bar: allow clearing selects, no switches. */
  compact?: boolean;
}

/** The input widget of one field (no Form.Item). */
const FieldControl = ({ field, disabled, compact, ...rest }: FieldControlProps & Record<string, unknown>) => {
  const { t } = useTranslation();
  const common = { disabled, ...rest };
  switch (field.type) {
    case 'number':
    case 'integer':
      return (
        <InputNumber
          {...common}
          style={{ width: '100%' }}
          min={field.min}
          max={field.max}
          precision={field.type === 'integer' ? 0 : field.precision}
        />
      );
    case 'select':
      return (
        <Select
          {...common}
          allowClear={compact || !field.required}
          mode={field.multiple ? 'multiple' : undefined}
          options={optionsOf(field, t)}
          placeholder={t('common.select')}
          showSearch={(field.options?.length ?? 0) > 8 ? { optionFilterProp: 'label' } : undefined}
        />
      );
    case 'tree-select':
      return (
        <TreeSelect
          {...common}
          allowClear={compact || !field.required}
          treeData={field.treeData}
          multiple={field.multiple}
          placeholder={t('common.select')}
          showSearch={{ treeNodeFilterProp: 'title' }}
          treeDefaultExpandAll
          style={{ width: '100%' }}
        />
      );
    case 'switch':
      return <Switch {...common} />;
    case 'password':
      return <Input.Password {...common} maxLength={field.maxLength} autoComplete={field.autoComplete ?? 'new-password'} />;
    case 'textarea':
      return <Input.TextArea {...common} maxLength={field.maxLength} autoSize={{ minRows: 3, maxRows: 10 }} />;
    case 'date':
      return <DatePicker {...common} style={{ width: '100%' }} />;
    case 'date-range':
      return <DatePicker.RangePicker {...common} style={{ width: '100%' }} />;
    case 'custom':
      return field.control ? cloneElement(field.control, common) : null;
    default:
      return <Input {...common} maxLength={field.maxLength} autoComplete={field.autoComplete} allowClear={compact} />;
  }
};

interface FormFieldProps {
  field: FieldConfig;
  i18nPrefix: string;
  disabled?: boolean;
  compact?: boolean;
  /** Filters never enforce `required`. */
  noRules?: boolean;
}

/** Form.Item + control for a field config, with SPEC §5 rule messages. */
export const FormField = ({ field, i18nPrefix, disabled, compact, noRules }: FormFieldProps) => {
  const { t } = useTranslation();
  const isSwitch = field.type === 'switch';
  const [on, off] = field.switchValues ?? [1, 2];
  return (
    <Form.Item
      name={field.name}
      label={t(fieldLabelKey(field, i18nPrefix))}
      rules={noRules ? undefined : rulesOf(field, t)}
      extra={field.extra ? t(field.extra) : undefined}
      dependencies={field.sameAs ? [field.sameAs] : field.areaField ? [field.areaField] : undefined}
      valuePropName={isSwitch ? 'checked' : undefined}
      getValueProps={isSwitch ? (v: unknown) => ({ checked: v === on }) : undefined}
      normalize={isSwitch ? (checked: boolean) => (checked ? on : off) : undefined}
    >
      <FieldControl field={field} disabled={disabled} compact={compact} />
    </Form.Item>
  );
};

export type { FormInstance };
