// Web console benchmark (`node scripts/bench-web.mjs`, `BENCH_SUITE=web npm run bench`): builds what is stale,
// starts the built server (PGlite in a temporary DATA_DIR, serving a copy of apps/web/dist precompressed), then with
// Debian Chromium through playwright-core:
//   1. checks the server answers brotli (`Accept-Encoding: br` → `Content-Encoding: br`) for the entry script;
//   2. loads /login in a fresh context and sums the JS it loads (a cold cache);
//   3. logs in through the login page as admin, clears the browser cache (CDP, cache disabled), opens the table page
//      /product/device and sums the JS it loads over the wire: encoded body bytes of every script response
//      (headers shown apart), file count, content encodings;
//   4. runs Lighthouse (performance only) on /login through the same Chromium (remote-debugging port): desktop (its
//      desktop config) and mobile (the default: simulated slow 4G and 4× CPU slowdown).
// Targets (issue 7): the table page under 400 KiB of JS over the wire in under 30 files; Lighthouse mobile ≥ 85 on
// the login page. Missed targets print ✗; only errors set the exit code.
//
// Knobs: BENCH_WEB_RUNS (2: cold loads and Lighthouse runs per form factor; the median is printed), BENCH_WEB_STEPS
// (pages,desktop,mobile: the steps to run), BENCH_WEB_DIR (measure this built console instead of apps/web/dist, and
// build nothing), BENCH_WEB_PAGE (/product/device), BENCH_WEB_LHR_DIR (write each Lighthouse report there as JSON),
// CHROMIUM_PATH (/usr/bin/chromium).
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { ADMIN_PASSWORD, intEnv, log, machine, mark, startServer } from './bench-lib.mjs';
import { buildIfStale, ROOT } from './lib.mjs';

const RUNS = intEnv('BENCH_WEB_RUNS', 2);
const TABLE_PAGE = process.env.BENCH_WEB_PAGE || '/product/device';
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const STEPS = new Set((process.env.BENCH_WEB_STEPS || 'pages,desktop,mobile').split(','));
const TARGET_TABLE_KIB = 400;
const TARGET_TABLE_FILES = 30;
const TARGET_MOBILE_SCORE = 85;

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const KiB = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const freePort = () =>
  new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });

/** GET with only `Accept-Encoding: br`: the status and the Content-Encoding answered (body discarded). */
const encodingOf = (url) =>
  new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': 'br' } }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode, encoding: res.headers['content-encoding'] ?? 'identity' }));
      })
      .on('error', reject);
  });

/** Step 1: .br files beside the built JS, and the server answering them. */
const checkBrotli = async (url, webDir) => {
  const assets = fs.readdirSync(path.join(webDir, 'assets'));
  const js = assets.filter((f) => f.endsWith('.js'));
  const withBr = js.filter((f) => assets.includes(`${f}.br`));
  // Files under 1 KiB are not precompressed (scripts/precompress.mjs): they travel as they are.
  const small = js.filter((f) => !assets.includes(`${f}.br`) && fs.statSync(path.join(webDir, 'assets', f)).size < 1024);
  const html = fs.readFileSync(path.join(webDir, 'index.html'), 'utf8');
  const entry = html.match(/<script[^>]*\bsrc="([^"]+\.js)"/)?.[1];
  if (!entry) throw new Error('no entry script in index.html');
  const answer = await encodingOf(`${url}${entry}`);
  const ok = answer.status === 200 && answer.encoding === 'br';
  console.log(
    `  brotli: ${withBr.length}/${js.length} JS files have a .br beside them (${small.length} under 1 KiB sent as is); ` +
      `GET ${entry} with Accept-Encoding: br → ${answer.status} Content-Encoding: ${answer.encoding} ${mark(ok)}`,
  );
  return ok;
};

/**
 * Records every script response of `page` from now on: url, encoded body bytes, header bytes, content-encoding.
 * Answers `stop()`, which waits for the sizes and answers the list.
 */
const recordScripts = (page) => {
  const pending = [];
  const onFinished = (request) => {
    if (request.resourceType() !== 'script') return;
    pending.push(
      (async () => {
        const response = await request.response();
        const sizes = await request.sizes();
        const headers = response ? await response.allHeaders() : {};
        return {
          url: request.url(),
          body: sizes.responseBodySize,
          headers: sizes.responseHeadersSize,
          encoding: headers['content-encoding'] ?? 'identity',
        };
      })(),
    );
  };
  page.on('requestfinished', onFinished);
  return async () => {
    page.off('requestfinished', onFinished);
    return Promise.all(pending);
  };
};

const summarise = (scripts) => {
  const body = scripts.reduce((s, x) => s + x.body, 0);
  const headers = scripts.reduce((s, x) => s + x.headers, 0);
  const encodings = {};
  for (const s of scripts) encodings[s.encoding] = (encodings[s.encoding] ?? 0) + 1;
  return { body, headers, files: scripts.length, encodings, scripts };
};

const encodingText = (encodings) =>
  Object.entries(encodings)
    .map(([e, n]) => `${e} ×${n}`)
    .join(', ');

/** Waits until no request has been in flight for `quietMs` (lazy chunks, data calls). */
const settle = async (page, quietMs = 800) => {
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(quietMs);
  await page.waitForLoadState('networkidle');
};

/** Step 2: /login in a fresh context (empty cache). */
const coldLogin = async (browser, url) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  try {
    const page = await context.newPage();
    const stop = recordScripts(page);
    await page.goto(`${url}/login?lang=en`);
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    await settle(page);
    return summarise(await stop());
  } finally {
    await context.close();
  }
};

/** Step 3: log in through the login page, then the table page with the browser cache cleared and disabled. */
const coldTable = async (browser, url) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  try {
    const page = await context.newPage();
    await page.goto(`${url}/login?lang=en`);
    await page.getByLabel('Account').fill('admin');
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/dashboard/);
    await settle(page);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.clearBrowserCache');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const stop = recordScripts(page);
    const t0 = performance.now();
    await page.goto(`${url}${TABLE_PAGE}?lang=en`);
    await page.locator('.ant-table').first().waitFor({ timeout: 30_000 });
    const tableMs = performance.now() - t0;
    await settle(page);
    if (!new URL(page.url()).pathname.startsWith(TABLE_PAGE)) throw new Error(`ended on ${page.url()}, not ${TABLE_PAGE}`);
    return { ...summarise(await stop()), tableMs };
  } finally {
    await context.close();
  }
};

/** Step 4: one Lighthouse performance run on /login; `desktop` uses Lighthouse's desktop config. */
const lighthouseRun = async (url, port, desktop) => {
  const { default: lighthouse } = await import('lighthouse');
  const config = desktop ? (await import('lighthouse/core/config/desktop-config.js')).default : undefined;
  const result = await lighthouse(
    `${url}/login?lang=en`,
    { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] },
    config,
  );
  const { lhr } = result;
  if (process.env.BENCH_WEB_LHR_DIR) {
    fs.mkdirSync(process.env.BENCH_WEB_LHR_DIR, { recursive: true });
    const file = path.join(process.env.BENCH_WEB_LHR_DIR, `login-${desktop ? 'desktop' : 'mobile'}-${Date.now()}.json`);
    fs.writeFileSync(file, JSON.stringify(lhr));
  }
  if (lhr.runtimeError) throw new Error(`lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const audit = (id) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    fcp: audit('first-contentful-paint'),
    lcp: audit('largest-contentful-paint'),
    tbt: audit('total-blocking-time'),
    si: audit('speed-index'),
    cls: audit('cumulative-layout-shift'),
    benchmarkIndex: lhr.environment?.benchmarkIndex,
  };
};

const lhText = (r) =>
  `score ${r.score} (FCP ${(r.fcp / 1000).toFixed(2)} s, LCP ${(r.lcp / 1000).toFixed(2)} s, TBT ${Math.round(r.tbt)} ms, ` +
  `SI ${(r.si / 1000).toFixed(2)} s, CLS ${r.cls.toFixed(3)}; benchmarkIndex ${Math.round(r.benchmarkIndex ?? 0)})`;

const printPages = (logins, tables) => {
  const l = logins[0];
  console.log(
    `  /login, cold: ${KiB(median(logins.map((r) => r.body)))} JS over the wire in ${median(logins.map((r) => r.files))} files (${encodingText(l.encodings)})`,
  );
  const tableBody = median(tables.map((r) => r.body));
  const tableFiles = median(tables.map((r) => r.files));
  const t = tables[0];
  const okSize = tableBody < TARGET_TABLE_KIB * 1024;
  const okFiles = tableFiles < TARGET_TABLE_FILES;
  console.log(
    `  ${TABLE_PAGE}, cold cache after login: ${KiB(tableBody)} JS over the wire (+${KiB(t.headers)} headers) in ${tableFiles} files ` +
      `(${encodingText(t.encodings)}); table shown in ${Math.round(median(tables.map((r) => r.tableMs)))} ms` +
      `\n    target < ${TARGET_TABLE_KIB} KiB ${mark(okSize)}  ·  target < ${TARGET_TABLE_FILES} files ${mark(okFiles)}` +
      (tables.length > 1 ? `  ·  runs: ${tables.map((r) => `${KiB(r.body)}/${r.files}`).join(', ')}` : ''),
  );
  for (const s of [...t.scripts].sort((a, b) => b.body - a.body)) {
    console.log(`    ${KiB(s.body).padStart(10)}  ${new URL(s.url).pathname}`);
  }
};

const main = async () => {
  console.log(`\niot-console web bench: ${RUNS} run(s) each; ${machine()}`);
  // buildIfStale is incremental (tsc -b; the console only when its sources are newer than its build).
  if (!process.env.BENCH_WEB_DIR) buildIfStale();
  const webSource = fs.realpathSync(process.env.BENCH_WEB_DIR || path.join(ROOT, 'apps/web/dist'));
  if (!fs.existsSync(path.join(webSource, 'index.html'))) throw new Error(`no built console in ${webSource}`);

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'iot-bench-web-'));
  // The server reads index.html once: serve a copy, so a rebuild by someone else during the run breaks nothing.
  const webDir = path.join(dataDir, 'web');
  fs.cpSync(webSource, webDir, { recursive: true });
  let server;
  let browser;
  try {
    server = await startServer({ dataDir, env: { WEB_DIR: webDir, ADMIN_PASSWORD } });
    log(`server ${server.url}, console from ${path.relative(ROOT, webSource) || webSource}`);
    await checkBrotli(server.url, webDir);

    const port = await freePort();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [...FLAGS, `--remote-debugging-port=${port}`],
    });
    console.log(`  Chromium ${browser.version()}`);

    const logins = [];
    const tables = [];
    for (let i = 0; i < (STEPS.has('pages') ? RUNS : 0); i++) {
      logins.push(await coldLogin(browser, server.url));
      tables.push(await coldTable(browser, server.url));
    }
    if (STEPS.has('pages')) printPages(logins, tables);
    for (const [name, desktop] of [
      ['desktop', true],
      ['mobile', false],
    ]) {
      if (!STEPS.has(name)) continue;
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await lighthouseRun(server.url, port, desktop));
      const mid = [...runs].sort((a, b) => a.score - b.score)[Math.floor((runs.length - 1) / 2)];
      const score = median(runs.map((r) => r.score));
      const target = desktop ? '' : ` — target ≥ ${TARGET_MOBILE_SCORE} ${mark(score >= TARGET_MOBILE_SCORE)}`;
      console.log(
        `  Lighthouse /login ${name}: ${score}${target}${runs.length > 1 ? ` (runs: ${runs.map((r) => r.score).join(', ')})` : ''}` +
          `\n    ${lhText(mid)}`,
      );
    }
  } finally {
    await browser?.close().catch(() => {});
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
};

try {
  await main();
} catch (err) {
  console.error(`✗ web bench: ${err.stack ?? err}`);
  process.exitCode = 1;
}
