import { type RawBuilder, sql } from 'kysely';
import { badParams } from './errors.js';

export interface SortSpec {
  /** A qualified column (`u.gmt_create`). */
  column: string;
  direction: 'asc' | 'desc';
  /** Only nullable columns say `nulls last`: on a NOT NULL column it would stop an index from serving the order. */
  nullable?: boolean;
}

/** Sortable fields of a list: field → column, or `{column, nullable: true}`. */
export type SortFields = Record<string, string | { column: string; nullable: true }>;

/**
 * A list's `order_by`/`order` (docs/api.md) checked against the fields it may sort by.
 * An unknown field answers 406 naming the allowed ones.
 */
export const sortOf = (
  input: { order_by?: string | undefined; order?: 'asc' | 'desc' | undefined },
  allowed: SortFields,
  fallback: SortSpec,
): SortSpec => {
  if (!input.order_by) return input.order ? { ...fallback, direction: input.order } : fallback;
  const field = allowed[input.order_by];
  if (!field) throw badParams({ order_by: `one_of:${Object.keys(allowed).join(',')}` });
  const direction = input.order ?? 'asc';
  return typeof field === 'string' ? { column: field, direction } : { ...field, direction };
};

/** ORDER BY term: empty values go last whatever the direction; add the primary key after it. */
export const orderTerm = (spec: SortSpec): RawBuilder<unknown> =>
  spec.nullable
    ? sql`${sql.ref(spec.column)} ${sql.raw(spec.direction)} nulls last`
    : sql`${sql.ref(spec.column)} ${sql.raw(spec.direction)}`;
