// Import/export benchmark (`node scripts/bench-import.mjs`, or `npm run bench` with BENCH_SUITE=jobs|all):
// for PGlite and PostgreSQL, a 100,000-row .xlsx (UID, MAC, PK; written with the streaming writer) is
// imported by the server's own job runner (streaming parse, registerDevices in chunks, checkpoint per
// chunk), then the same devices are exported to .xlsx. First, in this (parent) process, the database
// is seeded with BENCH_IMPORT_BASE_DEVICES devices over BENCH_COMPANIES companies with generate_series
// (seedDevices in bench-lib.mjs, as the device-list bench does), so the import and export run against a
// full table. The measurement then runs in a fresh child process per database so its peak RSS
// (getrusage maxrss) is the server's own: the database (PGlite is in-process), the parser and the writer.
//
// Knobs: BENCH_IMPORT_ROWS (100000), BENCH_IMPORT_BASE_DEVICES (1000000; 0 for a quick run on an
// empty table), BENCH_COMPANIES (1000), BENCH_DB=pglite|postgres|both (both),
// BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres), BENCH_IMPORT_NODE_FLAGS. The measured child applies
// HEAP_GROWING_PERCENT as the server does (platform/heap.ts; HEAP_GROWING_PERCENT=0 shows V8's default).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import {
  buildServer,
  DBS,
  dist,
  intEnv,
  log,
  machine,
  openSeededDatabase,
  quietLog as quiet,
  rootCompany,
  seedDevices,
  withBenchDatabase,
} from './bench-lib.mjs';
import { ROOT } from './lib.mjs';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS || 100_000);
const BASE_DEVICES = intEnv('BENCH_IMPORT_BASE_DEVICES', 1_000_000, { min: 0 });
const COMPANIES = intEnv('BENCH_COMPANIES', 1000);
// Targets (issue 3): import of 100,000 rows < 10 s and < 300 MB peak; export of 100,000 rows < 5 s.
const TARGET_IMPORT_S = 10;
const TARGET_IMPORT_MB = 300;
const TARGET_EXPORT_S = 5;
const MB = (bytes) => bytes / 1024 / 1024;
/** BENCH_IMPORT_NODE_FLAGS: node flags for the measured child only (e.g. `--cpu-prof --cpu-prof-dir=prof` or `--trace-gc`). */
const nodeFlags = (process.env.BENCH_IMPORT_NODE_FLAGS ?? '').split(' ').filter(Boolean);

/** The measured part, in its own process: one (already seeded) database, one import, one export. */
const runOne = async (kind, sheet, dataDir, databaseUrl) => {
  const { loadConfig } = await dist('config.js');
  const { openDatabase } = await dist('platform/db/database.js');
  const { migrateToLatest } = await dist('platform/db/migrations.js');
  const { seedMenus, ensureFirstAdmin } = await dist('platform/seed.js');
  const { buildApp } = await dist('app.js');
  const { tuneHeap } = await dist('platform/heap.js');
  const { jobServicesOf, JOB_HANDLERS } = await dist('modules/iot/job-files.js');
  const { createJob } = await dist('modules/iot/job.repository.js');
  const { createJobRunner } = await dist('platform/jobs.js');

  // As main.ts does at start (HEAP_GROWING_PERCENT).
  const config = { ...loadConfig(process.env), dataDir, webDir: undefined, secretKey: 'bench', jobWorkers: 0 };
  tuneHeap(config.heapGrowingPercent);
  const database = await openDatabase({ databaseUrl, pgliteDir: path.join(dataDir, 'pglite'), poolSize: 4 });
  try {
    await migrateToLatest(database.db);
    await seedMenus(database.db);
    await ensureFirstAdmin(database.db, 'Bench#Admin1', quiet);
    const app = await buildApp({ config, database, logger: false });
    const services = jobServicesOf(app);
    const db = database.db;
    const root = await db.selectFrom('company').select(['comp_id']).where('comp_parent_id', '=', 0).executeTakeFirstOrThrow();
    const now = Math.floor(Date.now() / 1000);
    await db
      .insertInto('product')
      .values({ pk: 'BENCHIMPORT', name: 'Bench', comp_id: root.comp_id, create_time: now, update_time: now })
      .execute();

    const { key } = await services.storage.put('imports', 'xlsx', fs.createReadStream(sheet));
    const scope = { kind: 'all' };
    const rssBefore = process.resourceUsage().maxRSS * 1024;

    const runner = createJobRunner({ services, handlers: JOB_HANDLERS, log: quiet });
    // Where the memory is at its highest: V8 heap, external (Buffers), array buffers, sampled every 50 ms.
    const top = { rss: 0, heapUsed: 0, heapTotal: 0, external: 0, arrayBuffers: 0 };
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      for (const k of Object.keys(top)) top[k] = Math.max(top[k], m[k]);
    }, 50);
    const t0 = performance.now();
    const importId = await createJob(db, {
      kind: 'device_import',
      comp_id: root.comp_id,
      user_id: 'admin',
      scope,
      params: { pk: '' },
      input_key: key,
    });
    await runner.drain();
    const importMs = performance.now() - t0;
    const peakImport = process.resourceUsage().maxRSS * 1024;
    clearInterval(sampler);
    const job = await db.selectFrom('job').selectAll().where('id', '=', importId).executeTakeFirstOrThrow();
    if (job.state !== 'done' || job.ok_count !== ROWS) throw new Error(`import ended ${job.state} ${job.error} ok=${job.ok_count}`);

    const t1 = performance.now();
    const exportId = await createJob(db, {
      kind: 'device_export',
      comp_id: root.comp_id,
      user_id: 'admin',
      scope,
      params: { gmt_start: now - 86_400, gmt_end: now + 86_400 },
    });
    await runner.drain();
    const exportMs = performance.now() - t1;
    const ex = await db.selectFrom('job').selectAll().where('id', '=', exportId).executeTakeFirstOrThrow();
    if (ex.state !== 'done' || ex.ok_count !== ROWS) throw new Error(`export ended ${ex.state} ${ex.error} rows=${ex.ok_count}`);
    const peakAll = process.resourceUsage().maxRSS * 1024;
    await app.close();
    console.log(
      JSON.stringify({
        kind,
        rows: ROWS,
        importMs,
        exportMs,
        rssBeforeMB: MB(rssBefore),
        peakImportMB: MB(peakImport),
        peakAllMB: MB(peakAll),
        importTopMB: Object.fromEntries(Object.entries(top).map(([k, v]) => [k, Math.round(MB(v))])),
      }),
    );
  } finally {
    await database.close();
  }
};

/**
 * The base table, in a child process of its own (its memory is not the measured one's): BASE_DEVICES devices of
 * product BENCHPK over COMPANIES companies, registered until two days ago (outside the export's
 * window), their UIDs and MACs apart from the sheet's.
 */
const seedBase = async (dataDir, databaseUrl) => {
  const pgliteDir = path.join(dataDir, 'pglite');
  const started = performance.now();
  const database = await openSeededDatabase({ databaseUrl, pgliteDir });
  try {
    const db = database.db;
    const root = await rootCompany(db);
    const now = Math.floor(Date.now() / 1000) - 2 * 86_400;
    await seedDevices(db, {
      root,
      devices: BASE_DEVICES,
      companies: COMPANIES,
      now,
      name: 'Import bench',
      short: 'I',
      key: 'importbench-',
      uidPrefix: 'BASE-',
      macOffset: 2 ** 32,
    });
    await sql`vacuum analyze`.execute(db);
    const n = (await sql`select count(*)::int as n from device`.execute(db)).rows[0].n;
    log(`seeded ${n} devices in ${COMPANIES} companies in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await database.close();
  }
};

/** The file, written here (not in the measured process) by the streaming writer, as a customer's sheet would arrive. */
const writeSheet = async (file) => {
  const ExcelJS = (await import('exceljs')).default;
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: false, useStyles: false });
  const ws = wb.addWorksheet('devices');
  ws.addRow(['UID', 'MAC', 'PK']).commit();
  for (let i = 0; i < ROWS; i++) {
    const hex = i.toString(16).padStart(12, '0');
    ws.addRow([`BENCH-${String(i).padStart(8, '0')}`, hex.match(/../g).join(':'), 'BENCHIMPORT']).commit();
  }
  ws.commit();
  await wb.commit();
};

const main = async () => {
  if (!process.env.BENCH_SKIP_BUILD) buildServer();
  const sheet = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-sheet-')), 'devices.xlsx');
  console.log(`xlsx import/export bench: ${ROWS} rows into ${BASE_DEVICES} devices in ${COMPANIES} companies; ${machine()}`);
  await writeSheet(sheet);
  let failed = false;
  for (const kind of DBS) {
    const res = await withBenchDatabase(kind, { tmpPrefix: 'bench-import-', pgPrefix: 'bench_import' }, async (where) => {
      const args = [where.dataDir, where.databaseUrl ?? ''];
      const self = fileURLToPath(import.meta.url);
      // Seeding in a child of its own: a big parent would hand its peak RSS down to the measured child.
      if (BASE_DEVICES > 0) {
        const seeded = spawnSync(process.execPath, [self, '--seed', kind, ...args], { cwd: ROOT, stdio: 'inherit' });
        if (seeded.status !== 0) throw new Error(`seeding ${kind} failed`);
      }
      return spawnSync(process.execPath, [...nodeFlags, self, '--run', kind, sheet, ...args], { cwd: ROOT, encoding: 'utf8' });
    });
    const line = res.stdout.split('\n').find((l) => l.startsWith('{'));
    if (res.status !== 0 || !line) {
      console.error(`✗ import/export on ${kind}: ${res.stderr || res.stdout}`);
      failed = true;
      continue;
    }
    const r = JSON.parse(line);
    const ok = (good) => (good ? '✓' : '✗');
    // The memory target is the import's: on PGlite the embedded engine's own heap is there before it starts.
    const importGood =
      r.importMs / 1000 < TARGET_IMPORT_S && (kind === 'pglite' ? r.peakImportMB - r.rssBeforeMB : r.peakImportMB) < TARGET_IMPORT_MB;
    const exportGood = r.exportMs / 1000 < TARGET_EXPORT_S;
    failed ||= !importGood || !exportGood;
    console.log(
      `${ok(importGood)} ${kind}: import ${r.rows} rows (into ${BASE_DEVICES} devices) ${(r.importMs / 1000).toFixed(2)} s (target < ${TARGET_IMPORT_S} s), ` +
        `peak RSS ${r.peakImportMB.toFixed(0)} MB, of which the import added ${(r.peakImportMB - r.rssBeforeMB).toFixed(0)} MB ` +
        `(target < ${TARGET_IMPORT_MB} MB; PGlite's engine lives in the server process)`,
    );
    console.log(`  ${kind}: import's highest samples (MB): ${JSON.stringify(r.importTopMB)}`);
    console.log(`${ok(exportGood)} ${kind}: export ${r.rows} rows ${(r.exportMs / 1000).toFixed(2)} s (target < ${TARGET_EXPORT_S} s)`);
  }
  fs.rmSync(path.dirname(sheet), { recursive: true, force: true });
  if (failed) process.exitCode = 1;
};

if (process.argv[2] === '--seed') await seedBase(process.argv[4], process.argv[5] || undefined);
else if (process.argv[2] === '--run') await runOne(process.argv[3], process.argv[4], process.argv[5], process.argv[6] || undefined);
else await main();
