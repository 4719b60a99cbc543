// Log-list benchmark (`node scripts/bench-alarms.mjs`, or `npm run bench` with BENCH_SUITE=alarms|all): for
// PGlite and PostgreSQL and each log of BENCH_LOGS (alarm,device), seeds BENCH_ALARMS rows (1,000,000) over
// BENCH_DAYS days (90) for devices of BENCH_COMPANIES companies (1,000) with generate_series (the statement-level
// triggers keep `log_day`), starts the built server and times its list (`v2/umh/admin/alarmlog/list`,
// `v2/iot/admin/log/list`) one call after another (latency, with its count) at page 1
// and at a deep page (page 50,000 at 10 rows: offset 499,990) as the super administrator, page 1 and the last
// page of a company administrator (company-tree scope, ~1,000 rows), a keyset page (after_ts/after_id), a
// type- (level-) filtered deep page and a page with a time range cut inside days; and, on the database itself, a
// naive OFFSET and count(*) for comparison.
//
// Knobs: BENCH_LOGS (alarm,device), BENCH_ALARMS (1000000), BENCH_DAYS (90), BENCH_COMPANIES (1000),
// BENCH_SAMPLES (200), BENCH_DB=pglite|postgres|both, BENCH_DATABASE_URL, BENCH_KEEP=1.
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
  seedTopCompanies,
  startServer,
  timeCalls,
  timeSql,
  withBenchDatabase,
} from './bench-lib.mjs';

const ALARMS = intEnv('BENCH_ALARMS', 1_000_000);
const DAYS = intEnv('BENCH_DAYS', 90);
const COMPANIES = intEnv('BENCH_COMPANIES', 1000);
const SAMPLES = intEnv('BENCH_SAMPLES', 200);
const DEEP_PAGE = 50_000;
const BATCH = 100_000;
const COMP_ADMIN_ID = 'bench_alarm_admin';
const COMP_ADMIN_PASSWORD = 'Bench#Alarm1';
// Target (issue 8): p99 < 50 ms at page 1 and at a deep page.
const TARGET_P99 = 50;

/** The logs the bench can fill and list: their table, `log_day` number, list path, menu and kind filter. */
const LOGS = {
  alarm: {
    table: 'alarm_log',
    log: 1,
    path: 'v2/umh/admin/alarmlog/list',
    menu: 'applist/alarm',
    filter: { name: 'alarm_type=3', body: { alarm_type: 3 } },
    columns: 'a.id, a.uid, a.pk, a.comp_id, c.comp_name, a.alarm_type, a.text, a.ts',
    insert: (lo, hi, start, span) => sql`
        insert into alarm_log (device_id, uid, pk, comp_id, alarm_type, text, ts)
        select g % 100000 + 1, 'ALARM-' || lpad((g % 100000)::text, 6, '0'), 'BENCHPK', c.comp_id, 1 + (g % 7), 'bench alarm',
          ${start}::bigint + (g::bigint * ${span}::bigint) / ${ALARMS}::bigint
        from generate_series(${lo}::int, ${hi}::int) g
        join bench_alarm_comp c on c.idx = g % ${COMPANIES}::int`,
  },
  device: {
    table: 'device_log',
    log: 2,
    path: 'v2/iot/admin/log/list',
    menu: 'applist/log_list',
    filter: { name: 'level=3', body: { level: 3 } },
    columns: 'a.id, a.uid, a.comp_id, c.comp_name, a.level, a.text, a.ts',
    insert: (lo, hi, start, span) => sql`
        insert into device_log (device_id, uid, comp_id, level, text, ts)
        select g % 100000 + 1, 'DEVLOG-' || lpad((g % 100000)::text, 6, '0'), c.comp_id, 1 + (g % 4), 'bench device log line',
          ${start}::bigint + (g::bigint * ${span}::bigint) / ${ALARMS}::bigint
        from generate_series(${lo}::int, ${hi}::int) g
        join bench_alarm_comp c on c.idx = g % ${COMPANIES}::int`,
  },
};
const SELECTED = (process.env.BENCH_LOGS ?? 'alarm,device').split(',').map((name) => {
  const spec = LOGS[name.trim()];
  if (!spec) throw new Error(`BENCH_LOGS: unknown log ${name} (alarm, device)`);
  return { name: name.trim(), ...spec };
});

/** Companies, a company administrator, then the log's rows (round-robin over the companies, spread over DAYS days). */
const seed = async ({ databaseUrl, pgliteDir }, L) => {
  const started = performance.now();
  const database = await openSeededDatabase({ databaseUrl, pgliteDir });
  const db = database.db;
  try {
    const root = await rootCompany(db);
    const now = Math.floor(Date.now() / 1000);
    await seedTopCompanies(db, { root, to: COMPANIES, name: 'Alarm bench', short: 'AL', key: 'alarmbench-', now });
    await sql`
      create table bench_alarm_comp as
      select comp_id, (row_number() over (order by comp_id) - 1)::int as idx
      from company where comp_key like 'alarmbench-%'`.execute(db);
    const span = DAYS * 86_400;
    const start = now - span;
    for (let lo = 0; lo < ALARMS; lo += BATCH) {
      const hi = Math.min(ALARMS, lo + BATCH) - 1;
      // One statement per batch: the triggers fold it into log_day. Times ascend with g (as alarms arrive).
      await L.insert(lo, hi, start, span).execute(db);
    }
    await sql`drop table bench_alarm_comp`.execute(db);
    const compId = Number(
      (await sql`select comp_id from company where comp_key = ${`alarmbench-${Math.floor(COMPANIES / 2)}`}`.execute(db)).rows[0].comp_id,
    );
    await createScopedAdmin(db, {
      name: 'Alarm bench admin',
      compId,
      menuKeys: ['applist', L.menu],
      userId: COMP_ADMIN_ID,
      password: COMP_ADMIN_PASSWORD,
      now,
    });
    const n = (q) => countOf(db, q);
    const table = sql.table(L.table);
    const expectAll = await n(sql`select count(*)::int as n from ${table}`);
    const expectCompany = await n(sql`select count(*)::int as n from ${table} where comp_id = ${compId}::int`);
    const counted = await n(sql`select coalesce(sum(n), 0)::int as n from log_day where log = ${L.log}::int and part = 0 and k = 0`);
    if (counted !== expectAll) throw new Error(`log_day counts ${counted}, rows ${expectAll}`);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    log(`seeded ${expectAll} rows of ${L.table} over ${DAYS} days in ${COMPANIES} companies in ${seconds} s`);
    // The list's own SQL for the super administrator (its count, then page 1 / the deep page as the server runs
    // them), timed on the database in the same run: what the machine allows beside the whole call.
    const counters = sql`select day, sum(n)::bigint as n from log_day where log = ${L.log}::int and part = 0 and k = 0 group by day having sum(n) > 0 order by day desc`;
    const page = (upper, skip) => sql`
      select ${sql.raw(L.columns)} from ${table} a left join company c on c.comp_id = a.comp_id
      where a.id in (select id from ${table} where ${upper} order by ts desc, id desc offset ${skip}::int limit 10)
      order by a.ts desc, a.id desc`;
    const days = (await counters.execute(db)).rows.map((r) => ({ day: Number(r.day), n: Number(r.n) }));
    let before = 0;
    let deepDay = days[0];
    for (const d of days) {
      if (before + d.n > (DEEP_PAGE - 1) * 10) {
        deepDay = d;
        break;
      }
      before += d.n;
    }
    const ownSql = {
      count: await timeSql(db, counters, SAMPLES),
      page1: await timeSql(db, page(sql`true`, 0), SAMPLES),
      deep: await timeSql(db, page(sql`ts < ${(deepDay.day + 1) * 86_400}::bigint`, (DEEP_PAGE - 1) * 10 - before), SAMPLES),
    };
    const countStar = await timeSql(db, sql`select count(*) from ${table}`, 5);
    const naive = await timeSql(db, sql`select id from ${table} order by ts desc, id desc offset ${(DEEP_PAGE - 1) * 10}::int limit 10`, 5);
    return { expectAll, expectCompany, countStar, naive, start, seconds, ownSql };
  } finally {
    await database.close();
  }
};

const timeList = async (url, path, body, token) => {
  const { last, ...timings } = await timeCalls(url, path, body, token, SAMPLES);
  if (last.code !== 200) throw new Error(`list: ${last.code} ${last.msg}`);
  return { ...timings, count: last.count, rows: last.data.length, last: last.data };
};

const runLog = (kind, L) =>
  withBenchDatabase(kind, { tmpPrefix: 'iot-bench-alarm-', pgPrefix: 'iot_bench_alarm' }, async ({ dataDir, databaseUrl, pgliteDir }) => {
    const seeded = await seed({ databaseUrl, pgliteDir }, L);
    const server = await startServer({ databaseUrl, dataDir, unset: ['MQTT_URL'] });
    try {
      const admin = await login(server.url, 'admin', ADMIN_PASSWORD);
      const comp = await login(server.url, COMP_ADMIN_ID, COMP_ADMIN_PASSWORD);
      const calls = [];
      const add = async (what, body, token, expectCount, target = true) => {
        const r = await timeList(server.url, L.path, body, token);
        if (expectCount !== undefined && r.count !== expectCount) throw new Error(`${what}: count ${r.count}, expected ${expectCount}`);
        calls.push({ what, target, ...r });
        return r;
      };
      await add('page 1, super admin', { page_no: 1, page_size: 10 }, admin, seeded.expectAll);
      const deep = await add(`page ${DEEP_PAGE}, super admin`, { page_no: DEEP_PAGE, page_size: 10 }, admin, seeded.expectAll);
      if (deep.rows !== 10) throw new Error(`deep page: ${deep.rows} rows`);
      const lastRow = deep.last.at(-1);
      await add(
        'keyset after the deep page, super admin',
        { after_ts: lastRow.ts, after_id: lastRow.id, page_size: 10 },
        admin,
        seeded.expectAll,
      );
      await add('page 1, company admin', { page_no: 1, page_size: 10 }, comp, seeded.expectCompany);
      await add(
        `last page (${Math.ceil(seeded.expectCompany / 10)}), company admin`,
        { page_no: Math.ceil(seeded.expectCompany / 10), page_size: 10 },
        comp,
        seeded.expectCompany,
      );
      await add(`page 10,000 with ${L.filter.name}, super admin`, { page_no: 10_000, page_size: 10, ...L.filter.body }, admin);
      // A range cut inside days: the edge days are counted row by row.
      const from = seeded.start + 10 * 86_400 + 3_600;
      await add(
        'page 1, 30-day range cut inside days, super admin',
        { page_no: 1, page_size: 10, gmt_start: from, gmt_end: from + 30 * 86_400 },
        admin,
      );
      return { kind, log: L, seeded, calls };
    } finally {
      await server.stop();
    }
  });

/** Each selected log, one after the other, on one kind of database (a fresh database each). */
const runDatabase = async (kind) => {
  const results = [];
  for (const L of SELECTED) results.push(await runLog(kind, L));
  return results;
};

const printLog = (r) => {
  console.log(
    `\n${r.kind}, ${r.log.path}: ${r.seeded.expectAll} rows of ${r.log.table} over ${DAYS} days (seeded in ${r.seeded.seconds} s)`,
  );
  console.log('| call | p50 ms | p99 ms | count | target |');
  console.log('|---|---:|---:|---:|---|');
  for (const c of r.calls) {
    console.log(
      `| ${c.what} | ${ms(c.p50)} | ${ms(c.p99)} | ${c.count} | ${c.target ? `p99 < ${TARGET_P99} ${mark(c.p99 < TARGET_P99)}` : '—'} |`,
    );
  }
  const s = r.seeded;
  const own = s.ownSql;
  console.log(`| the list's own SQL on the database: the count (log_day) | ${ms(own.count.p50)} | ${ms(own.count.p99)} | | — |`);
  console.log(`| the list's own SQL on the database: page 1 | ${ms(own.page1.p50)} | ${ms(own.page1.p99)} | | — |`);
  console.log(`| the list's own SQL on the database: page ${DEEP_PAGE} | ${ms(own.deep.p50)} | ${ms(own.deep.p99)} | | — |`);
  console.log(`| for comparison: count(*) from ${r.log.table} (on the database) | ${ms(s.countStar.p50)} | ${ms(s.countStar.p99)} | | — |`);
  console.log(`| for comparison: naive OFFSET ${(DEEP_PAGE - 1) * 10} (on the database) | ${ms(s.naive.p50)} | ${ms(s.naive.p99)} | | — |`);
};

const main = async () => {
  console.log(
    `log-list bench (${SELECTED.map((L) => L.name).join(', ')}): ${ALARMS} rows each over ${DAYS} days in ${COMPANIES} companies, ${SAMPLES} sequential calls each; ${machine()}`,
  );
  if (process.env.BENCH_SKIP_BUILD !== '1') buildServer();
  await runEachDatabase(runDatabase, (results) => {
    for (const r of results) printLog(r);
  });
};

await main();
