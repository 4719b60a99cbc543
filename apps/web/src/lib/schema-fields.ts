import { companyRefRegistry, ruleOfIssue, valueAt } from '@iot/contract';
import { z } from 'zod';

/**
 * What a contract schema says about one field of a form: read from the zod schema itself
 * (optional/default wrappers, string and number checks, `oneOf` refinements, enums), so a
 * screen states only how the field looks, never its rules.
 */
export interface FieldSpec {
  /** The field's schema in its object, wrappers included (validates one value). */
  schema: z.ZodType;
  /** Neither optional nor defaulted: the command needs it. */
  required: boolean;
  hasDefault: boolean;
  defaultValue?: unknown;
  nullable: boolean;
  kind: 'string' | 'number' | 'boolean' | 'array' | 'object' | 'unknown';
  integer: boolean;
  minLength?: number;
  maxLength?: number;
  /** Inclusive numeric bounds. */
  min?: number;
  max?: number;
  /** The values allowed (`oneOf`, enums, literals). */
  options?: readonly (string | number)[];
  /** Names a company (`companyRef()`): picked from the company tree. */
  companyRef?: boolean;
}

type Mutable = { -readonly [K in keyof FieldSpec]: FieldSpec[K] };

/** `oneOf(values)` refines with the message `one_of:<values>`; its values are read back from it. */
const ONE_OF = /^one_of:(.*)$/;

const messageOf = (check: z.core.$ZodCheck): string | undefined => {
  const error = (check._zod.def as { error?: unknown }).error;
  if (typeof error !== 'function') return undefined;
  const out: unknown = error({ code: 'custom', input: undefined, path: [] });
  if (typeof out === 'string') return out;
  return typeof out === 'object' && out !== null && typeof (out as { message?: unknown }).message === 'string'
    ? (out as { message: string }).message
    : undefined;
};

const optionsOfChecks = (schema: z.ZodType): number[] | undefined => {
  for (const check of schema._zod.def.checks ?? []) {
    const values = ONE_OF.exec(messageOf(check) ?? '')?.[1];
    if (values !== undefined) return values.split(',').map(Number);
  }
  return undefined;
};

/** Metadata a contract schema may carry: `.meta({ enum: [...] })` lists its values. */
const optionsOfMeta = (schema: z.ZodType): readonly (string | number)[] | undefined => {
  const values = z.globalRegistry.get(schema)?.enum;
  return Array.isArray(values) ? (values as (string | number)[]) : undefined;
};

const isLiteralValue = (v: unknown): v is string | number => typeof v === 'string' || typeof v === 'number';

const describeInto = (spec: Mutable, schema: z.ZodType): void => {
  spec.options ??= optionsOfMeta(schema);
  if (companyRefRegistry.has(schema)) spec.companyRef = true;
  if (schema instanceof z.ZodOptional) {
    spec.required = false;
    describeInto(spec, schema.unwrap() as z.ZodType);
  } else if (schema instanceof z.ZodDefault || schema instanceof z.ZodPrefault) {
    spec.required = false;
    if (!spec.hasDefault) {
      spec.hasDefault = true;
      spec.defaultValue = (schema._zod.def as { defaultValue: unknown }).defaultValue;
    }
    describeInto(spec, schema.unwrap() as z.ZodType);
  } else if (schema instanceof z.ZodNullable) {
    spec.nullable = true;
    describeInto(spec, schema.unwrap() as z.ZodType);
  } else if (schema instanceof z.ZodPipe) {
    // z.preprocess(fn, s) is a pipe from a transform: only its output has rules.
    if (!(schema.in instanceof z.ZodTransform)) describeInto(spec, schema.in as z.ZodType);
    describeInto(spec, schema.out as z.ZodType);
  } else if (schema instanceof z.ZodString) {
    spec.kind = 'string';
    if (schema.minLength !== null) spec.minLength = Math.max(spec.minLength ?? 0, schema.minLength);
    if (schema.maxLength !== null) spec.maxLength = Math.min(spec.maxLength ?? Number.POSITIVE_INFINITY, schema.maxLength);
  } else if (schema instanceof z.ZodNumber) {
    spec.kind = 'number';
    spec.integer ||= schema.isInt === true;
    const step = spec.integer ? 1 : 0;
    for (const check of schema._zod.def.checks ?? []) {
      const def = check._zod.def as { check: string; value?: unknown; inclusive?: boolean };
      if (typeof def.value !== 'number') continue;
      if (def.check === 'greater_than') {
        const min = def.inclusive ? def.value : def.value + step;
        spec.min = Math.max(spec.min ?? min, min);
      } else if (def.check === 'less_than') {
        const max = def.inclusive ? def.value : def.value - step;
        spec.max = Math.min(spec.max ?? max, max);
      }
    }
    spec.options ??= optionsOfChecks(schema);
  } else if (schema instanceof z.ZodBoolean) {
    spec.kind = 'boolean';
  } else if (schema instanceof z.ZodArray) {
    spec.kind = 'array';
    // A list of allowed values (channels): the element's values, picked several at once.
    spec.options ??= describe(schema.element as z.ZodType).options;
  } else if (schema instanceof z.ZodObject || schema instanceof z.ZodRecord) {
    spec.kind = 'object';
  } else if (schema instanceof z.ZodLiteral) {
    const values = [...schema.values].filter(isLiteralValue);
    spec.options ??= values;
    if (spec.kind === 'unknown') spec.kind = typeof values[0] === 'number' ? 'number' : 'string';
  } else if (schema instanceof z.ZodEnum) {
    spec.options ??= schema.options.filter(isLiteralValue);
    if (spec.kind === 'unknown') spec.kind = 'string';
  } else if (schema instanceof z.ZodUnion) {
    // Values only when every branch is a fixed value ('' | email is free text).
    const branches = schema.options.map((o) => describe(o as z.ZodType));
    if (!spec.options && branches.every((b) => b.options)) spec.options = branches.flatMap((b) => b.options ?? []);
    for (const b of branches) {
      if (spec.kind === 'unknown') spec.kind = b.kind;
      if (b.maxLength !== undefined) spec.maxLength = Math.min(spec.maxLength ?? b.maxLength, b.maxLength);
    }
  } else if (schema instanceof z.ZodCatch || schema instanceof z.ZodReadonly) {
    describeInto(spec, schema.unwrap() as z.ZodType);
  }
};

/** What the schema of one field says (see FieldSpec). */
export const describe = (schema: z.ZodType): FieldSpec => {
  const spec: Mutable = { schema, required: true, hasDefault: false, nullable: false, kind: 'unknown', integer: false };
  describeInto(spec, schema);
  return spec;
};

/**
 * The object of an input schema: through preprocessing, and for a discriminated union the
 * branch `values` select (e.g. `res_type: 'datacenter'`); null when there is none.
 */
export const objectOf = (schema: z.ZodType | undefined, values: Record<string, unknown> = {}): z.ZodObject | null => {
  if (!schema) return null;
  if (schema instanceof z.ZodObject) return schema;
  if (schema instanceof z.ZodPipe) {
    return objectOf((schema.in instanceof z.ZodTransform ? schema.out : schema.in) as z.ZodType, values);
  }
  if (schema instanceof z.ZodDiscriminatedUnion) {
    const key = schema._zod.def.discriminator;
    for (const option of schema.options) {
      const object = objectOf(option as z.ZodType, values);
      const tag = object?.shape[key];
      if (object && tag instanceof z.ZodLiteral && tag.values.has(values[key] as z.core.util.Literal)) return object;
    }
    return null;
  }
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodDefault || schema instanceof z.ZodNullable) {
    return objectOf(schema.unwrap() as z.ZodType, values);
  }
  return null;
};

/** The spec of every field of an input schema's object. */
export const describeFields = (schema: z.ZodType | undefined, values?: Record<string, unknown>): Map<string, FieldSpec> => {
  const object = objectOf(schema, values);
  return new Map(Object.entries(object?.shape ?? {}).map(([name, s]) => [name, describe(s as z.ZodType)]));
};

/** A value a form leaves blank: nothing, null, blank text or an empty list. */
export const isBlank = (v: unknown): boolean =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);

/**
 * A whole payload against its schema: accepted (typed as what the schema takes), or refused
 * with field → rule, as a 406 answer's `data.fields` would say.
 */
export const checkPayload = <S extends z.ZodType>(
  schema: S,
  payload: Record<string, unknown>,
): { input: z.input<S>; errors?: undefined } | { input?: undefined; errors: Record<string, string> } => {
  const result = schema.safeParse(payload);
  // Accepted by the schema: the payload is its input.
  if (result.success) return { input: payload as z.input<S> };
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.map(String).join('.') || '_';
    errors[field] ??= ruleOfIssue(issue, valueAt(payload, issue.path));
  }
  return { errors };
};

/**
 * The rule one field of a payload breaks, or null: its own schema first, then the object's
 * refinements that involve several fields (a phone and its area), run over the fields that
 * are valid so far, so a form can say it while the rest is still being filled in. Without
 * `ownCheck`, only the refinements (an edit form's unchanged value: the server holds it).
 */
export const fieldError = (object: z.ZodObject, name: string, payload: Record<string, unknown>, ownCheck = true): string | null => {
  const own = object.shape[name] as z.ZodType | undefined;
  if (!own) return null;
  const value = payload[name];
  const result = own.safeParse(value);
  if (!result.success && ownCheck) {
    const [issue] = result.error.issues;
    return issue ? ruleOfIssue(issue, valueAt(value, issue.path)) : 'invalid';
  }
  const checks = object._zod.def.checks ?? [];
  if (checks.length === 0) return null;
  const valid: Record<string, unknown> = {};
  for (const [key, s] of Object.entries(object.shape)) {
    const parsed = (s as z.ZodType).safeParse(payload[key]);
    if (parsed.success && parsed.data !== undefined) valid[key] = parsed.data;
  }
  const run: z.core.ParsePayload = { value: valid, issues: [] };
  for (const check of checks) {
    try {
      // Synchronous refinements only (the contract has no async ones); a refinement that
      // needs a field still missing may throw: it has nothing to say yet.
      void (check as z.core.$ZodCheck<unknown>)._zod.check(run);
    } catch {}
  }
  const issue = run.issues.find((i) => i.path?.[0] === name);
  if (!issue) return null;
  // `refine(fn, message)` leaves the message to its check; `ctx.addIssue` carries it.
  const message = issue.message ?? (issue.inst ? messageOf(issue.inst as z.core.$ZodCheck) : undefined) ?? '';
  return ruleOfIssue({ ...issue, message } as z.core.$ZodIssue, value);
};
