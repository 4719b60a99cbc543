import { z } from 'zod';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../envelope.js';

/**
 * SPEC §5 coercion, applied by the server to every payload before validation:
 * text fields accept numbers (→ string), numeric fields accept numeric strings
 * (→ integer), id arrays accept a single id or numeric strings (→ integer[]).
 */
const toText = (v: unknown) => (typeof v === 'number' || typeof v === 'boolean' ? String(v) : v);
const toInt = (v: unknown) => {
  if (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v)) return Number(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  return v;
};
const toIntArray = (v: unknown) => {
  if (v === undefined || v === null) return v;
  const list = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',').filter((s) => s.trim() !== '') : [v];
  return list.map(toInt);
};

/** A text field; `max` bounds its length. */
export const text = (max = 255) => z.preprocess(toText, z.string().trim().max(max));
/** A required, non-empty text field. */
export const requiredText = (max = 255) => z.preprocess(toText, z.string().trim().min(1).max(max));
export const int = () => z.preprocess(toInt, z.number().int().min(-2_147_483_648).max(2_147_483_647));
/** Unix seconds (bigint in storage). */
export const unixTime = () => z.preprocess(toInt, z.number().int().min(0).max(253_402_300_799));
export const id = () => z.preprocess(toInt, z.number().int().positive().max(2_147_483_647));
export const ids = () => z.preprocess(toIntArray, z.array(z.number().int().positive().max(2_147_483_647)).max(1000));
export const oneOf = <T extends readonly number[]>(values: T) =>
  z.preprocess(
    toInt,
    z
      .number()
      .int()
      .refine((v) => values.includes(v), { message: `one_of:${values.join(',')}` }),
  );
export const email = () => z.preprocess(toText, z.union([z.literal(''), z.string().trim().max(128).pipe(z.email())]));
/** Mobile numbers are 11 digits in China (+86); other areas allow 5–15 digits. */
export const phone = () =>
  z.preprocess(
    toText,
    z
      .string()
      .trim()
      .regex(/^(\d{5,15})?$/, 'format:phone'),
  );
export const phoneArea = () =>
  z.preprocess(
    toText,
    z
      .string()
      .trim()
      .regex(/^\+\d{1,4}$/, 'format:phone_area'),
  );

/** Paging of CONTRACT §2; `page_index` is an alias of `page_no`. */
export const pagingSchema = z.object({
  page_no: z.preprocess(toInt, z.number().int().min(1).max(10_000_000)).optional(),
  page_index: z.preprocess(toInt, z.number().int().min(1).max(10_000_000)).optional(),
  page_size: z.preprocess(toInt, z.number().int().min(1).max(PAGE_SIZE_MAX)).optional(),
  /** A sortable field of the list (each list documents its own); ties are broken by id. */
  order_by: z.string().trim().max(64).optional(),
  order: z.enum(['asc', 'desc']).optional(),
});
export type Paging = z.infer<typeof pagingSchema>;

export const resolvePaging = (p: Paging) => {
  const pageNo = p.page_no ?? p.page_index ?? 1;
  const pageSize = p.page_size ?? PAGE_SIZE_DEFAULT;
  return { pageNo, pageSize, offset: (pageNo - 1) * pageSize };
};

/** Time-range filter: inclusive start, exclusive end (CONTRACT §1). */
export const timeRangeSchema = z.object({
  gmt_start: unixTime().optional(),
  gmt_end: unixTime().optional(),
});

/** `…/del` takes `id` or `ids` (CONTRACT §3). */
export const delSchema = z
  .object({ id: id().optional(), ids: ids().optional() })
  .refine((v) => v.id !== undefined || (v.ids !== undefined && v.ids.length > 0), {
    message: 'required',
    path: ['id'],
  });
export type DelInput = z.infer<typeof delSchema>;
export const idsOf = (v: DelInput): number[] => [...new Set([...(v.id ? [v.id] : []), ...(v.ids ?? [])])];

/**
 * Secret fields (payment keys, platform secrets): stored encrypted, never answered.
 * Mark a field with `secret()`; the server finds them through `secretRegistry`.
 */
export const secretRegistry = z.registry<{ secret: true }>();
export const secret = (max = 4096) => {
  const schema = z.preprocess(toText, z.string().max(max));
  secretRegistry.add(schema, { secret: true });
  return schema;
};
/** What a secret field answers instead of its value. */
export const SECRET_MASK = '******';

export const secretFieldsOf = (schema: z.ZodObject): string[] =>
  Object.entries(schema.shape)
    .filter(([, s]) => secretRegistry.has(unwrap(s as z.ZodType)))
    .map(([k]) => k);

const unwrap = (s: z.ZodType): z.ZodType => {
  let cur: z.ZodType = s;
  while (cur instanceof z.ZodOptional || cur instanceof z.ZodNullable || cur instanceof z.ZodDefault) {
    cur = cur.unwrap() as z.ZodType;
  }
  return cur;
};
