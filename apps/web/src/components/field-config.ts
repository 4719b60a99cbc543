import type { TreeSelectProps } from 'antd';
import type { ReactElement } from 'react';
import type { RuleName } from '../lib/form-rules';

export type FieldType =
  | 'text'
  | 'number'
  | 'integer'
  | 'select'
  | 'switch'
  | 'password'
  | 'textarea'
  | 'tree-select'
  | 'date'
  | 'date-range'
  | 'custom';

export interface FieldOption {
  value: string | number;
  /** i18n key of the label. */
  label?: string;
  /** Literal label (data from the server, e.g. a company name). */
  text?: string;
  disabled?: boolean;
}

/**
 * One form field, declared as data. Labels default to `<i18nPrefix>.fields.<name>`;
 * every text here is an i18n key. Used by ModalForm and ResourceTable filters.
 */
export interface FieldConfig {
  name: string;
  type?: FieldType;
  /** i18n key overriding `<prefix>.fields.<name>`. */
  label?: string;
  required?: boolean;
  rules?: RuleName[];
  options?: FieldOption[];
  treeData?: TreeSelectProps['treeData'];
  /** Default value in the add form (and of a filter). */
  initialValue?: unknown;
  /** i18n key of a help text under the field. */
  extra?: string;
  /** Only in this form mode. */
  only?: 'add' | 'edit';
  disabledOnEdit?: boolean;
  /** What to send when the field is left empty; default: the field is not sent. */
  emptyValue?: null | '' | 0;
  /** Switch values sent for on/off; default [1, 2] (the usual state pair). */
  switchValues?: [string | number, string | number];
  /** This field must equal another one (password confirmation). */
  sameAs?: string;
  /** For `phone` fields: the sibling phone-area field (+86 means 11 digits). */
  areaField?: string;
  min?: number;
  max?: number;
  /** Decimal places of a `number` field. */
  precision?: number;
  multiple?: boolean;
  maxLength?: number;
  /** Not sent to the server (e.g. password confirmation). */
  transient?: boolean;
  /** Takes the whole row in a two-column form. */
  wide?: boolean;
  autoComplete?: string;
  /**
   * `date-range`: the payload fields of the start (inclusive, start of the first
   * day) and the end (exclusive, start of the day after the last), unix seconds.
   */
  rangeFields?: [string, string];
  /** `custom`: the control; Form.Item hands it `value` and `onChange`. */
  control?: ReactElement;
}
