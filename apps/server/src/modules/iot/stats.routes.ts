import { API, DOWNLOADS, exportLabelsOf, type Language } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../platform/context.js';
import { issueTicket } from '../../platform/download-ticket.js';
import { type Download, download } from '../../platform/downloads.js';
import { nowSeconds, utcDay, utcTime } from '../../platform/time.js';
import { type Route, registerRoutes, route } from '../../platform/transport.js';
import { workbookOf } from '../../platform/workbook.js';
import { foldDeviceStats, readDeviceStats, type StatsNumbers, sampleOnlineDevices } from './stats.repository.js';

export const statsRoutes: Route[] = [
  route(API.devStatistics, async (ctx, input) => ({
    ...(await readDeviceStats(ctx.conn, ctx.scope, input)),
    // The same question as a browser link: the ticket holds the caller's scope (platform/download-ticket.ts).
    download_ticket: issueTicket(ctx.services, DOWNLOADS.statsXlsx, { scope: ctx.scope }),
  })),
];

/** The numbers of one statistics answer as a workbook: a summary and one sheet per table. */
export const buildStatsWorkbook = async (stats: StatsNumbers, lang: Language): Promise<Buffer> => {
  const l = exportLabelsOf(lang).stats;
  const t = stats.totals;
  return workbookOf([
    {
      name: l.sheets.summary,
      header: [l.item, l.value],
      rows: [
        [l.from, utcDay(stats.gmt_start)],
        [l.to, utcDay(stats.gmt_end - 1)],
        [l.registered, t.registered],
        [l.activated, t.activated],
        [l.online_peak, t.online_peak],
        [l.devices, t.devices],
        [l.active_devices, t.active_devices],
        [l.online_now, t.online],
        [l.online_share, Math.round(t.online_share * 10_000) / 10_000],
        [l.gmt_sample, utcTime(t.gmt_sample)],
      ],
    },
    {
      name: l.sheets.daily,
      header: [l.day, l.registered, l.activated, l.online],
      rows: stats.series.map((r) => [r.day, r.registered, r.activated, r.online]),
    },
    { name: l.sheets.countries, header: [l.country, l.count], rows: stats.countries.map((r) => [r.country, r.devices]) },
    {
      name: l.sheets.products,
      header: [l.pk, l.product_name, l.registered, l.activated],
      rows: stats.products.map((r) => [r.pk, r.product_name ?? '', r.registered, r.activated]),
    },
    {
      name: l.sheets.companies,
      header: [l.comp_id, l.comp_name, l.registered, l.activated],
      rows: stats.companies.map((r) => [r.comp_id, r.comp_name ?? '', r.registered, r.activated]),
    },
  ]);
};

/** `GET /api/v2/iot/dev/statistics.xlsx?gmt_start&gmt_end&comp_id&pk&lang` (ticket or token: platform/downloads.ts). */
export const statsDownloads: Download[] = [
  download(DOWNLOADS.statsXlsx, async (ctx, input) => {
    const stats = await readDeviceStats(ctx.conn, ctx.scope, input);
    const from = stats.series[0]?.day ?? '';
    const to = stats.series.at(-1)?.day ?? '';
    return { body: await buildStatsWorkbook(stats, ctx.lang), name: `device-statistics-${from}-${to}.xlsx` };
  }),
];

/**
 * Statistics: the POST route, and the background folding of rollup deltas and sampling of
 * online devices (stopped on close). The .xlsx is in `statsDownloads`.
 */
export const registerStats = (app: FastifyInstance, services: Services) => {
  registerRoutes(app, services, statsRoutes);

  // STATS_SAMPLE_SECONDS and STATS_FOLD_MS (config.ts, README).
  const { statsSampleSeconds: sampleSeconds, statsFoldMs: foldMs } = services.config;
  const timers: NodeJS.Timeout[] = [];
  let running: Promise<unknown> = Promise.resolve();
  let closing = false;
  const run = (work: () => Promise<unknown>) => {
    if (closing) return;
    running = running.then(work).catch((err: unknown) => app.log.warn({ err }, 'device statistics background work failed'));
  };
  const sample = () => run(() => sampleOnlineDevices(services.db, nowSeconds()));
  app.addHook('onReady', async () => {
    if (sampleSeconds > 0) {
      sample();
      timers.push(setInterval(sample, sampleSeconds * 1000).unref());
    }
    if (foldMs > 0) timers.push(setInterval(() => run(() => foldDeviceStats(services.db)), foldMs).unref());
  });
  app.addHook('preClose', async () => {
    closing = true;
    for (const t of timers) clearInterval(t);
    await running;
  });
};
