// Device-statistics benchmark (`node scripts/bench-stats.mjs`): for PGlite and PostgreSQL, seeds
// BENCH_DEVICES devices (1,000,000) with generate_series across BENCH_COMPANIES companies (1,000: ten
// top-level companies with the rest below them) and 30 products, registered over the last year, with
// state rows (a third online, half activated, countries), then starts the built server and times
// `v2/iot/dev/statistics/get` one call after another (p50/p99) for the last 30 days and for 366 days,
// as the super administrator and as the administrator of one top-level company (a tenth of the devices).
// For comparison it times the per-day GROUP BY on `device` the rollups replace, the online sampler and a
// full rebuild of the rollups. Own seeding: bench-devices.mjs exports none and seeds one product over days.
//
// Knobs: BENCH_DEVICES (1000000), BENCH_COMPANIES (1000), BENCH_SAMPLES (200), BENCH_DB=pglite|postgres|both,
// BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres), BENCH_KEEP=1, BENCH_SKIP_BUILD=1.
import { sql } from 'kysely';
import {
  ADMIN_PASSWORD,
  buildServer,
  countOf,
  createScopedAdmin,
  dist,
  intEnv,
  log,
  login,
  machine,
  mark,
  ms,
  openSeededDatabase,
  rootCompany,
  runEachDatabase,
  seedTopCompanies,
  startServer,
  timeCalls,
  timeSql,
  withBenchDatabase,
} from './bench-lib.mjs';

const DEVICES = intEnv('BENCH_DEVICES', 1_000_000);
const COMPANIES = intEnv('BENCH_COMPANIES', 1000);
const PRODUCTS = 30;
const TOPS = 10;
const SAMPLES = intEnv('BENCH_SAMPLES', 200);
const COMP_ADMIN_ID = 'bench_stats_admin';
const COMP_ADMIN_PASSWORD = 'Bench#Stats1';
const BATCH = 100_000;
const YEAR = 365 * 86_400;
// Target (issue 3): the statistics page's call under 50 ms with 1,000,000 devices.
const TARGET_P99 = 50;

/** Companies (10 top-level, the rest below them), 30 products, devices and state rows, then the rollups. */
const seed = async ({ databaseUrl, pgliteDir }) => {
  const started = performance.now();
  const database = await openSeededDatabase({ databaseUrl, pgliteDir });
  const db = database.db;
  try {
    const root = await rootCompany(db);
    const now = Math.floor(Date.now() / 1000);
    await seedTopCompanies(db, { root, to: TOPS, name: 'Stats bench', short: 'S', key: 'statsbench-', now });
    await sql`create table bench_top as select comp_id, comp_path, (row_number() over (order by comp_id) - 1)::int as idx
      from company where comp_parent_id = ${root.comp_id}::int and comp_key like 'statsbench-%'`.execute(db);
    await sql`
      insert into company (comp_name, comp_short_name, comp_key, comp_type, comp_parent_id, comp_top_id, comp_path, gmt_create, gmt_update)
      select 'Stats bench ' || g, 'S' || g, 'statsbench-' || g, 3, t.comp_id, t.comp_id, '', ${now}::bigint, ${now}::bigint
      from generate_series(${TOPS + 1}::int, ${COMPANIES}::int) g join bench_top t on t.idx = g % ${TOPS}::int`.execute(db);
    await sql`update company c set comp_path = t.comp_path || c.comp_id || '/' from bench_top t
      where c.comp_parent_id = t.comp_id and c.comp_path = ''`.execute(db);
    await sql`
      insert into product (pk, name, comp_id, create_time, update_time)
      select 'BSTAT' || lpad(g::text, 2, '0'), 'Bench product ' || g, ${root.comp_id}::int, ${now}::bigint, ${now}::bigint
      from generate_series(0, ${PRODUCTS - 1}::int) g`.execute(db);
    await sql`create table bench_comp as select comp_id, (row_number() over (order by comp_id) - 1)::int as idx
      from company where comp_key like 'statsbench-%'`.execute(db);
    // Devices round-robin over companies, products varying across them, registered evenly over the last year.
    for (let lo = 0; lo < DEVICES; lo += BATCH) {
      const hi = Math.min(DEVICES, lo + BATCH) - 1;
      await sql`
        insert into device (uid, mac, pk, comp_id, dev_key, gmt_create, gmt_update)
        select 'BSTAT-' || lpad(g::text, 8, '0'), '', 'BSTAT' || lpad(((g / ${COMPANIES}::int) % ${PRODUCTS}::int)::text, 2, '0'),
               b.comp_id, md5(g::text), ${now - YEAR}::bigint + (g::bigint * ${YEAR}::bigint / ${DEVICES}::bigint),
               ${now - YEAR}::bigint + (g::bigint * ${YEAR}::bigint / ${DEVICES}::bigint)
        from generate_series(${lo}::int, ${hi}::int) g join bench_comp b on b.idx = g % ${COMPANIES}::int
        order by g`.execute(db);
    }
    log(`devices in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    // State rows without their per-row statistics triggers (a bulk load), then the rollups rebuilt from the tables.
    await db.transaction().execute(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx);
      await sql`
        insert into device_state (device_id, online, active, gmt_active, country, last_online, offline_reason)
        select id, (id % 3 = 0)::int, (id % 2 = 0)::int, case when id % 2 = 0 then gmt_create + 3600 end,
          (array['CN','US','IN','DE','BR','JP','GB','FR','ID','RU','MX','IT','KR','ES','TR','VN','TH','PL','NL','SA'])[1 + (id * 7 % 97) % 20],
          case when id % 2 = 0 then gmt_create end, 0
        from device`.execute(trx);
    });
    const rebuildStart = performance.now();
    await sql`select device_stats_rebuild()`.execute(db);
    const rebuildMs = performance.now() - rebuildStart;
    // The server's sampler (chunked statements), and the one-statement SQL function of 0009 for comparison.
    const { sampleOnlineDevices } = await dist('modules/iot/stats.repository.js');
    const statements = [];
    const sampleStart = performance.now();
    await sampleOnlineDevices(db, now, (took) => statements.push(took));
    const sampleMs = performance.now() - sampleStart;
    const sampleMaxStatementMs = Math.max(...statements);
    const oneStart = performance.now();
    await sql`select device_online_sample(${now}::bigint)`.execute(db);
    const sampleOneStatementMs = performance.now() - oneStart;
    const top = await sql`select comp_id from bench_top where idx = 0`.execute(db);
    const compId = top.rows[0].comp_id;
    await sql`drop table bench_comp`.execute(db);
    await sql`drop table bench_top`.execute(db);
    await createScopedAdmin(db, {
      name: 'Stats bench admin',
      compId,
      menuKeys: ['info', 'info/dev'],
      userId: COMP_ADMIN_ID,
      password: COMP_ADMIN_PASSWORD,
      now,
    });
    const n = (q) => countOf(db, q);
    const expectAll = await n(sql`select count(*)::int as n from device`);
    const expectTree = await n(sql`select count(*)::int as n from device d join company c on c.comp_id = d.comp_id
      where c.comp_path like (select comp_path from company where comp_id = ${compId}::int) || '%'`);
    const rollupRows = await n(sql`select count(*)::int as n from device_daily`);
    log(
      `seeded ${expectAll} devices in ${COMPANIES} companies, ${rollupRows} device_daily rows, in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const groupByDay = await timeSql(
      db,
      sql`select (gmt_create / 86400)::int as day, count(*) from device where gmt_create >= ${now - 30 * 86400}::bigint group by 1`,
      5,
    );
    const groupByDayYear = await timeSql(db, sql`select (gmt_create / 86400)::int as day, count(*) from device group by 1`, 3);
    const monthlyRows = await n(sql`select count(*)::int as n from device_monthly`);
    return {
      expectAll,
      expectTree,
      rollupRows,
      monthlyRows,
      rebuildMs,
      sampleMs,
      sampleStatements: statements.length,
      sampleMaxStatementMs,
      sampleOneStatementMs,
      groupByDay,
      groupByDayYear,
    };
  } finally {
    await database.close();
  }
};

/** One call after another: the latency one user sees; 20 warm-up calls first. */
const timeStatistics = async (url, body, token) => {
  const { last, ...timings } = await timeCalls(url, 'v2/iot/dev/statistics/get', body, token, SAMPLES);
  if (last.code !== 200) throw new Error(`statistics: ${last.code} ${last.msg}`);
  return { ...timings, devices: last.data.totals.devices };
};

const runDatabase = (kind) =>
  withBenchDatabase(kind, { tmpPrefix: 'iot-bench-stats-', pgPrefix: 'iot_bench_stats' }, async ({ dataDir, databaseUrl, pgliteDir }) => {
    const seeded = await seed({ databaseUrl, pgliteDir });
    // Sampled once while seeding: no sample lands inside the timings.
    const server = await startServer({ databaseUrl, dataDir, unset: ['MQTT_URL'], env: { STATS_SAMPLE_SECONDS: '0' } });
    try {
      const adminToken = await login(server.url, 'admin', ADMIN_PASSWORD);
      const compToken = await login(server.url, COMP_ADMIN_ID, COMP_ADMIN_PASSWORD);
      const today = Math.floor(Date.now() / 1000 / 86400);
      const calls = [];
      for (const [who, token, expected] of [
        ['company admin (a tenth of the devices)', compToken, seeded.expectTree],
        ['super admin', adminToken, seeded.expectAll],
      ]) {
        for (const days of [30, 366]) {
          const body = { gmt_start: (today - days + 1) * 86400, gmt_end: (today + 1) * 86400 };
          const r = await timeStatistics(server.url, body, token);
          if (r.devices !== expected) throw new Error(`${who}: ${r.devices} devices, expected ${expected}`);
          calls.push({ what: `statistics, last ${days} days, ${who}`, days, ...r });
        }
      }
      return { kind, seeded, calls };
    } finally {
      await server.stop();
    }
  });

const print = (r) => {
  const s = r.seeded;
  console.log(`\n${r.kind}: ${s.expectAll} devices, ${s.rollupRows} device_daily rows, ${s.monthlyRows} device_monthly rows`);
  console.log('| call | p50 ms | p99 ms | target |');
  console.log('|---|---:|---:|---|');
  for (const c of r.calls) {
    const target = c.days === 30 ? `p99 < ${TARGET_P99} ${mark(c.p99 < TARGET_P99)}` : '—';
    console.log(`| ${c.what} | ${ms(c.p50)} | ${ms(c.p99)} | ${target} |`);
  }
  console.log(`| for comparison: GROUP BY day on device, 30 days | ${ms(s.groupByDay.p50)} | ${ms(s.groupByDay.p99)} | — |`);
  console.log(`| for comparison: GROUP BY day on device, all | ${ms(s.groupByDayYear.p50)} | ${ms(s.groupByDayYear.p99)} | — |`);
  console.log(
    `| online sample (every STATS_SAMPLE_SECONDS): total, ${s.sampleStatements} statements | ${ms(s.sampleMs)} | longest statement ${ms(s.sampleMaxStatementMs)} | — |`,
  );
  console.log(`| for comparison: device_online_sample() in one statement | ${ms(s.sampleOneStatementMs)} | | — |`);
  console.log(`| full rebuild of the rollups | ${ms(s.rebuildMs)} | | — |`);
};

const main = async () => {
  console.log(
    `statistics bench: ${DEVICES} devices in ${COMPANIES} companies, ${PRODUCTS} products, ${SAMPLES} sequential calls each; ${machine()}`,
  );
  if (process.env.BENCH_SKIP_BUILD !== '1') buildServer();
  await runEachDatabase(runDatabase, print);
};

await main();
