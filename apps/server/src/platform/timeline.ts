import { SECONDS_PER_DAY } from '@iot/contract';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Scope } from './context.js';
import type { Conn } from './db/database.js';
import { badParams } from './errors.js';
import { inScope, platformRowsVisible } from './scope.js';
import { sortOf } from './sorting.js';

/**
 * Time-ordered logs (alarms, device logs, service logs: migration 0018), newest first by
 * (ts, id), at any depth without large OFFSETs:
 *
 * - page 1 and shallow pages: the (…, ts, id) index walked backwards, `limit`;
 * - keyset (`after`): the rows below (ts, id) of the previous page's last row, same index;
 * - deep pages: the day holding the offset-th row comes from `log_day` (rows per UTC day,
 *   part and kind, kept by triggers), then the index is walked from that day's end, skipping at
 *   most one day's rows;
 * - the count: a sum of `log_day` rows for the whole days of the range, and an exact count of
 *   the (at most two) partial days at its edges; row by row only under a device filter (one
 *   device's rows, from its own index).
 */
export interface TimelineSpec {
  table: 'alarm_log' | 'device_log' | 'service_log' | 'push_record';
  /** The time column (default `ts`). */
  ts?: 'ts' | 'gmt_create';
  /** `log_day.log` of the table. */
  log: 1 | 2 | 3 | 4;
  /** Column `log_day.part` counts by: the company (scoped by it) or the service (platform rows). */
  part: { column: 'comp_id'; scoped: true } | { column: 'service_id'; scoped: false };
  /** Column `log_day.k` counts by (alarm type, level). */
  kind: 'alarm_type' | 'level' | 'channel';
}

export interface TimelineFilter {
  /** Exact company (or service) id. */
  part?: number | undefined;
  kind?: number | undefined;
  /** One device's rows (its id; null: the uid named no device, nothing matches). */
  deviceId?: number | null | undefined;
  start?: number | undefined;
  end?: number | undefined;
  after?: { ts: number; id: number } | undefined;
  offset: number;
  limit: number;
}

/** Below this offset a plain backward walk of the index is already fast. */
const DEEP_OFFSET = 1_000;

const day = (ts: number) => Math.floor(ts / SECONDS_PER_DAY);

/**
 * One page and the count. `rowsOf(keys)` runs the row query of the page's keys (`keys` is the
 * subquery of the page's ids, for `id in (…)`), so a page is one statement beside the count.
 */
export const pageTimeline = async <Row>(
  conn: Conn,
  spec: TimelineSpec,
  scope: Scope,
  f: TimelineFilter,
  rowsOf: (keys: RawBuilder<unknown>) => Promise<Row[]>,
): Promise<{ rows: Row[]; count: number }> => {
  if (f.deviceId === null) return { rows: [], count: 0 };
  const t = sql.ref(`${spec.table}`);
  const col = (c: string) => sql.ref(`${spec.table}.${c}`);
  const tsColumn = spec.ts ?? 'ts';
  const scopeCond = spec.part.scoped ? inScope(scope, `${spec.table}.comp_id`) : platformRowsVisible(scope);
  const conds: RawBuilder<SqlBool>[] = [scopeCond];
  if (f.part !== undefined) conds.push(sql<SqlBool>`${col(spec.part.column)} = ${f.part}`);
  if (f.kind !== undefined) conds.push(sql<SqlBool>`${col(spec.kind)} = ${f.kind}`);
  if (f.deviceId !== undefined) conds.push(sql<SqlBool>`${col('device_id')} = ${f.deviceId}`);
  if (f.start !== undefined) conds.push(sql<SqlBool>`${col(tsColumn)} >= ${f.start}`);
  if (f.end !== undefined) conds.push(sql<SqlBool>`${col(tsColumn)} < ${f.end}`);
  const where = (extra: RawBuilder<SqlBool>[] = []) => sql.join([...conds, ...extra], sql` and `);
  const countRange = async (from: number | undefined, to: number | undefined): Promise<number> => {
    const extra: RawBuilder<SqlBool>[] = [];
    if (from !== undefined) extra.push(sql<SqlBool>`${col(tsColumn)} >= ${from}`);
    if (to !== undefined) extra.push(sql<SqlBool>`${col(tsColumn)} < ${to}`);
    const r = await sql<{ n: number }>`select count(*)::int as n from ${t} where ${where(extra)}`.execute(conn);
    return Number(r.rows[0]?.n ?? 0);
  };
  const keysBelow = (upper: RawBuilder<SqlBool> | null, skip: number, limit: number) =>
    rowsOf(sql`select ${col('id')} from ${t} where ${where(upper ? [upper] : [])}
      order by ${col(tsColumn)} desc, ${col('id')} desc offset ${skip} limit ${limit}`);

  // One device: its own index serves the rows and an exact count.
  if (f.deviceId !== undefined) {
    const upper = f.after ? sql<SqlBool>`(${col(tsColumn)}, ${col('id')}) < (${f.after.ts}, ${f.after.id})` : null;
    const [rows, count] = await Promise.all([keysBelow(upper, f.after ? 0 : f.offset, f.limit), countRange(undefined, undefined)]);
    return { rows, count };
  }

  // Rows per day, newest day first: counters for whole days, exact counts for partial edge days.
  const parts =
    f.part !== undefined
      ? sql<SqlBool>`part = ${f.part}`
      : spec.part.scoped
        ? scope.kind === 'all'
          ? sql<SqlBool>`part = 0`
          : sql<SqlBool>`part <> 0 and ${inScope(scope, 'part')}`
        : scope.kind === 'all'
          ? sql<SqlBool>`part = 0`
          : sql<SqlBool>`false`;
  const firstDay = f.start === undefined ? null : day(f.start);
  const lastDay = f.end === undefined ? null : day(f.end - 1);
  if (firstDay !== null && lastDay !== null && lastDay < firstDay) return { rows: [], count: 0 };
  const countDays = async () => {
    const counted = await sql<{ day: number; n: number }>`
      select day, sum(n)::bigint as n from log_day
      where log = ${spec.log} and ${parts} and k = ${f.kind ?? 0}
        ${firstDay !== null ? sql`and day >= ${firstDay}` : sql``}
        ${lastDay !== null ? sql`and day <= ${lastDay}` : sql``}
      group by day having sum(n) > 0 order by day desc`.execute(conn);
    const days = counted.rows.map((r) => ({ day: Number(r.day), n: Number(r.n) }));
    // Partial edge days: counted row by row over that day's slice of the index.
    const edges = new Set<number>();
    if (f.start !== undefined && f.start % SECONDS_PER_DAY !== 0) edges.add(day(f.start));
    if (f.end !== undefined && f.end % SECONDS_PER_DAY !== 0) edges.add(day(f.end - 1));
    for (const d of edges) {
      const at = days.find((x) => x.day === d);
      if (at) at.n = await countRange(d * SECONDS_PER_DAY, (d + 1) * SECONDS_PER_DAY);
    }
    return { days, count: days.reduce((s, x) => s + x.n, 0) };
  };

  // Keyset and shallow pages do not need the counts first: both statements at once.
  if (f.after || f.offset < DEEP_OFFSET) {
    const upper = f.after ? sql<SqlBool>`(${col(tsColumn)}, ${col('id')}) < (${f.after.ts}, ${f.after.id})` : null;
    const [counted, rows] = await Promise.all([countDays(), keysBelow(upper, f.after ? 0 : f.offset, f.limit)]);
    return { rows, count: counted.count };
  }
  const { days, count } = await countDays();
  if (f.offset >= count) return { rows: [], count };
  // Deep: the day holding the offset-th row, then at most that day's rows skipped from its end.
  let before = 0;
  for (const x of days) {
    if (before + x.n > f.offset) {
      const upper = sql<SqlBool>`${col(tsColumn)} < ${(x.day + 1) * SECONDS_PER_DAY}`;
      return { rows: await keysBelow(upper, f.offset - before, f.limit), count };
    }
    before += x.n;
  }
  return { rows: [], count };
};

/**
 * The logs' only order is newest first: `order_by` may name `ts` (or `id`) and `order` only
 * `desc` (406 otherwise).
 */
export const newestFirst = (input: { order_by?: string | undefined; order?: 'asc' | 'desc' | undefined }): void => {
  const sort = sortOf(input, { ts: 'ts', id: 'id' }, { column: 'ts', direction: 'desc' });
  if (input.order_by && !input.order) return;
  if (sort.direction !== 'desc') throw badParams({ order: 'one_of:desc' });
};

/**
 * Drops the rows older than `before` (unix seconds), oldest first, at most `limit` per call
 * (rows another process is deleting are skipped, not waited for). The delete trigger keeps
 * `log_day` exact; day counters emptied before `before`'s day go too. Answers the rows dropped.
 */
export const pruneTimeline = async (conn: Conn, spec: TimelineSpec, before: number, limit = 10_000): Promise<number> => {
  const table = sql.table(spec.table);
  const ts = sql.ref(spec.ts ?? 'ts');
  const result = await sql`
    delete from ${table} where id in (
      select id from ${table} where ${ts} < ${before}::bigint order by ${ts}, id limit ${limit}::int for update skip locked
    )`.execute(conn);
  await sql`delete from log_day where log = ${spec.log}::int and day < ${day(before)}::int and n = 0`.execute(conn);
  return Number(result.numAffectedRows ?? 0);
};
