import { z } from 'zod';
import { nowSeconds } from './helpers.js';

/**
 * Payloads generated from the registry's input schemas: a path's input seen as fields, and an
 * otherwise valid sample payload (used by the bad-payload suite and the kit tests).
 */

// ---- the input schema seen as fields ---------------------------------------------------

export type Path = (string | number)[];
export type Kind = 'string' | 'number' | 'enum' | 'array' | 'object' | 'record' | 'other';
export interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string | number>;
  values?: unknown[];
  getter?: () => z.ZodType;
}
export const defOf = (s: z.ZodType) => s._zod.def as unknown as Def;

/** The schema under optional/default/nullable wrappers and coercing preprocessors. */
export const coreOf = (s: z.ZodType): z.ZodType => {
  const def = defOf(s);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return coreOf(def.innerType as z.ZodType);
    case 'pipe':
      return defOf(def.in as z.ZodType).type === 'transform' ? coreOf(def.out as z.ZodType) : coreOf(def.in as z.ZodType);
    case 'lazy':
      return coreOf((def.getter as () => z.ZodType)());
    default:
      return s;
  }
};

export const kindOf = (s: z.ZodType): Kind => {
  const type = defOf(coreOf(s)).type;
  if (type === 'string' || type === 'number' || type === 'array' || type === 'object' || type === 'record') return type;
  if (type === 'enum' || type === 'literal') return 'enum';
  return 'other';
};

/** The object (or first variant of a discriminated union) a path's input is. */
export const objectOf = (s: z.ZodType): z.ZodObject | null => {
  const core = coreOf(s);
  if (core instanceof z.ZodObject) return core;
  const def = defOf(core);
  if (def.type === 'union' && def.options?.[0]) return objectOf(def.options[0]);
  return null;
};

export const isRequired = (s: z.ZodType) => !s.safeParse(undefined).success;

// ---- valid samples ---------------------------------------------------------------------

const now = nowSeconds();
/** Field names whose samples must relate (time ranges). */
const NAMED: Record<string, unknown> = { gmt_start: now - 86_400, gmt_end: now, online_start: now - 86_400, online_end: now };
const TEXT_CANDIDATES = [
  'Bad Payload 1',
  'bad.payload',
  '13800138000',
  '+86',
  'bad.payload@example.com',
  'a'.repeat(64),
  'ABCDEF123456',
  'AA:BB:CC:DD:EE:01',
  'images/abc.png',
  'bad/payload',
  'x'.repeat(16),
  '{"k":"v"}',
  // Firmware versions (OTA): a version, a download URL, a language tag.
  '1.0.0',
  'https://example.com/firmware.bin',
  'en',
];
const NUMBER_CANDIDATES = [1, 2, 0, 3, 9];

export const sampleOf = (s: z.ZodType, name: string): unknown => {
  if (name in NAMED && s.safeParse(NAMED[name]).success) return NAMED[name];
  const core = coreOf(s);
  const def = defOf(core);
  let candidates: unknown[];
  switch (kindOf(s)) {
    case 'string':
      candidates = TEXT_CANDIDATES;
      break;
    case 'number':
      candidates = NUMBER_CANDIDATES;
      break;
    case 'enum':
      candidates = def.entries ? Object.values(def.entries) : (def.values ?? []);
      break;
    case 'array':
      candidates = [[sampleOf(def.element as z.ZodType, name)], []];
      break;
    case 'object':
      candidates = [baseOf(core)];
      break;
    case 'record':
      candidates = [{ k: 'v' }, {}];
      break;
    default:
      candidates = [];
  }
  return candidates.find((c) => s.safeParse(c).success);
};

/**
 * An otherwise valid payload: the required fields, then optional ones added one at a time
 * until the whole passes (refinements such as "id or pk"); as far as it gets.
 */
export function baseOf(schema: z.ZodType): Record<string, unknown> {
  const obj = objectOf(schema);
  if (!obj) return {};
  const base: Record<string, unknown> = {};
  const entries = Object.entries(obj.shape as Record<string, z.ZodType>);
  const variantTag = defOf(coreOf(schema)).type === 'union' ? entries.find(([, s]) => kindOf(s) === 'enum') : undefined;
  for (const [name, s] of entries) {
    if (isRequired(s) || (variantTag && variantTag[0] === name)) {
      const v = sampleOf(s, name);
      if (v !== undefined) base[name] = v;
    }
  }
  for (const [name, s] of entries) {
    if (schema.safeParse(base).success) break;
    if (name in base) continue;
    const v = sampleOf(s, name);
    if (v !== undefined) base[name] = v;
  }
  return base;
}
