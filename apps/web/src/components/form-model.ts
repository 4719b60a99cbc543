import dayjs, { type Dayjs } from 'dayjs';
import type { z } from 'zod';
import { fieldLabel, type LabelKey, valueLabel } from '../lib/labels';
import type { Payload } from '../lib/resource';
import { checkPayload, describeFields, type FieldSpec, fieldError, isBlank, objectOf } from '../lib/schema-fields';
import type { FieldConfig, FieldOption, Widget } from './field-config';

export type FormMode = 'add' | 'edit' | 'filter';

/** A field config joined with what the schema says about it. */
export interface ResolvedField extends FieldConfig {
  widget: Widget;
  label: LabelKey;
  /** What the command's schema says; absent for fields it does not take (a confirmation). */
  spec?: FieldSpec | undefined;
  /** The form refuses it blank. */
  required: boolean;
  /** Sent with the payload (the schema takes it). */
  sent: boolean;
  /** What a blank field sends: the schema's default or null; absent: left out. */
  empty?: { value: unknown } | undefined;
  /** Choices of a select or radio group. */
  choices: FieldOption[];
  /** Switch values sent for on and off. */
  switchValues: [unknown, unknown];
}

export interface FormModelOptions<S extends z.ZodType = z.ZodType> {
  fields: FieldConfig[];
  /** Label area: `<area>.fields.<name>`; also `<area>.rules.<rule>` for messages of its own. */
  area: string;
  mode: FormMode;
  /** The input schema of the command the form sends (add, set, a list's filters). */
  schema?: S | undefined;
  /** The add command's schema: what the fields of an edit form require and what empty means. */
  addSchema?: z.ZodType | undefined;
  /** Values that pick a discriminated union's branch and are sent with every payload (`res_type`). */
  fixed?: Payload | undefined;
  /** Edit: the row (a field the add form requires cannot be emptied if the row has it). */
  row?: Payload | undefined;
}

/** Row (wire values) → form values: unix seconds become dayjs for date fields. */
const formValueOf = (field: ResolvedField, v: unknown): unknown => {
  if (field.widget === 'date') return typeof v === 'number' && v > 0 ? dayjs.unix(v) : undefined;
  return v;
};

/** The switch values of a field with two allowed values: 1 is on (1/2 and 1/0 pairs), else the first. */
const switchValuesOf = (spec: FieldSpec | undefined): [unknown, unknown] => {
  if (spec?.kind === 'boolean') return [true, false];
  const options = spec?.options ?? [1, 2];
  const on = options.includes(1) ? 1 : options[0];
  return [on, options.find((v) => v !== on)];
};

const widgetOf = (field: FieldConfig, spec: FieldSpec | undefined): Widget => {
  if (field.widget) return field.widget;
  if (spec?.companyRef && !field.options) return 'company';
  if (field.options || spec?.options) return 'select';
  if (spec?.kind === 'number') return 'number';
  if (spec?.kind === 'boolean') return 'switch';
  return 'text';
};

export interface FormModel<In = unknown> {
  area: string;
  mode: FormMode;
  fields: ResolvedField[];
  /** The form's first values: the schema's defaults (add), the row (edit), the filters' own. */
  initialValues: (extra?: Payload) => Payload;
  /** Form values → payload: text trimmed, dates to unix seconds, blanks as the schema's empty value or left out. */
  payloadOf: (values: Payload) => Payload;
  /** The rule a field's value breaks while the form is filled in, or null. */
  check: (field: ResolvedField, values: Payload) => string | null;
  /** The whole payload (after the page's own touches) against the schema: its input, or field → rule. */
  accept: (payload: Payload) => { input: In; errors?: undefined } | { input?: undefined; errors: Record<string, string> };
  /** The object has refinements over several fields: other filled-in fields are checked again on a change. */
  crossChecks: boolean;
}

/**
 * Joins a screen's field configs with the contract schema of the command the form sends:
 * every rule of the form comes from the schema, so the form refuses what the server would.
 */
export const formModel = <S extends z.ZodType>({
  fields,
  area,
  mode,
  schema,
  addSchema,
  fixed,
  row,
}: FormModelOptions<S>): FormModel<z.input<S>> => {
  const select = { ...row, ...fixed };
  const object = objectOf(schema, select);
  const specs = describeFields(schema, select);
  const addSpecs = addSchema ? describeFields(addSchema, select) : specs;
  const visible = fields.filter((f) => !f.only || f.only === mode);

  const resolved = visible.map((f): ResolvedField => {
    const spec = specs.get(f.name) ?? (mode === 'edit' ? addSpecs.get(f.name) : undefined);
    const addSpec = addSpecs.get(f.name) ?? spec;
    const required = mode === 'add' ? !!addSpec?.required : mode === 'edit' ? !!addSpec?.required && row?.[f.name] !== undefined : false;
    const empty =
      mode === 'filter' || !addSpec
        ? undefined
        : addSpec.nullable
          ? { value: null }
          : addSpec.hasDefault
            ? { value: addSpec.defaultValue }
            : undefined;
    const values = spec?.options ?? addSpec?.options;
    const choices =
      f.options ??
      (values ?? []).map((v) => ({
        value: v,
        ...(f.enumLabels ? { label: valueLabel(f.enumLabels, v) } : { text: String(v) }),
        disabled: f.disabledValues?.includes(v),
      }));
    return {
      ...f,
      multiple: f.multiple ?? (spec ?? addSpec)?.kind === 'array',
      widget: widgetOf(f, spec ?? addSpec),
      label: f.label ?? fieldLabel(area, f.name),
      spec,
      required,
      sent: mode === 'filter' || (object ? f.name in object.shape : !!spec),
      empty,
      choices,
      switchValues: switchValuesOf(spec ?? addSpec),
    };
  });
  // A confirmation is required when what it confirms is.
  for (const f of resolved) {
    if (f.sameAs) f.required = resolved.find((o) => o.name === f.sameAs)?.required ?? false;
  }

  const payloadOf = (values: Payload): Payload => {
    const out: Payload = {};
    for (const f of resolved) {
      if (!f.sent || !(f.name in values)) continue;
      let v = values[f.name];
      if (f.widget === 'date-range') {
        const [start, end] = Array.isArray(v) ? (v as [Dayjs | null, Dayjs | null]) : [];
        const [startField, endField] = f.rangeFields ?? ['gmt_start', 'gmt_end'];
        if (start) out[startField] = start.startOf('day').unix();
        if (end) out[endField] = end.add(1, 'day').startOf('day').unix();
        continue;
      }
      if (f.widget === 'date' && dayjs.isDayjs(v)) v = v.unix();
      if (typeof v === 'string') v = v.trim();
      if (isBlank(v)) {
        if (f.empty) out[f.name] = f.empty.value;
        continue;
      }
      out[f.name] = v;
    }
    return { ...out, ...fixed };
  };

  const initialValues = (extra: Payload = {}): Payload => {
    const out: Payload = {};
    for (const f of resolved) {
      const v = mode === 'edit' ? row?.[f.name] : mode === 'add' && f.spec?.hasDefault ? f.spec.defaultValue : f.initialValue;
      if (v !== undefined) out[f.name] = formValueOf(f, v);
    }
    return { ...out, ...(mode === 'edit' ? {} : extra) };
  };

  const check = (f: ResolvedField, values: Payload): string | null => {
    const v = values[f.name];
    const blank = isBlank(typeof v === 'string' ? v.trim() : v);
    if (f.required && blank) return 'required';
    if (f.sameAs) return blank || v === values[f.sameAs] ? null : 'same_as';
    if (mode === 'filter' || f.encoded || !f.sent || !object) return null;
    const payload = payloadOf(values);
    // An edit form does not object to a value the user left as it was (the server holds it).
    const unchanged = mode === 'edit' && JSON.stringify(payload[f.name]) === JSON.stringify(row?.[f.name]);
    return fieldError(object, f.name, payload, !unchanged);
  };

  return {
    area,
    mode,
    fields: resolved,
    initialValues,
    payloadOf,
    check,
    // Without a schema (or in a filter bar) nothing is refused.
    accept: (payload) => (schema && mode !== 'filter' ? checkPayload(schema, payload) : { input: payload as z.input<S> }),
    crossChecks: (object?._zod.def.checks?.length ?? 0) > 0,
  };
};

/** A field's choices as the form's other values allow them now (`choicesWhen`): the others disabled. */
export const narrowChoices = (field: ResolvedField, values: Readonly<Record<string, unknown>> | undefined): ResolvedField => {
  const rule = field.choicesWhen;
  const allowed = rule ? rule.values[String(values?.[rule.field])] : undefined;
  if (!allowed) return field;
  return { ...field, choices: field.choices.map((c) => ({ ...c, disabled: c.disabled || !allowed.includes(c.value) })) };
};
