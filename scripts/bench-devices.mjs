// Device-list benchmark (`node scripts/bench-devices.mjs`, or `npm run bench` with BENCH_SUITE=devices|all):
// for PGlite and PostgreSQL, seeds BENCH_DEVICES devices (1,000,000) in BENCH_COMPANIES companies (1,000) with
// generate_series, starts the built server and times `v2/iot/web/uid/reg/list` one call after another
// (latency, not throughput) at page 1 and at page 50,000 (page_size 10) as a company administrator and as the
// super administrator; times the list's count query and a naive OFFSET for comparison on the database itself.
//
// Knobs: BENCH_DEVICES (1000000), BENCH_COMPANIES (1000), BENCH_SAMPLES (200), BENCH_DB=pglite|postgres|both,
// BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres), BENCH_KEEP=1 (keep the seeded database).
import { sql } from 'kysely';
import {
  ADMIN_PASSWORD,
  buildServer,
  countOf,
  createScopedAdmin,
  intEnv,
  log,
  login,
  machine,
  mark,
  ms,
  openSeededDatabase,
  rootCompany,
  runEachDatabase,
  seedDevices,
  startServer,
  timeCalls,
  timeSql,
  withBenchDatabase,
} from './bench-lib.mjs';

const DEVICES = intEnv('BENCH_DEVICES', 1_000_000);
const COMPANIES = intEnv('BENCH_COMPANIES', 1000);
const SAMPLES = intEnv('BENCH_SAMPLES', 200);
const DEEP_PAGE = 50_000;
const COMP_ADMIN_ID = 'bench_dev_admin';
const COMP_ADMIN_PASSWORD = 'Bench#Dev1';
const BATCH = 100_000;
// Targets (issue 3): list p99 < 50 ms at page 1 and page 50,000; the count < 10 ms.
const TARGET_LIST_P99 = 50;
const TARGET_COUNT_MS = 10;

/** Companies, one product, a company administrator, then the devices and their state rows in large batches. */
const seed = async ({ databaseUrl, pgliteDir }) => {
  const started = performance.now();
  const database = await openSeededDatabase({ databaseUrl, pgliteDir });
  const db = database.db;
  try {
    const root = await rootCompany(db);
    const now = Math.floor(Date.now() / 1000);
    const compIds = await seedDevices(db, {
      root,
      devices: DEVICES,
      companies: COMPANIES,
      now,
      name: 'Device bench',
      short: 'D',
      key: 'devbench-',
      batch: BATCH,
    });
    const compId = compIds[Math.floor(COMPANIES / 2)];
    await createScopedAdmin(db, {
      name: 'Device bench admin',
      compId,
      menuKeys: ['product', 'product/device'],
      userId: COMP_ADMIN_ID,
      password: COMP_ADMIN_PASSWORD,
      now,
    });
    const n = (q) => countOf(db, q);
    const expectAll = await n(sql`select count(*)::int as n from device`);
    const expectCompany = await n(sql`select count(*)::int as n from device where comp_id = ${compId}::int`);
    const dkAll = await n(sql`select sum(dk)::int as n from company`);
    if (dkAll !== expectAll) throw new Error(`company.dk sums to ${dkAll}, devices ${expectAll}`);
    log(`seeded ${expectAll} devices in ${COMPANIES} companies in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    // On the database itself: the count the list runs for an unfiltered scope, and a naive OFFSET for comparison.
    const countAll = await timeSql(db, sql`select coalesce(sum(c.dk), 0) as n from company c`, SAMPLES);
    const countCompany = await timeSql(
      db,
      sql`select coalesce(sum(c.dk), 0) as n from company c where c.comp_id = ${compId}::int`,
      SAMPLES,
    );
    const countStar = await timeSql(db, sql`select count(*) from device`, 5);
    const naive = await timeSql(db, sql`select id from device order by id desc offset ${(DEEP_PAGE - 1) * 10}::int limit 10`, 5);
    const plan =
      await sql`explain analyze select d.id from device d where d.id < ${8 * 65536}::bigint order by d.id desc offset 40000 limit 10`.execute(
        db,
      );
    return {
      expectAll,
      expectCompany,
      countAll,
      countCompany,
      countStar,
      naive,
      plan: plan.rows.map((r) => r['QUERY PLAN']).join('\n'),
    };
  } finally {
    await database.close();
  }
};

/** One call after another: the latency one user sees; 20 warm-up calls first. */
const timeList = async (url, body, token) => {
  const { last, ...timings } = await timeCalls(url, 'v2/iot/web/uid/reg/list', body, token, SAMPLES);
  if (last.code !== 200) throw new Error(`list: ${last.code} ${last.msg}`);
  return { ...timings, count: last.count, rows: last.data.length };
};

const runDatabase = (kind) =>
  withBenchDatabase(kind, { tmpPrefix: 'iot-bench-dev-', pgPrefix: 'iot_bench_dev' }, async ({ dataDir, databaseUrl, pgliteDir }) => {
    const seeded = await seed({ databaseUrl, pgliteDir });
    const server = await startServer({ databaseUrl, dataDir, unset: ['MQTT_URL'] });
    try {
      const adminToken = await login(server.url, 'admin', ADMIN_PASSWORD);
      const compToken = await login(server.url, COMP_ADMIN_ID, COMP_ADMIN_PASSWORD);
      const calls = [];
      for (const [who, token, expected] of [
        ['company admin', compToken, seeded.expectCompany],
        ['super admin', adminToken, seeded.expectAll],
      ]) {
        for (const pageNo of [1, DEEP_PAGE]) {
          const r = await timeList(server.url, { page_no: pageNo, page_size: 10 }, token);
          if (r.count !== expected) throw new Error(`${who} count ${r.count}, expected ${expected}`);
          calls.push({ what: `list page ${pageNo}, ${who} (count ${expected})`, ...r });
        }
      }
      // A filtered list (online devices, counted row by row) for comparison: not a target.
      calls.push({
        what: 'list page 1 online=1, super admin (filtered count)',
        ...(await timeList(server.url, { page_no: 1, page_size: 10, online: 1 }, adminToken)),
      });
      return { kind, seeded, calls };
    } finally {
      await server.stop();
    }
  });

const print = (r) => {
  console.log(`\n${r.kind}: ${r.seeded.expectAll} devices`);
  console.log('| call | p50 ms | p99 ms | target |');
  console.log('|---|---:|---:|---|');
  for (const c of r.calls) {
    const target = c.what.includes('filtered') ? '—' : `p99 < ${TARGET_LIST_P99} ${mark(c.p99 < TARGET_LIST_P99)}`;
    console.log(`| ${c.what} | ${ms(c.p50)} | ${ms(c.p99)} | ${target} |`);
  }
  const s = r.seeded;
  console.log(
    `| count query, all companies (sum of dk) | ${ms(s.countAll.p50)} | ${ms(s.countAll.p99)} | < ${TARGET_COUNT_MS} ${mark(s.countAll.p99 < TARGET_COUNT_MS)} |`,
  );
  console.log(
    `| count query, one company | ${ms(s.countCompany.p50)} | ${ms(s.countCompany.p99)} | < ${TARGET_COUNT_MS} ${mark(s.countCompany.p99 < TARGET_COUNT_MS)} |`,
  );
  console.log(`| for comparison: count(*) from device | ${ms(s.countStar.p50)} | ${ms(s.countStar.p99)} | — |`);
  console.log(`| for comparison: naive OFFSET ${(DEEP_PAGE - 1) * 10} | ${ms(s.naive.p50)} | ${ms(s.naive.p99)} | — |`);
  console.log(`\nwithin-block walk (EXPLAIN ANALYZE):\n${s.plan}`);
};

const main = async () => {
  console.log(`device-list bench: ${DEVICES} devices in ${COMPANIES} companies, ${SAMPLES} sequential calls each; ${machine()}`);
  if (process.env.BENCH_SKIP_BUILD !== '1') buildServer();
  await runEachDatabase(runDatabase, print);
};

await main();
