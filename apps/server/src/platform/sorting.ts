import { type RawBuilder, sql } from 'kysely';
import { badParams } from './errors.js';

export interface SortSpec {
  /** A qualified column (`u.gmt_create`). */
  column: string;
  direction: 'asc' | 'desc';
}

/**
 * A list's `order_by`/`order` (docs/api.md) checked against the fields it may sort by.
 * An unknown field answers 406 naming the allowed ones.
 */
export const sortOf = (
  input: { order_by?: string | undefined; order?: 'asc' | 'desc' | undefined },
  allowed: Record<string, string>,
  fallback: SortSpec,
): SortSpec => {
  if (!input.order_by) return input.order ? { ...fallback, direction: input.order } : fallback;
  const column = allowed[input.order_by];
  if (!column) throw badParams({ order_by: `one_of:${Object.keys(allowed).join(',')}` });
  return { column, direction: input.order ?? 'asc' };
};

/** ORDER BY term: empty values go last whatever the direction; add the primary key after it. */
export const orderTerm = (spec: SortSpec): RawBuilder<unknown> => sql`${sql.ref(spec.column)} ${sql.raw(spec.direction)} nulls last`;
