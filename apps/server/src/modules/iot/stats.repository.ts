import { dayLabel, dayOf, SECONDS_PER_DAY, STATS_TOP, type StatsInput, type StatsOutput } from '@iot/contract';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Scope } from '../../platform/context.js';
import type { Conn } from '../../platform/db/database.js';
import { inScope } from '../../platform/scope.js';

/**
 * Device statistics from the rollups of migrations 0009, 0010 and 0012 (online now) (never from `device`): a few
 * hundred rows per question whatever the number of devices (long ranges read whole months). Roll-up rows: `comp_id` 0 = every
 * company, `pk` '' = every product.
 */

/** Pending trigger deltas into the rollups (exact answers); cheap when there are none. */
export const foldDeviceStats = async (conn: Conn): Promise<number> =>
  Number((await sql<{ n: number }>`select device_stats_fold() as n`.execute(conn)).rows[0]?.n ?? 0);

/** Ids per chunk of the online sample at first; then sized so each statement takes about `SAMPLE_CHUNK_MS`. */
const SAMPLE_FIRST_CHUNK = 5_000;
const SAMPLE_CHUNK_MS = 20;
const SAMPLE_MAX_CHUNK = 1_000_000;
/** `device_online_daily` rows written per statement. */
const SAMPLE_WRITE_ROWS = 2_000;

/**
 * One sample of the online devices into today's `device_online_daily` rows (per company and
 * product, per company, per product, and in all, like the other rollups); answers the online
 * count. Never one long statement: online devices are counted a device-id range at a time over
 * `device_state_online_idx` (each range sized to take about 20 ms), the counts add up here, and
 * the rows are written a few thousand per statement, so at a million devices PGlite's single
 * connection serves requests between the steps. The sample is therefore not one snapshot (a
 * device changing state meanwhile may count before or after its change, and a read between
 * two writes may see part of the new sample), which a sample every few minutes does not need.
 * `onStatement` hears how long each statement took (the benchmark).
 */
export const sampleOnlineDevices = async (conn: Conn, now: number, onStatement?: (ms: number) => void): Promise<number> => {
  const timed = async <T>(work: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    const out = await work();
    onStatement?.(performance.now() - t0);
    return out;
  };
  const bounds = await timed(() =>
    sql<{ lo: string | null; hi: string | null }>`
      select (select min(device_id) from device_state where online = 1)::text as lo,
        (select max(device_id) from device_state where online = 1)::text as hi`.execute(conn),
  );
  const counts = new Map<string, number>();
  const add = (compId: number, pk: string, n: number) => {
    const key = `${compId}\u0000${pk}`;
    counts.set(key, (counts.get(key) ?? 0) + n);
  };
  add(0, '', 0);
  const hiRaw = bounds.rows[0]?.hi;
  if (hiRaw !== null && hiRaw !== undefined) {
    const hi = Number(hiRaw);
    let lo = Number(bounds.rows[0]?.lo ?? hi);
    let size = SAMPLE_FIRST_CHUNK;
    while (lo <= hi) {
      const t0 = performance.now();
      const part = await sql<{ comp_id: number; pk: string; n: number }>`
        select d.comp_id, d.pk, count(*)::int as n
        from device_state s join device d on d.id = s.device_id
        where s.online = 1 and s.device_id >= ${lo}::bigint and s.device_id < ${lo + size}::bigint
        group by d.comp_id, d.pk`.execute(conn);
      const took = Math.max(1, performance.now() - t0);
      onStatement?.(took);
      for (const r of part.rows) {
        const n = Number(r.n);
        add(r.comp_id, r.pk, n);
        add(r.comp_id, '', n);
        add(0, r.pk, n);
        add(0, '', n);
      }
      lo += size;
      size = Math.round(Math.min(SAMPLE_MAX_CHUNK, Math.max(1_000, size * Math.min(4, SAMPLE_CHUNK_MS / took))));
    }
  }
  const day = dayOf(now);
  const entries = [...counts];
  for (let i = 0; i < entries.length; i += SAMPLE_WRITE_ROWS) {
    const batch = entries.slice(i, i + SAMPLE_WRITE_ROWS);
    const keys = batch.map(([k]) => k.split('\u0000'));
    await timed(() =>
      sql`
        insert into device_online_daily (comp_id, pk, day, online_peak, online_last, gmt_sample)
        select c, p, ${day}::int, n, n, ${now}::bigint
        from unnest(${keys.map((k) => Number(k[0]))}::int[], ${keys.map((k) => k[1] ?? '')}::text[], ${batch.map(([, n]) => n)}::int[]) as x(c, p, n)
        on conflict (comp_id, pk, day) do update
          set online_peak = greatest(device_online_daily.online_peak, excluded.online_last),
              online_last = excluded.online_last, gmt_sample = excluded.gmt_sample`.execute(conn),
    );
  }
  // Rows of today this sample did not see have no device online any more.
  await timed(() =>
    sql`update device_online_daily set online_last = 0, gmt_sample = ${now}::bigint
      where day = ${day}::int and gmt_sample < ${now}::bigint`.execute(conn),
  );
  return counts.get(`0\u0000`) ?? 0;
};

export type StatsNumbers = Omit<StatsOutput, 'download_ticket'>;

/** Months since 1970-01 of a UTC day number (`stats_month()` in SQL), and the first day of a month. */
export const monthOfDay = (day: number): number => {
  const d = new Date(day * SECONDS_PER_DAY * 1000);
  return (d.getUTCFullYear() - 1970) * 12 + d.getUTCMonth();
};
export const firstDayOfMonth = (month: number): number => Date.UTC(1970 + Math.floor(month / 12), month % 12, 1) / (SECONDS_PER_DAY * 1000);

/** A range of days as the whole months inside it (if any) and the day ranges at its edges. */
export interface RangeParts {
  months: [number, number] | null;
  days: [number, number][];
}
export const splitRange = (first: number, last: number, useMonths = true): RangeParts => {
  if (!useMonths) return { months: null, days: [[first, last]] };
  const m0 = monthOfDay(first);
  const m1 = monthOfDay(last);
  const from = firstDayOfMonth(m0) === first ? m0 : m0 + 1;
  const to = firstDayOfMonth(m1 + 1) - 1 === last ? m1 : m1 - 1;
  if (from > to) return { months: null, days: [[first, last]] };
  const days: [number, number][] = [];
  if (first < firstDayOfMonth(from)) days.push([first, firstDayOfMonth(from) - 1]);
  if (firstDayOfMonth(to + 1) <= last) days.push([firstDayOfMonth(to + 1), last]);
  return { months: [from, to], days };
};

interface Filter {
  /** Rows of the companies asked about: the roll-up row (0) or the companies in scope and filter. */
  companies: (column: string) => RawBuilder<SqlBool>;
  /** Detail rows of each company (per-company breakdown). */
  eachCompany: (column: string) => RawBuilder<SqlBool>;
  pk: string;
}

/**
 * The companies asked about, resolved once per call: the roll-up rows for everything, else the
 * ids of the scope's (and filter's) companies as one array every query probes by index.
 */
const filterOf = async (conn: Conn, scope: Scope, input: StatsInput): Promise<Filter> => {
  const pk = input.pk ?? '';
  let path: string | null = null;
  if (input.comp_id !== undefined) {
    // comp_id is a declared company reference: the transport and the download mechanism checked its scope.
    const row = await conn.selectFrom('company').select('comp_path').where('comp_id', '=', input.comp_id).executeTakeFirstOrThrow();
    path = row.comp_path;
  }
  if (scope.kind === 'all' && path === null) {
    return { companies: (c) => sql<SqlBool>`${sql.ref(c)} = 0`, eachCompany: (c) => sql<SqlBool>`${sql.ref(c)} <> 0`, pk };
  }
  const ids = await sql<{ comp_id: number }>`
    select sc.comp_id from company sc where ${inScope(scope, 'sc.comp_id')}${path === null ? sql`` : sql` and sc.comp_path like ${`${path}%`}`}`.execute(
    conn,
  );
  const list = ids.rows.map((r) => Number(r.comp_id));
  const chosen = (column: string) => sql<SqlBool>`${sql.ref(column)} = any(${list}::int[])`;
  return { companies: chosen, eachCompany: chosen, pk };
};

const num = (v: unknown): number => Number(v ?? 0);

/**
 * `registered`/`activated` rows of the range: its whole months from `device_monthly`, the partial
 * months at its edges from `device_daily` (the same sums as the daily rows alone: tests compare).
 */
const rangeRows = (parts: RangeParts, where: RawBuilder<SqlBool>) => {
  // One branch per day range (each an index range of its own), then the whole months.
  const branches = parts.days.map(
    ([a, b]) => sql`select comp_id, pk, registered, activated from device_daily where ${where} and day between ${a}::int and ${b}::int`,
  );
  if (parts.months !== null) {
    branches.push(sql`select comp_id, pk, registered, activated from device_monthly
      where ${where} and month between ${parts.months[0]}::int and ${parts.months[1]}::int`);
  }
  return sql.join(branches, sql` union all `);
};

export interface ReadOptions {
  /** Whole months from the monthly level (default); false reads every day from `device_daily` (tests compare the two). */
  useMonths?: boolean;
}

/** The statistics answer for a range of whole UTC days, in the caller's scope. */
export const readDeviceStats = async (conn: Conn, scope: Scope, input: StatsInput, options: ReadOptions = {}): Promise<StatsNumbers> => {
  await foldDeviceStats(conn);
  // The server's PostgreSQL statements are named prepared statements (database.ts): after five
  // runs PostgreSQL may switch to a generic plan, blind to the company-id array and the day range,
  // which turned a 25 ms company-admin 366-day read into 130-700 ms (docs/bench.md). Custom plans
  // for this read only, in a transaction of its own.
  const read = async (trx: Conn) => {
    await sql`set local plan_cache_mode = force_custom_plan`.execute(trx);
    return readRollups(trx, scope, input, options);
  };
  return conn.isTransaction ? read(conn) : conn.transaction().execute(read);
};

const readRollups = async (conn: Conn, scope: Scope, input: StatsInput, options: ReadOptions): Promise<StatsNumbers> => {
  const f = await filterOf(conn, scope, input);
  const first = dayOf(input.gmt_start);
  const last = dayOf(input.gmt_end - 1);
  const parts = splitRange(first, last, options.useMonths ?? true);

  const daily = await sql<{ day: number; registered: number; activated: number }>`
    select day, sum(registered)::int as registered, sum(activated)::int as activated from device_daily
    where ${f.companies('comp_id')} and pk = ${f.pk} and day between ${first}::int and ${last}::int
    group by day`.execute(conn);
  const online = await sql<{ day: number; online: number }>`
    select day, sum(online_peak)::int as online from device_online_daily
    where ${f.companies('comp_id')} and pk = ${f.pk} and day between ${first}::int and ${last}::int
    group by day`.execute(conn);
  const total = await sql<{ registered: number; activated: number }>`
    select coalesce(sum(registered), 0)::int as registered, coalesce(sum(activated), 0)::int as activated from device_total
    where ${f.companies('comp_id')} and pk = ${f.pk}`.execute(conn);
  // Online now: the exact counters of migration 0012 (folded above); the time of the latest sample of the daily series.
  const now = await sql<{ online: number; gmt_sample: number | null }>`
    select coalesce(sum(o.online), 0)::int as online,
      (select gmt_sample from device_online_daily where comp_id = 0 and pk = '' order by day desc limit 1) as gmt_sample
    from device_online_now o
    where ${f.companies('o.comp_id')} and o.pk = ${f.pk}`.execute(conn);
  const countries = await sql<{ country: string; devices: number }>`
    select country, sum(devices)::int as devices from device_country
    where ${f.companies('comp_id')} and pk = ${f.pk}
    group by country having sum(devices) > 0 order by 2 desc, 1 limit ${STATS_TOP}::int`.execute(conn);
  const productRows = rangeRows(parts, sql<SqlBool>`${f.companies('comp_id')} and ${f.pk === '' ? sql`pk <> ''` : sql`pk = ${f.pk}`}`);
  const products = await sql<{ pk: string; product_name: string | null; registered: number; activated: number }>`
    select t.pk, p.name as product_name, t.registered, t.activated from (
      select pk, sum(registered)::int as registered, sum(activated)::int as activated from (${productRows}) r
      group by pk having sum(registered) <> 0 or sum(activated) <> 0
      order by 2 desc, 3 desc, 1 limit ${STATS_TOP}::int
    ) t left join product p on p.pk = t.pk
    order by t.registered desc, t.activated desc, t.pk`.execute(conn);
  const companyRows = rangeRows(parts, sql<SqlBool>`${f.eachCompany('comp_id')} and pk = ${f.pk}`);
  const companies = await sql<{ comp_id: number; comp_name: string | null; registered: number; activated: number }>`
    select t.comp_id, c.comp_name, t.registered, t.activated from (
      select comp_id, sum(registered)::int as registered, sum(activated)::int as activated from (${companyRows}) r
      group by comp_id having sum(registered) <> 0 or sum(activated) <> 0
      order by 2 desc, 3 desc, 1 limit ${STATS_TOP}::int
    ) t left join company c on c.comp_id = t.comp_id
    order by t.registered desc, t.activated desc, t.comp_id`.execute(conn);

  const byDay = new Map(daily.rows.map((r) => [num(r.day), r]));
  const onlineByDay = new Map(online.rows.map((r) => [num(r.day), num(r.online)]));
  const series: StatsNumbers['series'] = [];
  const devices = num(total.rows[0]?.registered);
  const onlineNow = num(now.rows[0]?.online);
  // Today's point is at least what is online now (its samples may be minutes old).
  const todayDay = dayOf(Math.floor(Date.now() / 1000));
  for (let d = first; d <= last; d++) {
    const r = byDay.get(d);
    const sampled = onlineByDay.get(d) ?? 0;
    series.push({
      day: dayLabel(d),
      registered: num(r?.registered),
      activated: num(r?.activated),
      online: d === todayDay ? Math.max(sampled, onlineNow) : sampled,
    });
  }
  const sampledAt = now.rows[0]?.gmt_sample;
  return {
    gmt_start: first * 86_400,
    gmt_end: (last + 1) * 86_400,
    series,
    totals: {
      registered: series.reduce((s, r) => s + r.registered, 0),
      activated: series.reduce((s, r) => s + r.activated, 0),
      online_peak: series.reduce((m, r) => Math.max(m, r.online), 0),
      devices,
      active_devices: num(total.rows[0]?.activated),
      online: onlineNow,
      online_share: devices > 0 ? Math.min(1, onlineNow / devices) : 0,
      gmt_sample: sampledAt === null || sampledAt === undefined ? null : num(sampledAt),
    },
    countries: countries.rows.map((r) => ({ country: r.country, devices: num(r.devices) })),
    products: products.rows.map((r) => ({
      pk: r.pk,
      product_name: r.product_name,
      registered: num(r.registered),
      activated: num(r.activated),
    })),
    companies: companies.rows.map((r) => ({
      comp_id: num(r.comp_id),
      comp_name: r.comp_name,
      registered: num(r.registered),
      activated: num(r.activated),
    })),
  };
};
