import type { z } from 'zod';

/** The value at an issue's path in a payload. */
export const valueAt = (payload: unknown, path: PropertyKey[]): unknown =>
  path.reduce<unknown>((cur, key) => (cur && typeof cur === 'object' ? (cur as Record<PropertyKey, unknown>)[key] : undefined), payload);

/**
 * Zod issues → `{field: rule}` of a 406 answer (CONTRACT §3): the server answers them and the web's
 * forms show the same rules for their own check before sending; the web translates rules.
 */
export const fieldErrorsOf = (error: z.ZodError, payload: unknown): Record<string, string> => {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    // A strict object names each field it does not know.
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) fields[[...issue.path.map(String), key].join('.')] ??= 'unknown';
      continue;
    }
    const field = issue.path.map(String).join('.') || '_';
    if (fields[field]) continue;
    fields[field] = ruleOfIssue(issue, valueAt(payload, issue.path));
  }
  return fields;
};

/** The rule one zod issue names, given the value it is about (blank values are `required`). */
export const ruleOfIssue = (issue: z.core.$ZodIssue, value: unknown): string => {
  const isEmpty = value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
  if (issue.message.startsWith('format:') || issue.message.startsWith('one_of:') || issue.message === 'required') return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return isEmpty ? 'required' : `type:${issue.expected}`;
    case 'too_small':
      return isEmpty ? 'required' : `too_small:${String(issue.minimum)}`;
    case 'too_big':
      return `too_big:${String(issue.maximum)}`;
    case 'invalid_format':
      return `format:${issue.format}`;
    case 'invalid_value':
      return `one_of:${issue.values.map(String).join(',')}`;
    case 'invalid_union':
      return isEmpty ? 'required' : 'invalid';
    case 'unrecognized_keys':
      return 'unknown';
    default:
      return 'invalid';
  }
};
