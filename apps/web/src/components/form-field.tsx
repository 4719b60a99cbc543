import { DatePicker, Form, Input, InputNumber, Radio, Select, Switch, TreeSelect } from 'antd';
import type { FormInstance, Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import { cloneElement } from 'react';
import { useTranslation } from 'react-i18next';
import { toastError } from '../lib/feedback';
import type { Payload } from '../lib/resource';
import { ruleMessage } from '../lib/rule-messages';
import { isBlank } from '../lib/schema-fields';
import type { FormModel, ResolvedField } from './form-model';

/** The message of a rule a field breaks, with the field's bounds and its screen's own wording. */
export const fieldRuleMessage = <In,>(model: FormModel<In>, field: ResolvedField | undefined, rule: string, t: TFunction) =>
  ruleMessage(rule, t, {
    area: model.area,
    ...(field?.spec?.kind === 'number' ? { min: field.spec.min, max: field.spec.max } : {}),
  });

/** One validator per field: the first rule its value breaks (the contract schema's), one message. */
const rulesOf = <In,>(model: FormModel<In>, field: ResolvedField, t: TFunction): Rule[] => [
  ({ getFieldsValue }) => ({
    required: field.required,
    validator: async (_r, value: unknown) => {
      const rule = model.check(field, { ...getFieldsValue(true), [field.name]: value });
      if (rule) throw new Error(fieldRuleMessage(model, field, rule, t));
    },
  }),
];

const optionsOf = (field: ResolvedField, t: TFunction) =>
  field.choices.map((o) => ({
    value: o.value,
    label: o.text ?? (o.label ? t(o.label) : String(o.value)),
    disabled: o.disabled,
  }));

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
    case 'switch':
      return <Switch {...common} />;
    case 'password':
      return <Input.Password {...common} maxLength={spec?.maxLength} autoComplete={field.autoComplete ?? 'new-password'} />;
    case 'textarea':
      return <Input.TextArea {...common} maxLength={spec?.maxLength} autoSize={{ minRows: 3, maxRows: 10 }} />;
    case 'date':
      return <DatePicker {...common} style={{ width: '100%' }} />;
    case 'date-range':
      return <DatePicker.RangePicker {...common} style={{ width: '100%' }} />;
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
      name={field.name}
      label={t(field.label)}
      rules={model.mode === 'filter' ? undefined : rulesOf(model, field, t)}
      extra={field.extra ? t(field.extra, { min: field.spec?.min, max: field.spec?.max, ...field.extraValues }) : undefined}
      dependencies={field.sameAs ? [field.sameAs] : undefined}
      valuePropName={isSwitch ? 'checked' : undefined}
      getValueProps={isSwitch ? (v: unknown) => ({ checked: v === on }) : undefined}
      normalize={isSwitch ? (checked: boolean) => (checked ? on : off) : undefined}
    >
      <FieldControl field={field} disabled={disabled} compact={compact} />
    </Form.Item>
  );
};

/**
 * Validates the form, builds the payload (after the page's last touch) and checks it against
 * the schema: the command's input, or null when refused (the reasons are on the fields, or
 * toasted when about a field the form does not show).
 */
export const readForm = async <In,>(
  form: FormInstance,
  model: FormModel<In>,
  t: TFunction,
  prepare?: (payload: Payload) => Payload | Promise<Payload>,
): Promise<In | null> => {
  let values: Payload;
  try {
    values = await form.validateFields();
  } catch {
    toastError(t('rules.fill_required'));
    return null;
  }
  const payload = model.payloadOf(values);
  const checked = model.accept(prepare ? await prepare(payload) : payload);
  if (!checked.errors) return checked.input;
  const onFields = showFieldErrors(form, model, checked.errors, t);
  const [rule = 'invalid'] = Object.values(checked.errors);
  toastError(onFields ? t('rules.fill_required') : fieldRuleMessage(model, undefined, rule, t));
  return null;
};

/**
 * A field refined together with others (a phone and its area) is checked again when another
 * field changes: filled-in fields the user has touched are validated once more.
 */
export const recheckTouched = (form: FormInstance, model: FormModel, changed: string[]) => {
  if (!model.crossChecks) return;
  const names = model.fields
    .map((f) => f.name)
    .filter((n) => !changed.includes(n) && form.isFieldTouched(n) && !isBlank(form.getFieldValue(n)));
  if (names.length > 0) form.validateFields(names).catch(() => undefined);
};

/**
 * Rules of a refused payload (the schema's or the server's 406) on their fields; a rule about
 * a field the form does not show is toasted. Answers whether any was shown on a field.
 */
export const showFieldErrors = (form: FormInstance, model: FormModel, fields: Record<string, string>, t: TFunction): boolean => {
  const byName = new Map(model.fields.map((f) => [f.name, f]));
  const shown = Object.entries(fields).filter(([name]) => byName.has(name));
  form.setFields(shown.map(([name, rule]) => ({ name, errors: [fieldRuleMessage(model, byName.get(name), rule, t)] })));
  return shown.length > 0;
};

export type { FormInstance };
