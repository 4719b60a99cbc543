import { z } from 'zod';
import { id } from './common.js';

/**
 * Company references (CONTRACT §5 company scope), declared instead of checked by hand: a field
 * made with `companyRef()` names a company, and the server's transport refuses a payload whose
 * company does not exist or lies outside the caller's scope with 406 `{<field>: "not_found"}`,
 * the same answer on every path. Lists filtered by such a field answer the same.
 */
export const companyRefRegistry = z.registry<{ companyRef: true }>();

export const companyRef = () => {
  const schema = id();
  companyRefRegistry.add(schema, { companyRef: true });
  return schema;
};

const unwrap = (s: z.ZodType): z.ZodType => {
  let cur: z.ZodType = s;
  while (cur instanceof z.ZodOptional || cur instanceof z.ZodNullable || cur instanceof z.ZodDefault) cur = cur.unwrap() as z.ZodType;
  return cur;
};

/** The top-level fields of an input schema (objects, unions of objects, pipes) that are company references. */
export const companyRefFieldsOf = (schema: z.ZodType): string[] => {
  const s = unwrap(schema);
  if (s instanceof z.ZodObject)
    return Object.entries(s.shape)
      .filter(([, f]) => companyRefRegistry.has(unwrap(f as z.ZodType)))
      .map(([k]) => k);
  if (s instanceof z.ZodUnion) return [...new Set((s.options as z.ZodType[]).flatMap(companyRefFieldsOf))];
  // z.preprocess(fn, object) is a pipe whose `out` is the object.
  if (s instanceof z.ZodPipe) return [...new Set([...companyRefFieldsOf(s.in as z.ZodType), ...companyRefFieldsOf(s.out as z.ZodType)])];
  return [];
};
