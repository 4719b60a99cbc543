import { type AppStatsApp, type AppStatsInput, type AppStatsOutput, dayLabel, dayOf, STATS_TOP } from '@iot/contract';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Scope } from '../../platform/context.js';
import type { Conn } from '../../platform/db/database.js';
import { inScope } from '../../platform/scope.js';

/**
 * App-user statistics from the rollups of migration 0018 (never from `umh_user`): per company,
 * app and UTC day the new users and the distinct users active that day, and per company, app
 * and country the registered users — written by ingestion in the statement that writes the
 * users (appdata-ingest.repository.ts).
 */
/** Averages keep one decimal (a few users a day would all round to 0). */
const oneDecimal = (v: number) => Math.round(v * 10) / 10;

export type AppStatsNumbers = Omit<AppStatsOutput, 'download_ticket'>;

interface Filter {
  companyId?: number | undefined;
  appId?: number | undefined;
}

/** Rows of the companies in scope (and of the asked company's subtree), and of one app. */
const conditionOf = (scope: Scope, f: Filter, alias: string): RawBuilder<SqlBool> => {
  const col = (c: string) => sql.ref(`${alias}.${c}`);
  const terms: RawBuilder<SqlBool>[] = [inScope(scope, `${alias}.comp_id`)];
  if (f.companyId !== undefined) {
    // comp_id is a declared company reference: the transport checked its scope.
    terms.push(sql<SqlBool>`${col('comp_id')} in (select sc.comp_id from company sc
      where sc.comp_path like (select fc.comp_path from company fc where fc.comp_id = ${f.companyId}) || '%')`);
  }
  if (f.appId !== undefined) terms.push(sql<SqlBool>`${col('app_id')} = ${f.appId}`);
  return sql<SqlBool>`${sql.join(terms, sql` and `)}`;
};

/** Per app: new users and average daily active users over days [first, last], and users of all time. */
const appsOf = async (conn: Conn, scope: Scope, f: Filter, first: number, last: number, limit?: number): Promise<AppStatsApp[]> => {
  const days = last - first + 1;
  const r = await sql<{
    app_id: number;
    app_name: string | null;
    comp_id: number;
    comp_name: string | null;
    new_users: number;
    active: number;
    users: number;
  }>`
    select x.app_id, ap.name as app_name, x.comp_id, c.comp_name, x.new_users, x.active, x.users from (
      select d.app_id, d.comp_id,
        coalesce(sum(d.new_users) filter (where d.day between ${first} and ${last}), 0)::int as new_users,
        coalesce(sum(d.active_users) filter (where d.day between ${first} and ${last}), 0)::int as active,
        coalesce(sum(d.new_users), 0)::int as users
      from app_user_daily d where ${conditionOf(scope, f, 'd')}
      group by d.app_id, d.comp_id
    ) x left join company c on c.comp_id = x.comp_id left join app ap on ap.id = x.app_id
    order by ${limit === undefined ? sql`x.new_users desc, x.active desc` : sql`x.active desc, x.new_users desc`}, x.app_id, x.comp_id
    ${limit === undefined ? sql`` : sql`limit ${limit}`}
  `.execute(conn);
  return r.rows.map((a) => ({
    app_id: a.app_id,
    app_name: a.app_name,
    comp_id: a.comp_id,
    comp_name: a.comp_name,
    new_users: Number(a.new_users),
    active_users: oneDecimal(Number(a.active) / days),
    users: Number(a.users),
  }));
};

export const readAppStats = async (conn: Conn, scope: Scope, input: AppStatsInput): Promise<AppStatsNumbers> => {
  const f: Filter = { companyId: input.comp_id, appId: input.app_id };
  const first = dayOf(input.gmt_start);
  const last = dayOf(input.gmt_end - 1);
  const [daily, apps, countries] = await Promise.all([
    sql<{ day: number; new_users: number; active_users: number }>`
      select d.day, sum(d.new_users)::int as new_users, sum(d.active_users)::int as active_users
      from app_user_daily d where ${conditionOf(scope, f, 'd')} and d.day between ${first} and ${last}
      group by d.day`.execute(conn),
    appsOf(conn, scope, f, first, last),
    sql<{ country: string; users: number }>`
      select n.country, sum(n.users)::int as users from app_user_country n where ${conditionOf(scope, f, 'n')}
      group by n.country having sum(n.users) > 0 order by 2 desc, 1 limit ${STATS_TOP}`.execute(conn),
  ]);
  const byDay = new Map(daily.rows.map((r) => [Number(r.day), r]));
  const series: AppStatsNumbers['series'] = [];
  for (let d = first; d <= last; d++) {
    const r = byDay.get(d);
    series.push({ day: dayLabel(d), new_users: Number(r?.new_users ?? 0), active_users: Number(r?.active_users ?? 0) });
  }
  const activeSum = series.reduce((s, x) => s + x.active_users, 0);
  return {
    gmt_start: first * 86_400,
    gmt_end: (last + 1) * 86_400,
    series,
    totals: {
      new_users: series.reduce((s, x) => s + x.new_users, 0),
      active_avg: oneDecimal(activeSum / series.length),
      active_peak: series.reduce((m, x) => Math.max(m, x.active_users), 0),
      users: apps.reduce((s, a) => s + a.users, 0),
    },
    apps,
    countries: countries.rows.map((c) => ({ country: c.country, users: Number(c.users) })),
  };
};

/** The dashboard's top apps in scope: by daily active users averaged over the `days` days up to today. */
export const topApps = async (conn: Conn, scope: Scope, today: number, days: number, limit: number): Promise<AppStatsApp[]> =>
  appsOf(conn, scope, {}, today - days + 1, today, limit);
