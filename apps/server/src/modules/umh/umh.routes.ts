import { API, type AppStatsInput, DOWNLOADS, dayOf, exportLabelsOf, type Language, TOP_APPS, TOP_APPS_DAYS } from '@iot/contract';
import { issueTicket } from '../../platform/download-ticket.js';
import { type Download, download } from '../../platform/downloads.js';
import { notFound } from '../../platform/errors.js';
import { nowSeconds, utcDay } from '../../platform/time.js';
import { type Route, route } from '../../platform/transport.js';
import { workbookOf } from '../../platform/workbook.js';
import { listAlarms } from './alarm.repository.js';
import { type AppStatsNumbers, readAppStats, topApps } from './app-stats.repository.js';
import { getAppUser, listAppUsers, listDevBinds } from './app-user.repository.js';

/** App users, bindings and shares, alarms, app-user statistics (issue 8). Alarm pushes: alarm-hooks.ts. */
export const umhRoutes: Route[] = [
  route(API.appUserList, (ctx, input) => listAppUsers(ctx.conn, ctx.scope, input)),
  route(API.appUserGet, async (ctx, input) => {
    const user = await getAppUser(ctx.conn, ctx.scope, input.id);
    if (!user) throw notFound('user');
    return user;
  }),
  route(API.devBindList, (ctx, input) => listDevBinds(ctx.conn, ctx.scope, input)),
  route(API.alarmLogList, (ctx, input) => listAlarms(ctx.conn, ctx.scope, input)),
  route(API.appStatistics, async (ctx, input) => ({
    ...(await readAppStats(ctx.conn, ctx.scope, input)),
    // The same question as a browser link: the ticket holds the caller's scope.
    download_ticket: issueTicket(ctx.services, DOWNLOADS.appStatsXlsx, { scope: ctx.scope }),
  })),
  route(API.appRank, async (ctx) => {
    const rows = await topApps(ctx.conn, ctx.scope, dayOf(nowSeconds()), TOP_APPS_DAYS, TOP_APPS);
    return { rows, count: rows.length };
  }),
];

/** The numbers of one app-user statistics answer as a workbook: a summary and one sheet per table. */
export const buildAppStatsWorkbook = async (stats: AppStatsNumbers, lang: Language): Promise<Buffer> => {
  const l = exportLabelsOf(lang).appStats;
  const t = stats.totals;
  return workbookOf([
    {
      name: l.sheets.summary,
      header: [l.item, l.value],
      rows: [
        [l.from, utcDay(stats.gmt_start)],
        [l.to, utcDay(stats.gmt_end - 1)],
        [l.new_users, t.new_users],
        [l.active_avg, t.active_avg],
        [l.active_peak, t.active_peak],
        [l.users, t.users],
      ],
    },
    {
      name: l.sheets.daily,
      header: [l.day, l.new_users, l.active_users],
      rows: stats.series.map((r) => [r.day, r.new_users, r.active_users]),
    },
    {
      name: l.sheets.apps,
      header: [l.app_id, l.comp_name, l.new_users, l.active_avg, l.users],
      rows: stats.apps.map((a) => [a.app_id, a.comp_name ?? '', a.new_users, a.active_users, a.users]),
    },
    { name: l.sheets.countries, header: [l.country, l.users], rows: stats.countries.map((c) => [c.country, c.users]) },
  ]);
};

/** `GET /api/v2/umh/admin/user/statistics.xlsx?gmt_start&gmt_end&comp_id&app_id&lang` (ticket or token). */
export const umhDownloads: Download[] = [
  download(DOWNLOADS.appStatsXlsx, async (ctx, input: AppStatsInput) => {
    const stats = await readAppStats(ctx.conn, ctx.scope, input);
    const from = stats.series[0]?.day ?? '';
    const to = stats.series.at(-1)?.day ?? '';
    return { body: await buildAppStatsWorkbook(stats, ctx.lang), name: `app-user-statistics-${from}-${to}.xlsx` };
  }),
];
