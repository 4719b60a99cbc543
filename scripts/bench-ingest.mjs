// Ingestion benchmark: device state events per second through `POST /api/v2/iot/ingest/events`
// on PGlite and on PostgreSQL. Seeds BENCH_INGEST_DEVICES devices over BENCH_COMPANIES companies (one
// product, with their state rows; seedDevices of bench-lib.mjs), starts the built server in this process (no request logs), then
// BENCH_INGEST_CONCURRENCY clients post batches of BENCH_INGEST_BATCH events for
// BENCH_INGEST_SECONDS: 90 % heartbeats, the rest online/offline/NAT changes/properties, on
// random devices. Prints events/s per database beside the target (10,000 events/s on PostgreSQL).
//
// Knobs: BENCH_INGEST_DEVICES (1000000), BENCH_COMPANIES (1000), BENCH_INGEST_BATCH (1000), BENCH_INGEST_CONCURRENCY (4),
// BENCH_INGEST_SECONDS (10), BENCH_DB=pglite|postgres|both (both),
// BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres; a random database is made and dropped).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { createPgDatabase, DBS, dist, intEnv, log, rootCompany, seedDevices } from './bench-lib.mjs';
import { run } from './lib.mjs';

const DEVICES = intEnv('BENCH_INGEST_DEVICES', 1_000_000);
const COMPANIES = intEnv('BENCH_COMPANIES', 1000);
const BATCH = intEnv('BENCH_INGEST_BATCH', 1000);
const CONCURRENCY = intEnv('BENCH_INGEST_CONCURRENCY', 4);
const SECONDS = intEnv('BENCH_INGEST_SECONDS', 10);
const TARGET_EVENTS_PER_SECOND = 10_000;
const KEY = crypto.randomBytes(16).toString('hex');

run('npx', ['tsc', '-b', 'apps/server']);
const { buildApp } = await dist('app.js');
const { loadConfig } = await dist('config.js');
const { openDatabase } = await dist('platform/db/database.js');
const { migrateToLatest } = await dist('platform/db/migrations.js');
const { ensureFirstAdmin, seedMenus } = await dist('platform/seed.js');

/** BENCH_INGEST_DEVICES devices (UIDs BENCH00000000…) over BENCH_COMPANIES companies, with their state rows (a third online). */
const seed = async (db) => {
  const root = await rootCompany(db);
  const now = Math.floor(Date.now() / 1000);
  await seedDevices(db, {
    root,
    devices: DEVICES,
    companies: COMPANIES,
    now,
    name: 'Ingest bench',
    short: 'G',
    key: 'ingestbench-',
    uidPrefix: 'BENCH',
  });
  await sql`analyze`.execute(db);
};

const uidOf = (n) => `BENCH${String(n).padStart(8, '0')}`;
const batchOf = () => {
  const events = [];
  for (let i = 0; i < BATCH; i++) {
    const uid = uidOf(Math.floor(Math.random() * DEVICES));
    const r = Math.random();
    if (r < 0.9) events.push({ uid, type: 'heartbeat' });
    else if (r < 0.94) events.push({ uid, type: 'online', network_type: 1 + Math.floor(Math.random() * 5), vendor: 'bench' });
    else if (r < 0.96) events.push({ uid, type: 'offline' });
    else if (r < 0.98) events.push({ uid, type: 'network', network_type: Math.floor(Math.random() * 6) });
    else events.push({ uid, type: 'properties', properties: { rssi: -Math.floor(Math.random() * 90) } });
  }
  return JSON.stringify({ events });
};

const load = async (url) => {
  const bodies = Array.from({ length: 20 }, batchOf);
  let events = 0;
  let errors = 0;
  const latencies = [];
  const until = Date.now() + SECONDS * 1000;
  const client = async (k) => {
    let j = k;
    while (Date.now() < until) {
      const started = performance.now();
      const res = await fetch(`${url}/api/v2/iot/ingest/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-key': KEY },
        body: bodies[j++ % bodies.length],
      });
      const answer = await res.json();
      latencies.push(performance.now() - started);
      if (answer.code === 200) events += answer.data.accepted;
      else errors++;
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, k) => client(k)));
  const seconds = (Date.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((latencies.length * p) / 100))] ?? 0;
  return { perSecond: events / seconds, errors, batches: latencies.length, p50: pct(50), p99: pct(99) };
};

const benchOne = async (kind) => {
  let database;
  let cleanup = async () => {};
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'iot-bench-ingest-'));
  if (kind === 'postgres') {
    const created = await createPgDatabase('iot_bench_ingest', { hexBytes: 4 });
    database = await openDatabase({ databaseUrl: created.databaseUrl });
    cleanup = async () => {
      await new Promise((r) => setTimeout(r, 500));
      await created.drop();
    };
  } else {
    database = await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
  }
  try {
    await migrateToLatest(database.db);
    await seedMenus(database.db);
    const config = { ...loadConfig({}), dataDir, webDir: undefined, ingestServiceKey: KEY, secretKey: 'bench', logLevel: 'warn' };
    const app = await buildApp({ config, database, logger: false });
    await ensureFirstAdmin(database.db, 'Bench#Admin1', app.log); // the root company
    log(`${kind}: seeding ${DEVICES.toLocaleString('en')} devices`);
    await seed(database.db);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${app.server.address().port}`;
    try {
      const warm = SECONDS;
      log(`${kind}: ${CONCURRENCY} clients × batches of ${BATCH} for ${warm} s`);
      const result = await load(url);
      const history = await sql`select count(*)::int as n from device_event`.execute(database.db);
      return { kind, ...result, history: history.rows[0].n };
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
    await cleanup();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
};

const results = [];
for (const kind of DBS) {
  const r = await benchOne(kind);
  log(`${kind}: ${Math.round(r.perSecond)} events/s`);
  results.push(r);
}
console.log('');
console.log(
  `Ingestion: ${DEVICES.toLocaleString('en')} devices in ${COMPANIES.toLocaleString('en')} companies, batches of ${BATCH}, ${CONCURRENCY} concurrent clients, ${SECONDS} s`,
);
for (const r of results) {
  const target =
    r.kind === 'postgres'
      ? ` (target ${TARGET_EVENTS_PER_SECOND.toLocaleString('en')}: ${r.perSecond >= TARGET_EVENTS_PER_SECOND ? 'met' : 'NOT met'})`
      : '';
  console.log(
    `  ${r.kind.padEnd(8)} ${Math.round(r.perSecond).toLocaleString('en').padStart(8)} events/s${target}; ` +
      `batch p50 ${r.p50.toFixed(0)} ms, p99 ${r.p99.toFixed(0)} ms; ${r.batches} batches, ${r.errors} errors; ${r.history.toLocaleString('en')} history rows`,
  );
}
process.exit(0);
