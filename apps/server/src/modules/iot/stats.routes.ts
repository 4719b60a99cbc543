import { API, STATS_XLSX_PATH, statsInput } from '@iot/contract';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import type { Scope, Services } from '../../platform/context.js';
import { issueTicket, readTicket } from '../../platform/download-ticket.js';
import { badParams } from '../../platform/errors.js';
import { scopeOf } from '../../platform/scope.js';
import { nowSeconds } from '../../platform/time.js';
import { authenticate, type Route, registerRoutes, route } from '../../platform/transport.js';
import { fieldErrorsOf } from '../../platform/validation.js';
import { foldDeviceStats, readDeviceStats, type StatsNumbers, sampleOnlineDevices } from './stats.repository.js';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const STATS_MENUS = API.devStatistics.access;

/**
 * A ticket holding the caller's scope at the time of the call (platform/download-ticket.ts),
 * so a browser link (no headers) downloads what the caller could see, and nothing else.
 */
const ticketFor = (services: Services, scope: Scope) => issueTicket(services, 'stats', scope);

const scopeOfTicket = (services: Services, ticket: string): Scope | null => {
  const v = readTicket(services, 'stats', ticket);
  return v && typeof v === 'object' && 'kind' in v ? (v as Scope) : null;
};

export const statsRoutes: Route[] = [
  route(API.devStatistics, async (ctx, input) => ({
    ...(await readDeviceStats(ctx.conn, ctx.scope, input)),
    download_ticket: ticketFor(ctx.services, ctx.scope),
  })),
];

type Lang = 'en' | 'zh-CN' | 'zh-TW';
const EN_LABELS = {
  summary: 'Summary',
  daily: 'Daily',
  countries: 'Countries',
  products: 'Products',
  companies: 'Companies',
  item: 'Item',
  value: 'Value',
  from: 'From (UTC day)',
  to: 'To (UTC day)',
  registered: 'Registered',
  activated: 'Activated',
  online: 'Online (daily peak)',
  online_peak: 'Highest daily online peak',
  devices: 'Devices (all time)',
  active_devices: 'Activated devices (all time)',
  online_now: 'Online now',
  online_share: 'Online share',
  gmt_sample: 'Last sample (UTC)',
  day: 'Day',
  country: 'Country',
  count: 'Devices',
  pk: 'PK',
  product_name: 'Product',
  comp_id: 'Company ID',
  comp_name: 'Company',
};

const LABELS: Record<Lang, typeof EN_LABELS> = {
  en: EN_LABELS,
  'zh-CN': {
    summary: '汇总',
    daily: '每日',
    countries: '国家',
    products: '产品',
    companies: '公司',
    item: '项目',
    value: '数值',
    from: '开始（UTC 日）',
    to: '结束（UTC 日）',
    registered: '新注册',
    activated: '新激活',
    online: '在线（当日峰值）',
    online_peak: '区间内最高在线峰值',
    devices: '设备总数',
    active_devices: '已激活设备总数',
    online_now: '当前在线数',
    online_share: '在线率',
    gmt_sample: '最近采样时间（UTC）',
    day: '日期',
    country: '国家',
    count: '设备数',
    pk: 'PK',
    product_name: '产品',
    comp_id: '公司 ID',
    comp_name: '公司',
  },
  'zh-TW': {
    summary: '匯總',
    daily: '每日',
    countries: '國家',
    products: '產品',
    companies: '公司',
    item: '項目',
    value: '數值',
    from: '開始（UTC 日）',
    to: '結束（UTC 日）',
    registered: '新註冊',
    activated: '新啟用',
    online: '線上（當日峰值）',
    online_peak: '區間內最高線上峰值',
    devices: '裝置總數',
    active_devices: '已啟用裝置總數',
    online_now: '目前線上數',
    online_share: '線上率',
    gmt_sample: '最近取樣時間（UTC）',
    day: '日期',
    country: '國家',
    count: '裝置數',
    pk: 'PK',
    product_name: '產品',
    comp_id: '公司 ID',
    comp_name: '公司',
  },
};

/** The numbers of one statistics answer as a workbook: a summary and one sheet per table. */
export const buildStatsWorkbook = async (stats: StatsNumbers, lang: Lang): Promise<Buffer> => {
  const l = LABELS[lang];
  const wb = new ExcelJS.Workbook();
  const sheet = (name: string, header: string[], rows: (string | number | null)[][]) => {
    const ws = wb.addWorksheet(name);
    ws.columns = header.map((h) => ({ header: h, width: Math.max(14, h.length + 4) }));
    ws.getRow(1).font = { bold: true };
    for (const r of rows) ws.addRow(r);
  };
  const t = stats.totals;
  const day = (unix: number) => new Date(unix * 1000).toISOString().slice(0, 10);
  sheet(
    l.summary,
    [l.item, l.value],
    [
      [l.from, day(stats.gmt_start)],
      [l.to, day(stats.gmt_end - 1)],
      [l.registered, t.registered],
      [l.activated, t.activated],
      [l.online_peak, t.online_peak],
      [l.devices, t.devices],
      [l.active_devices, t.active_devices],
      [l.online_now, t.online],
      [l.online_share, Math.round(t.online_share * 10_000) / 10_000],
      [l.gmt_sample, t.gmt_sample === null ? '' : new Date(t.gmt_sample * 1000).toISOString().replace('T', ' ').slice(0, 19)],
    ],
  );
  sheet(
    l.daily,
    [l.day, l.registered, l.activated, l.online],
    stats.series.map((r) => [r.day, r.registered, r.activated, r.online]),
  );
  sheet(
    l.countries,
    [l.country, l.count],
    stats.countries.map((r) => [r.country, r.devices]),
  );
  sheet(
    l.products,
    [l.pk, l.product_name, l.registered, l.activated],
    stats.products.map((r) => [r.pk, r.product_name ?? '', r.registered, r.activated]),
  );
  sheet(
    l.companies,
    [l.comp_id, l.comp_name, l.registered, l.activated],
    stats.companies.map((r) => [r.comp_id, r.comp_name ?? '', r.registered, r.activated]),
  );
  return Buffer.from(await wb.xlsx.writeBuffer());
};

/**
 * Statistics: the POST route, `GET /api/v2/iot/dev/statistics.xlsx?gmt_start&gmt_end&comp_id&pk&lang`
 * (token in `Authorization`, or `ticket` from the POST answer for browser links), and the
 * background folding of rollup deltas and sampling of online devices (stopped on close).
 */
export const registerStats = (app: FastifyInstance, services: Services) => {
  registerRoutes(app, services, statsRoutes);

  app.get<{ Querystring: Record<string, string | undefined> }>(`/api/${STATS_XLSX_PATH}`, async (request, reply) => {
    const { ticket, lang: rawLang, ...query } = request.query;
    const fromTicket = ticket ? scopeOfTicket(services, ticket) : null;
    const scope = fromTicket ?? scopeOf(await authenticate(services, request, STATS_MENUS));
    const parsed = statsInput.safeParse(query);
    if (!parsed.success) throw badParams(fieldErrorsOf(parsed.error, query));
    const lang: Lang = rawLang === 'zh-CN' || rawLang === 'zh-TW' ? rawLang : 'en';
    const stats = await services.inFlight.track(() => readDeviceStats(services.db, scope, parsed.data));
    const body = await buildStatsWorkbook(stats, lang);
    const from = stats.series[0]?.day ?? '';
    const to = stats.series.at(-1)?.day ?? '';
    return reply
      .type(XLSX_TYPE)
      .header('cache-control', 'private, no-store')
      .header('content-disposition', `attachment; filename="device-statistics-${from}-${to}.xlsx"`)
      .send(body);
  });

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
