import { type ApiDef, type InputOf, type OutputOf, type Paging, resolvePaging } from '@iot/contract';
import { type Expression, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { Scope } from './context.js';
import type { Conn } from './db/database.js';
import { inScope } from './scope.js';
import { orderTerm, type SortFields, type SortSpec, sortOf } from './sorting.js';

/**
 * The list kit: a list is declared (its table, company column, filters, sortable
 * columns, default order, row selection) and the kit does the rest once — scope,
 * filters (LIKE patterns escaped here and nowhere else), `order_by` checked against
 * the declared columns, paging, and the page plus its count.
 */

type Cond = Expression<SqlBool>;
/** A filter turns one input value into a condition, or `null` when the value means "any". */
export type Filter<V> = (value: V) => Cond | null;

/** `%`, `_` and `\` match themselves (PostgreSQL's default LIKE escape is the backslash). */
export const escapeLike = (v: string) => v.replace(/[\\%_]/g, (c) => `\\${c}`);

const ref = (column: string) => sql.ref(column);

/** column = value. */
export const eq =
  (column: string): Filter<string | number> =>
  (v) =>
    sql<SqlBool>`${ref(column)} = ${v}`;

/** column = value, where 0 (or less) means "any" (state and type filters of the SPEC). */
export const positive =
  (column: string): Filter<number> =>
  (v) =>
    v > 0 ? sql<SqlBool>`${ref(column)} = ${v}` : null;

/** column = value, where a negative value means "any" (0 is a real value, e.g. `oem`). */
export const nonNegative =
  (column: string): Filter<number> =>
  (v) =>
    v >= 0 ? sql<SqlBool>`${ref(column)} = ${v}` : null;

/** Case-insensitive "contains" on one or more columns (any of them matches). */
export const contains =
  (...columns: string[]): Filter<string> =>
  (v) => {
    if (v === '') return null;
    const pattern = `%${escapeLike(v)}%`;
    const terms = columns.map((c) => sql<SqlBool>`${ref(c)} ilike ${pattern}`);
    return terms.length === 1 ? (terms[0] as Cond) : sql<SqlBool>`(${sql.join(terms, sql` or `)})`;
  };

/** Case-insensitive prefix on `upper(column)` (served by an `upper(…) text_pattern_ops` index). */
export const upperPrefix =
  (column: string): Filter<string> =>
  (v) =>
    v === '' ? null : sql<SqlBool>`upper(${ref(column)}) like ${`${escapeLike(v.toUpperCase())}%`}`;

/** Range ends: inclusive start, exclusive end (CONTRACT §1). */
export const atLeast =
  (column: string): Filter<number> =>
  (v) =>
    sql<SqlBool>`${ref(column)} >= ${v}`;
export const below =
  (column: string): Filter<number> =>
  (v) =>
    sql<SqlBool>`${ref(column)} < ${v}`;

/** Filters of a list, keyed by input field. */
export type Filters<In> = { [K in keyof In]?: Filter<NonNullable<In[K]>> };

/** The conditions the input's filters produce (fields left out or meaning "any" produce none). */
export const conditionsOf = <In>(filters: Filters<In>, input: In): Cond[] => {
  const out: Cond[] = [];
  for (const key of Object.keys(filters) as (keyof In)[]) {
    const value = input[key];
    const filter = filters[key];
    if (value === undefined || value === null || !filter) continue;
    const cond = filter(value as NonNullable<In[keyof In]>);
    if (cond) out.push(cond);
  }
  return out;
};

export interface ListResult<Row> {
  rows: Row[];
  count: number;
}

export interface ListSpec<In, DB, TB extends keyof DB, O, RDB, RTB extends keyof RDB, R, Row> {
  /** FROM (and the joins filters need); aliases must match the sort and filter columns. */
  from: (conn: Conn) => SelectQueryBuilder<DB, TB, O>;
  /** The company column (rows outside the caller's scope do not match), or a condition of the scope. */
  scope?: string | ((scope: Scope) => Cond);
  filters?: Filters<In>;
  /** Fields `order_by` may name → columns. */
  sorts: SortFields;
  defaultSort: SortSpec;
  /** The key's direction under the default order when it differs from it (pending first, then newest). */
  defaultKeyDirection?: 'asc' | 'desc';
  /** The primary key column, or the columns of a composite key: pages are chosen by it and it breaks ties. */
  key: string | readonly string[];
  /** The row query (selections and display joins); the kit restricts it to the page's keys and orders it. */
  select: (conn: Conn, scope: Scope) => SelectQueryBuilder<RDB, RTB, R>;
  toRow: (r: R) => Row;
  /** A cheaper count when no filter applies (e.g. per-company counters kept by triggers). */
  unfilteredCount?: (conn: Conn, scope: Scope) => Promise<number>;
}

/**
 * `unpaged`: every matching row (a tree view of a bounded table, e.g. the company tree);
 * `where`: conditions the caller fixes (not from the input), e.g. one job kind.
 */
export type ListFn<In, Row> = (
  conn: Conn,
  scope: Scope,
  input: In,
  opts?: { unpaged?: boolean; where?: Cond[] },
) => Promise<ListResult<Row>>;

/**
 * Declares the list of a registry path; the answer is `(conn, scope, input) → {rows, count}`.
 * Its input type is the path's input and `toRow` must produce the path's row schema (tsc checks).
 */
export const defineList = <D extends ApiDef, DB, TB extends keyof DB, O, RDB, RTB extends keyof RDB, R>(
  _api: D,
  spec: ListSpec<InputOf<D>, DB, TB, O, RDB, RTB, R, OutputOf<D>>,
): ListFn<InputOf<D> & Paging, OutputOf<D>> => {
  const scopeCond = (scope: Scope): Cond | null => {
    if (!spec.scope) return null;
    return typeof spec.scope === 'string' ? inScope(scope, spec.scope) : spec.scope(scope);
  };
  return async (conn, scope, input, opts) => {
    const sort = sortOf(input, spec.sorts, spec.defaultSort);
    const keyDirection = (!input.order_by && !input.order && spec.defaultKeyDirection) || sort.direction;
    const { offset, pageSize } = resolvePaging(input);
    const conds = conditionsOf<InputOf<D>>(spec.filters ?? {}, input);
    const scoped = scopeCond(scope);
    const all = [...(scoped ? [scoped] : []), ...(opts?.where ?? []), ...conds];
    let base = spec.from(conn);
    for (const cond of all) base = base.where(cond);
    const keyColumns = typeof spec.key === 'string' ? [spec.key] : spec.key;
    const keyTuple = sql.join(keyColumns.map(ref));
    const byKey = <Q extends { orderBy: (expr: ReturnType<typeof sql>, dir: 'asc' | 'desc') => Q }>(q: Q): Q =>
      keyColumns.reduce((acc, column) => acc.orderBy(sql`${ref(column)}`, keyDirection), q);
    const keys = base.select(keyColumns.map((column, i) => sql`${ref(column)}`.as(`page_key${i}`)));
    const page = opts?.unpaged
      ? keys
      : byKey(keys.orderBy(orderTerm(sort)))
          .limit(pageSize)
          .offset(offset);
    const rowsQuery = byKey(spec.select(conn, scope).where(sql<SqlBool>`(${keyTuple}) in (${page})`).orderBy(orderTerm(sort)));
    const count =
      spec.unfilteredCount && conds.length === 0
        ? spec.unfilteredCount(conn, scope)
        : base
            .select(sql<number>`count(*)::int`.as('n'))
            .executeTakeFirstOrThrow()
            .then((r) => Number((r as unknown as { n: number }).n));
    const [rows, total] = await Promise.all([rowsQuery.execute(), count]);
    return { rows: rows.map((r) => spec.toRow(r as R)), count: total };
  };
};

/** The fields a partial `set` supplies (undefined means "keep"), without the listed keys. */
export const changesOf = <T extends object, K extends keyof T = never>(input: T, ...omit: K[]): Partial<Omit<T, K>> =>
  Object.fromEntries(Object.entries(input).filter(([k, v]) => v !== undefined && !omit.includes(k as K))) as Partial<Omit<T, K>>;
