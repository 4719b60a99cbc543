import { z } from 'zod';
import { id, pagingSchema } from './common.js';
import { companyRef } from './company-ref.js';

/**
 * The schemas of a plain resource, written once: its editable fields (with `.default()` where
 * `add` fills a value in), its list filters, and whether a company owns its rows.
 *
 * - `add`: the fields; an owned resource also takes `comp_id` (a company reference; the caller's own
 *   company when absent).
 * - `set`: `id` and every field optional, defaults removed (absent means "keep").
 * - `row`: `id`, the fields, `comp_id` and `comp_name` when owned, `gmt_create`, `gmt_update`, and
 *   `rowExtra` (what the server adds: counts, names of related rows).
 * - `list`: paging (`order_by`, `order`) and the filters; an owned resource can be filtered by `comp_id`.
 */
type StripDefault<T> = T extends z.ZodDefault<infer I> ? I : T;
type Stripped<F extends z.ZodRawShape> = { [K in keyof F]: StripDefault<F[K]> };
type Optionals<F extends z.ZodRawShape> = { [K in keyof F]: z.ZodOptional<StripDefault<F[K]>> };

const ownedAdd = { comp_id: companyRef().optional() };
const ownedRow = { comp_id: z.number().int(), comp_name: z.string() };
const ownedFilter = { comp_id: companyRef().optional() };
const times = { gmt_create: z.number().int(), gmt_update: z.number().int() };

const stripDefault = (s: z.ZodType): z.ZodType => (s instanceof z.ZodDefault ? (s.unwrap() as z.ZodType) : s);

export interface CrudSchemaSpec<F extends z.ZodRawShape, L extends z.ZodRawShape, X extends z.ZodRawShape, O extends boolean> {
  fields: F;
  filters?: L;
  rowExtra?: X;
  owned: O;
}

export const crudSchemas = <
  F extends z.ZodRawShape,
  L extends z.ZodRawShape = Record<never, never>,
  X extends z.ZodRawShape = Record<never, never>,
  O extends boolean = false,
>(
  spec: CrudSchemaSpec<F, L, X, O>,
) => {
  type Own<T> = O extends true ? T : Record<never, never>;
  const owned = spec.owned === true;
  const stripped = Object.fromEntries(Object.entries(spec.fields).map(([k, s]) => [k, stripDefault(s as z.ZodType)]));
  const optional = Object.fromEntries(Object.entries(stripped).map(([k, s]) => [k, s.optional()]));
  return {
    add: z.object({ ...spec.fields, ...(owned ? ownedAdd : {}) }) as unknown as z.ZodObject<F & Own<typeof ownedAdd>>,
    set: z.object({ id: id(), ...optional }) as unknown as z.ZodObject<{ id: ReturnType<typeof id> } & Optionals<F>>,
    row: z.object({
      id: z.number().int(),
      ...stripped,
      ...(owned ? ownedRow : {}),
      ...times,
      ...(spec.rowExtra ?? {}),
    }) as unknown as z.ZodObject<{ id: z.ZodNumber } & Stripped<F> & Own<typeof ownedRow> & typeof times & X>,
    list: pagingSchema.extend({ ...(spec.filters ?? {}), ...(owned ? ownedFilter : {}) }) as unknown as z.ZodObject<
      (typeof pagingSchema)['shape'] & L & Own<typeof ownedFilter>
    >,
  };
};

export type CrudSchemas = ReturnType<typeof crudSchemas>;
