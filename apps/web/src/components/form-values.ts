import dayjs, { type Dayjs } from 'dayjs';
import type { Payload } from '../lib/resource';
import type { FieldConfig } from './field-config';

const isEmpty = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** Row (wire values) → form values: unix seconds become dayjs for date fields. */
export const toFormValues = (fields: FieldConfig[], row: Payload): Payload => {
  const out: Payload = {};
  for (const f of fields) {
    const v = row[f.name];
    if (f.type === 'date') out[f.name] = typeof v === 'number' && v > 0 ? dayjs.unix(v) : undefined;
    else out[f.name] = v;
  }
  return out;
};

/** Initial values of the add form. */
export const initialValuesOf = (fields: FieldConfig[]): Payload =>
  Object.fromEntries(fields.filter((f) => f.initialValue !== undefined).map((f) => [f.name, f.initialValue]));

/**
 * Form values → payload: transient fields dropped, dates to unix seconds,
 * text trimmed, empty fields omitted unless the field says what empty means.
 */
export const toPayload = (fields: FieldConfig[], values: Payload): Payload => {
  const out: Payload = {};
  for (const f of fields) {
    if (f.transient || !(f.name in values)) continue;
    let v = values[f.name];
    if (f.type === 'date-range') {
      const [start, end] = Array.isArray(v) ? (v as [Dayjs | null, Dayjs | null]) : [];
      const [startField, endField] = f.rangeFields ?? ['gmt_start', 'gmt_end'];
      if (start) out[startField] = start.startOf('day').unix();
      if (end) out[endField] = end.add(1, 'day').startOf('day').unix();
      continue;
    }
    if (f.type === 'date' && v) v = (v as Dayjs).unix();
    if (typeof v === 'string') v = v.trim();
    if (isEmpty(v) || (Array.isArray(v) && v.length === 0 && f.emptyValue !== undefined)) {
      if (f.emptyValue !== undefined) out[f.name] = f.emptyValue;
      continue;
    }
    out[f.name] = v;
  }
  return out;
};
