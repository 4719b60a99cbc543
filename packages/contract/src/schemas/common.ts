import { z } from 'zod';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../envelope.js';

/**
 * SPEC §5 coercion, applied by the server to every payload before validation:
 * text fields accept numbers (→ string), numeric fields accept numeric strings
 * (→ integer), id arrays accept a single id or numeric strings (→ integer[]).
 * Booleans are neither numbers nor text: `true` is not id 1 (docs/api.md "Validation answers").
 */
export const toText = (v: unknown) => (typeof v === 'number' ? String(v) : v);
const toInt = (v: unknown) => (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v);
const toIntArray = (v: unknown) => {
  if (v === undefined || v === null) return v;
  const list = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',').filter((s) => s.trim() !== '') : [v];
  return list.map(toInt);
};

/** The rule a text holding a control character answers (406 `data.fields`). */
export const CONTROL_CHAR_RULE = 'format:control_char';
/** The rule a text holding a lone UTF-16 surrogate answers: it has no UTF-8 form. */
export const UNICODE_RULE = 'format:unicode';
export type TextRule = typeof CONTROL_CHAR_RULE | typeof UNICODE_RULE;

/**
 * What is wrong with a text given as input, or null: control characters U+0000–U+001F and
 * U+007F, except TAB, LF and CR (multi-line text such as remarks), are refused — nobody types
 * them, and PostgreSQL refuses U+0000 in text and jsonb alike; so is a lone surrogate (`\ud800`
 * in JSON), which PostgreSQL's jsonb refuses too.
 */
export const textRuleOf = (v: string): TextRule | null => {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f) return CONTROL_CHAR_RULE;
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = v.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return UNICODE_RULE;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return UNICODE_RULE;
  }
  return null;
};

/** Nesting a JSON value given as input may have (PostgreSQL's jsonb parser recurses). */
export const JSON_DEPTH_MAX = 32;

/**
 * Checks a parsed JSON value given as input (product `attr`, device `properties`): every key
 * and string as `textRuleOf` says; nesting beyond JSON_DEPTH_MAX answers `format:json_depth`.
 * Iterative, so a hostile nesting cannot overflow the stack.
 */
export const jsonRuleOf = (value: unknown): TextRule | 'format:json_depth' | null => {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [cur, depth] = stack.pop() as [unknown, number];
    if (typeof cur === 'string') {
      const rule = textRuleOf(cur);
      if (rule) return rule;
    } else if (cur !== null && typeof cur === 'object') {
      if (depth >= JSON_DEPTH_MAX) return 'format:json_depth';
      for (const [k, v] of Object.entries(cur)) {
        const rule = textRuleOf(k);
        if (rule) return rule;
        stack.push([v, depth + 1]);
      }
    }
  }
  return null;
};

/**
 * The base of every string input: a string that `textRuleOf` accepts. Use it (or a builder
 * below) instead of `z.string()` for anything a client sends.
 */
export const safeString = () =>
  z.string().superRefine((v, ctx) => {
    const rule = textRuleOf(v);
    if (rule) ctx.addIssue({ code: 'custom', message: rule, input: v });
  });

/** A JSON object given as input (device `properties`): its keys and strings as `jsonRuleOf` says. */
export const jsonObject = () =>
  z.record(safeString(), z.unknown()).superRefine((v, ctx) => {
    const rule = jsonRuleOf(v);
    if (rule) ctx.addIssue({ code: 'custom', message: rule });
  });

/** A text field; `max` bounds its length. */
export const text = (max = 255) => z.preprocess(toText, safeString().trim().max(max));
/** A required, non-empty text field. */
export const requiredText = (max = 255) => z.preprocess(toText, safeString().trim().min(1).max(max));
export const int = () => z.preprocess(toInt, z.number().int().min(-2_147_483_648).max(2_147_483_647));
/** Unix seconds (bigint in storage). */
export const unixTime = () => z.preprocess(toInt, z.number().int().min(0).max(253_402_300_799));
export const id = () => z.preprocess(toInt, z.number().int().positive().max(2_147_483_647));
export const ids = () => z.preprocess(toIntArray, z.array(z.number().int().positive().max(2_147_483_647)).max(1000));
/** One of a few integers; `meta.enum` lists them for forms (the web's select options). */
export const oneOf = <T extends readonly number[]>(values: T) =>
  z
    .preprocess(
      toInt,
      z
        .number()
        .int()
        .refine((v) => values.includes(v), { message: `one_of:${values.join(',')}` }),
    )
    .meta({ enum: [...values] });
/** An email address or '' (none). */
export const email = () =>
  z.preprocess(
    toText,
    safeString()
      .trim()
      .max(128)
      .pipe(z.union([z.literal(''), z.email()])),
  );
/** 5–15 digits or '' (none); with a phone area, see `phoneMatchesArea`. */
export const phone = () =>
  z.preprocess(
    toText,
    safeString()
      .trim()
      .regex(/^(\d{5,15})?$/, 'format:phone'),
  );
export const phoneArea = () =>
  z.preprocess(
    toText,
    safeString()
      .trim()
      .regex(/^\+\d{1,4}$/, 'format:phone_area'),
  );

/** The area whose mobile numbers have 11 digits starting with 1 (SPEC §5 "11 digits for mobile"). */
export const CHINA_PHONE_AREA = '+86';

/**
 * Whether a phone number fits its area: mobile numbers in China (+86) are 11 digits starting
 * with 1, other areas take 5–15 digits. An empty phone fits any area; without an area only the
 * general 5–15 digits apply. The contract's schemas and the web's forms both use this.
 */
export const phoneMatchesArea = (phone: string, area: string | undefined): boolean => {
  const p = phone.trim();
  if (p === '') return true;
  return area?.trim() === CHINA_PHONE_AREA ? /^1\d{10}$/.test(p) : /^\d{5,15}$/.test(p);
};

/**
 * Object-level refinement for schemas carrying a phone and its area: answers
 * `{<phone field>: 'format:phone'}` when they do not fit together.
 */
export const phoneFitsArea =
  <K extends string, A extends string>(phoneField: K, areaField: A) =>
  (v: Partial<Record<K | A, string | undefined>>, ctx: z.RefinementCtx) => {
    const value = v[phoneField];
    if (value !== undefined && !phoneMatchesArea(value, v[areaField]))
      ctx.addIssue({ code: 'custom', message: 'format:phone', path: [phoneField] });
  };

/** Paging of CONTRACT §2; `page_index` is an alias of `page_no`. */
export const pagingSchema = z.object({
  page_no: z.preprocess(toInt, z.number().int().min(1).max(10_000_000)).optional(),
  page_index: z.preprocess(toInt, z.number().int().min(1).max(10_000_000)).optional(),
  page_size: z.preprocess(toInt, z.number().int().min(1).max(PAGE_SIZE_MAX)).optional(),
  /** A sortable field of the list (each list documents its own); ties are broken by id. */
  order_by: text(64).optional(),
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
/** What a delete answers: how many rows went. */
export const deletedSchema = z.object({ deleted: z.number().int() });

export const idsOf = (v: DelInput): number[] => [...new Set([...(v.id ? [v.id] : []), ...(v.ids ?? [])])];

/**
 * Secret fields (payment keys, platform secrets): stored encrypted, never answered.
 * Mark a field with `secret()`; the server finds them through `secretRegistry`.
 */
export const secretRegistry = z.registry<{ secret: true }>();
export const secret = (max = 4096) => {
  const schema = z.preprocess(toText, safeString().max(max));
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
