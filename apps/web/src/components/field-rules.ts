import type { FormInstance, FormItemProps, Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import { toastError } from '../lib/feedback';
import type { Payload } from '../lib/resource';
import { ruleMessage } from '../lib/rule-messages';
import { isBlank } from '../lib/schema-fields';
import type { FormModel, ResolvedField } from './form-model';

/**
 * The schema's rules on antd forms, without any widget (a page with one plain input need not
 * load them all): Form.Item props, submit, refusals shown on their fields.
 */

/**
 * The message of a rule a field breaks, with the field's bounds and its screen's own wording;
 * `name`: the payload field when the form does not show it (the message is toasted).
 */
export const fieldRuleMessage = <In>(model: FormModel<In>, field: ResolvedField | undefined, rule: string, t: TFunction, name?: string) =>
  ruleMessage(rule, t, {
    area: model.area,
    field: field ? t(field.label) : name,
    ...(field?.spec?.kind === 'number' ? { min: field.spec.min, max: field.spec.max } : {}),
  });

/** One validator per field: the first rule its value breaks (the contract schema's), one message. */
const rulesOf = <In>(model: FormModel<In>, field: ResolvedField, t: TFunction): Rule[] => [
  ({ getFieldsValue }) => ({
    required: field.required,
    validator: async (_r, value: unknown) => {
      const rule = model.check(field, { ...getFieldsValue(true), [field.name]: value });
      if (rule) throw new Error(fieldRuleMessage(model, field, rule, t));
    },
  }),
];

/** Form.Item props of a field: name, label, the schema's rules (none in a filter bar), help text. */
export const formItemProps = (model: FormModel, field: ResolvedField, t: TFunction): FormItemProps => ({
  name: field.name,
  label: t(field.label),
  rules: model.mode === 'filter' ? undefined : rulesOf(model, field, t),
  extra: field.extra ? t(field.extra, { min: field.spec?.min, max: field.spec?.max, ...field.extraValues }) : undefined,
  dependencies: field.sameAs ? [field.sameAs] : undefined,
});

/**
 * Validates the form, builds the payload (after the page's last touch) and checks it against
 * the schema: the command's input, or null when refused (the reasons are on the fields, or
 * toasted when about a field the form does not show).
 */
export const readForm = async <In>(
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
  const [name, rule = 'invalid'] = Object.entries(checked.errors)[0] ?? [];
  toastError(onFields ? t('rules.fill_required') : fieldRuleMessage(model, undefined, rule, t, name));
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
