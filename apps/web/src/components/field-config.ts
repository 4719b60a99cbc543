import type { TreeSelectProps } from 'antd';
import type { ReactElement } from 'react';
import { type FieldKey, type LabelArea, type LabelGroup, type LabelKey, valueLabel } from '../lib/labels';

/** How a field looks. Without one it follows from the schema: values → select, number → number input, else text. */
export type Widget =
  | 'text'
  | 'number'
  | 'select'
  | 'radio'
  | 'switch'
  | 'password'
  | 'textarea'
  | 'tree-select'
  /** The company tree (the default of a `companyRef()` field). */
  | 'company'
  | 'date'
  | 'date-range'
  | 'custom';

export interface FieldOption {
  value: string | number;
  /** i18n key of the label. */
  label?: LabelKey;
  /** Literal label (data from the server, e.g. a company name). */
  text?: string;
  disabled?: boolean;
}

/**
 * One form or filter field, as presentation only: which widget, labels, hints, layout. Its
 * rules (required, lengths, bounds, integer, allowed values, default, what empty means) come
 * from the contract schema of the command the form sends (see form-model.ts). The label is
 * `<area>.fields.<name>` unless `label` says otherwise.
 */
export interface FieldConfig {
  name: string;
  widget?: Widget;
  label?: LabelKey;
  /** Labels of the schema's values: `<enumLabels>.<value>` (`user.states` → `user.states.1`). */
  enumLabels?: LabelGroup;
  /** Choices the schema does not list: data (companies, roles) or a filter's own. */
  options?: FieldOption[];
  /** Values the user may see but not choose (a type only the super administrator gives). */
  disabledValues?: readonly (string | number)[];
  treeData?: TreeSelectProps['treeData'];
  /** i18n key of a help text under the field; it may name the schema's `{{min}}`/`{{max}}`. */
  extra?: LabelKey;
  /** More values the help text names (a row's product key). */
  extraValues?: Record<string, unknown>;
  /** Shown (and sent) only while another field of the form holds one of these values (a provider's own settings). */
  showWhen?: { field: string; values: readonly unknown[] };
  /** While another field holds a key of `values`, only that key's values may be chosen; the rest show disabled (a channel's providers). */
  choicesWhen?: { field: string; values: Readonly<Record<string | number, readonly unknown[]>> };
  /** Only in this form mode. */
  only?: 'add' | 'edit';
  disabledOnEdit?: boolean;
  /** Shown, sent, never typed into (the code being bound). */
  readOnly?: boolean;
  /** A filter's first value (the add form starts from the schema's defaults). */
  initialValue?: unknown;
  /** Not sent: must equal this other field (password confirmation). */
  sameAs?: string;
  /**
   * The form holds what the page encodes before sending (a password, hashed by `toPayload`):
   * only `required` is checked while typing, the schema checks the encoded value on submit.
   */
  encoded?: boolean;
  /** Decimal places of a number field (integers have none). */
  precision?: number;
  multiple?: boolean;
  /** Takes the whole row in a two-column form. */
  wide?: boolean;
  autoComplete?: string;
  /**
   * `date-range`: the payload fields of the start (inclusive, start of the first day) and the
   * end (exclusive, start of the day after the last), unix seconds.
   */
  rangeFields?: [string, string];
  /** `custom`: the control; Form.Item hands it `value` and `onChange`. */
  control?: ReactElement;
}

/** Fields of a screen whose labels live in area `A`: a name without a label there fails `tsc`. */
export type Fields<A extends LabelArea> = (FieldConfig & ({ name: `${FieldKey<A>}`; label?: LabelKey } | { label: LabelKey }))[];

/** Choices of fixed values (a filter's own), labelled `<group>.<value>`. */
export const valueOptions = (values: readonly (string | number)[], group: LabelGroup): FieldOption[] =>
  values.map((value) => ({ value, label: valueLabel(group, value) }));
