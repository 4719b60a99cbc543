import { Form, Input, InputNumber, Radio, Select, Switch, TreeSelect, type TreeSelectProps } from 'antd';
import type { TFunction } from 'i18next';
import { cloneElement } from 'react';
import { useTranslation } from 'react-i18next';
import { isBlank } from '../lib/schema-fields';
import { DateInput } from './date-input';
import { formItemProps } from './field-rules';
import type { FormModel, ResolvedField } from './form-model';
import { useCompanyTreeData } from './pickers';

const optionsOf = (field: ResolvedField, t: TFunction) =>
  field.choices.map((o) => ({
    value: o.value,
    label: o.text ?? (o.label ? t(o.label) : String(o.value)),
    disabled: o.disabled,
  }));

/** The companies in the caller's scope as a tree. */
const CompanyTreeSelect = (props: TreeSelectProps) => {
  const { t } = useTranslation();
  const treeData = useCompanyTreeData();
  return (
    <TreeSelect
      {...props}
      treeData={treeData}
      placeholder={t('common.select')}
      showSearch={{ treeNodeFilterProp: 'title' }}
      treeDefaultExpandAll
      style={{ width: '100%' }}
    />
  );
};

interface FieldControlProps {
  field: ResolvedField;
  disabled?: boolean | undefined;
  /** In a filter bar: allow clearing selects, no switches. */
  compact?: boolean | undefined;
}

/** A select may be cleared when blank means something (nothing, null or a blank default). */
const clearable = (field: ResolvedField) => !field.required && (!field.empty || isBlank(field.empty.value) || field.empty.value === 0);

/** The input widget of one field (no Form.Item). */
const FieldControl = ({ field, disabled, compact, ...rest }: FieldControlProps & Record<string, unknown>) => {
  const { t } = useTranslation();
  const common = { disabled, ...rest };
  const spec = field.spec;
  switch (field.widget) {
    case 'number':
      return (
        <InputNumber
          {...common}
          style={{ width: '100%' }}
          min={spec?.min}
          max={spec?.max}
          precision={spec?.integer ? 0 : field.precision}
        />
      );
    case 'select':
      return (
        <Select
          {...common}
          allowClear={compact || clearable(field)}
          mode={field.multiple ? 'multiple' : undefined}
          options={optionsOf(field, t)}
          placeholder={t('common.select')}
          showSearch={field.choices.length > 8 ? { optionFilterProp: 'label' } : undefined}
        />
      );
    case 'radio':
      return <Radio.Group {...common} options={optionsOf(field, t)} />;
    case 'tree-select':
      return (
        <TreeSelect
          {...common}
          allowClear={compact || clearable(field)}
          treeData={field.treeData}
          multiple={field.multiple}
          placeholder={t('common.select')}
          showSearch={{ treeNodeFilterProp: 'title' }}
          treeDefaultExpandAll
          style={{ width: '100%' }}
        />
      );
    case 'company':
      return <CompanyTreeSelect {...common} allowClear={compact || clearable(field)} multiple={field.multiple} />;
    case 'switch':
      return <Switch {...common} />;
    case 'password':
      return <Input.Password {...common} maxLength={spec?.maxLength} autoComplete={field.autoComplete ?? 'new-password'} />;
    case 'textarea':
      return <Input.TextArea {...common} maxLength={spec?.maxLength} autoSize={{ minRows: 3, maxRows: 10 }} />;
    case 'date':
      return <DateInput {...common} />;
    case 'date-range':
      return <DateInput {...common} range />;
    case 'custom':
      return field.control ? cloneElement(field.control, common) : null;
    default:
      return (
        <Input {...common} maxLength={spec?.maxLength} autoComplete={field.autoComplete} allowClear={compact} readOnly={field.readOnly} />
      );
  }
};

interface FormFieldProps {
  field: ResolvedField;
  model: FormModel;
  disabled?: boolean | undefined;
  compact?: boolean | undefined;
}

/** Form.Item + control of a resolved field; its rules are the contract schema's (none in a filter bar). */
export const FormField = ({ field, model, disabled, compact }: FormFieldProps) => {
  const { t } = useTranslation();
  const isSwitch = field.widget === 'switch';
  const [on, off] = field.switchValues;
  return (
    <Form.Item
      {...formItemProps(model, field, t)}
      valuePropName={isSwitch ? 'checked' : undefined}
      getValueProps={isSwitch ? (v: unknown) => ({ checked: v === on }) : undefined}
      normalize={isSwitch ? (checked: boolean) => (checked ? on : off) : undefined}
    >
      <FieldControl field={field} disabled={disabled} compact={compact} />
    </Form.Item>
  );
};
