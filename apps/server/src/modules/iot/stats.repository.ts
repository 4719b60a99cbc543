import { dayLabel, dayOf, STATS_TOP, type StatsInput, type StatsOutput } from '@iot/contract';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Scope } from '../../platform/context.js';
import type { Conn } from '../../platform/db/database.js';
import { assertCompanyInScope, inScope } from '../../platform/scope.js';

/**
 * Device statistics from the rollups of migration 0009 (never from `device`): a few hundred
 * rows per question whatever the number of devices. Roll-up rows: `comp_id` 0 = every
 * company, `pk` '' = every product.
 */

/** Pending trigger deltas into the rollups (exact answers); cheap when there are none. */
export const foldDeviceStats = async (conn: Conn): Promise<number> =>
  Number((await sql<{ n: number }>`select device_stats_fold() as n`.execute(conn)).rows[0]?.n ?? 0);

/** One sample of the online devices into today's `device_online_daily` rows; answers the online count (-1: another sample ran). */
export const sampleOnlineDevices = async (conn: Conn, now: number): Promise<number> =>
  Number((await sql<{ n: number }>`select device_online_sample(${now}::bigint) as n`.execute(conn)).rows[0]?.n ?? 0);

export type StatsNumbers = Omit<StatsOutput, 'download_ticket'>;

interface Filter {
  /** Rows of the companies asked about: the roll-up row (0) or the companies in scope and filter. */
  companies: (column: string) => RawBuilder<SqlBool>;
  /** Detail rows of each company (per-company breakdown). */
  eachCompany: (column: string) => RawBuilder<SqlBool>;
  pk: string;
}

const filterOf = async (conn: Conn, scope: Scope, input: StatsInput): Promise<Filter> => {
  const pk = input.pk ?? '';
  let path: string | null = null;
  if (input.comp_id !== undefined) {
    await assertCompanyInScope(conn, scope, input.comp_id);
    const row = await conn.selectFrom('company').select('comp_path').where('comp_id', '=', input.comp_id).executeTakeFirstOrThrow();
    path = row.comp_path;
  }
  const chosen = (column: string) =>
    sql<SqlBool>`${sql.ref(column)} in (select sc.comp_id from company sc where ${inScope(scope, 'sc.comp_id')}${
      path === null ? sql`` : sql` and sc.comp_path like ${`${path}%`}`
    })`;
  if (scope.kind === 'all' && path === null) {
    return { companies: (c) => sql<SqlBool>`${sql.ref(c)} = 0`, eachCompany: (c) => sql<SqlBool>`${sql.ref(c)} <> 0`, pk };
  }
  return { companies: chosen, eachCompany: chosen, pk };
};

const num = (v: unknown): number => Number(v ?? 0);

/** The statistics answer for a range of whole UTC days, in the caller's scope. */
export const readDeviceStats = async (conn: Conn, scope: Scope, input: StatsInput): Promise<StatsNumbers> => {
  await foldDeviceStats(conn);
  const f = await filterOf(conn, scope, input);
  const first = dayOf(input.gmt_start);
  const last = dayOf(input.gmt_end - 1);

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
  // The latest sample (the sampler always writes the every-company, every-product row).
  const now = await sql<{ online: number; gmt_sample: number | null }>`
    with latest as (select max(day) as day from device_online_daily where comp_id = 0 and pk = '')
    select coalesce(sum(o.online_last), 0)::int as online, max(o.gmt_sample) as gmt_sample
    from device_online_daily o, latest
    where o.day = latest.day and ${f.companies('o.comp_id')} and o.pk = ${f.pk}`.execute(conn);
  const countries = await sql<{ country: string; devices: number }>`
    select country, sum(devices)::int as devices from device_country
    where ${f.companies('comp_id')} and pk = ${f.pk}
    group by country having sum(devices) > 0 order by 2 desc, 1 limit ${STATS_TOP}::int`.execute(conn);
  const products = await sql<{ pk: string; product_name: string | null; registered: number; activated: number }>`
    select t.pk, p.name as product_name, t.registered, t.activated from (
      select pk, sum(registered)::int as registered, sum(activated)::int as activated from device_daily
      where ${f.companies('comp_id')} and ${f.pk === '' ? sql`pk <> ''` : sql`pk = ${f.pk}`}
        and day between ${first}::int and ${last}::int
      group by pk having sum(registered) <> 0 or sum(activated) <> 0
      order by 2 desc, 3 desc, 1 limit ${STATS_TOP}::int
    ) t left join product p on p.pk = t.pk
    order by t.registered desc, t.activated desc, t.pk`.execute(conn);
  const companies = await sql<{ comp_id: number; comp_name: string | null; registered: number; activated: number }>`
    select t.comp_id, c.comp_name, t.registered, t.activated from (
      select comp_id, sum(registered)::int as registered, sum(activated)::int as activated from device_daily
      where ${f.eachCompany('comp_id')} and pk = ${f.pk} and day between ${first}::int and ${last}::int
      group by comp_id having sum(registered) <> 0 or sum(activated) <> 0
      order by 2 desc, 3 desc, 1 limit ${STATS_TOP}::int
    ) t left join company c on c.comp_id = t.comp_id
    order by t.registered desc, t.activated desc, t.comp_id`.execute(conn);

  const byDay = new Map(daily.rows.map((r) => [num(r.day), r]));
  const onlineByDay = new Map(online.rows.map((r) => [num(r.day), num(r.online)]));
  const series: StatsNumbers['series'] = [];
  for (let d = first; d <= last; d++) {
    const r = byDay.get(d);
    series.push({ day: dayLabel(d), registered: num(r?.registered), activated: num(r?.activated), online: onlineByDay.get(d) ?? 0 });
  }
  const devices = num(total.rows[0]?.registered);
  const onlineNow = num(now.rows[0]?.online);
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
