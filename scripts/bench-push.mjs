// Push benchmark (`node scripts/bench-push.mjs`, or `npm run bench` with BENCH_SUITE=push|all), for PGlite and PostgreSQL:
// 1. the push-record list at BENCH_PUSH_RECORDS rows (1,000,000, over 90 days in 1,000 companies, written with
//    generate_series so the triggers keep `log_day`): page 1 and a deep page (page 50,000 at 10 rows) as the super
//    administrator, page 1 and the last page of a company administrator, one call after another (p50, p99);
// 2. the dispatcher: BENCH_PUSH_SENDS (2,000) queued email records sent by the server's own dispatcher job through an
//    SMTP platform to a local SMTP server (smtp-server in this process): sends per second. PostgreSQL: timed from the
//    queueing to the last record marked sent. PGlite (one process: the bench cannot write while the server holds it):
//    queued with the server stopped, timed from the first message received to the last after the server starts.
// Knobs: BENCH_PUSH_RECORDS, BENCH_PUSH_SENDS, BENCH_COMPANIES (1000), BENCH_SAMPLES (200), BENCH_DB, BENCH_DATABASE_URL.
import { sql } from 'kysely';
import { SMTPServer } from 'smtp-server';
import {
  ADMIN_PASSWORD,
  buildServer,
  call,
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
  withBenchDatabase,
} from './bench-lib.mjs';

const RECORDS = intEnv('BENCH_PUSH_RECORDS', 1_000_000);
const SENDS = intEnv('BENCH_PUSH_SENDS', 2_000);
const COMPANIES = intEnv('BENCH_COMPANIES', 1000);
const SAMPLES = intEnv('BENCH_SAMPLES', 200);
const DAYS = 90;
const DEEP_PAGE = 50_000;
const BATCH = 100_000;
const TARGET_P99 = 50;
const PATH = 'v2/push/record/list';
const COMP_ADMIN_ID = 'bench_push_admin';
const COMP_ADMIN_PASSWORD = 'Bench#Push1';

const seed = async ({ databaseUrl, pgliteDir }) => {
  const started = performance.now();
  const database = await openSeededDatabase({ databaseUrl, pgliteDir });
  const db = database.db;
  try {
    const root = await rootCompany(db);
    const now = Math.floor(Date.now() / 1000);
    await seedTopCompanies(db, { root, to: COMPANIES, name: 'Push bench', short: 'PB', key: 'pushbench-', now });
    await sql`
      create table bench_push_comp as
      select comp_id, (row_number() over (order by comp_id) - 1)::int as idx from company where comp_key like 'pushbench-%'`.execute(db);
    const span = DAYS * 86_400;
    const start = now - span - 3_600;
    for (let lo = 0; lo < RECORDS; lo += BATCH) {
      const hi = Math.min(RECORDS, lo + BATCH) - 1;
      await sql`
        insert into push_record (comp_id, channel, recipient, lang, title, state, attempts, source, gmt_create, gmt_send, next_attempt)
        select c.comp_id, 1 + (g % 4), 'user' || g || '@example.com', 'en', 'Bench message', 2, 1, 'bench',
          ${start}::bigint + (g::bigint * ${span}::bigint) / ${RECORDS}::bigint, ${start}::bigint + (g::bigint * ${span}::bigint) / ${RECORDS}::bigint, 0
        from generate_series(${lo}::int, ${hi}::int) g
        join bench_push_comp c on c.idx = g % ${COMPANIES}::int`.execute(db);
    }
    await sql`drop table bench_push_comp`.execute(db);
    const compId = Number(
      (await sql`select comp_id from company where comp_key = ${`pushbench-${Math.floor(COMPANIES / 2)}`}`.execute(db)).rows[0].comp_id,
    );
    await createScopedAdmin(db, {
      name: 'Push bench admin',
      compId,
      menuKeys: ['applist', 'applist/record'],
      userId: COMP_ADMIN_ID,
      password: COMP_ADMIN_PASSWORD,
      now,
    });
    const n = (q) => countOf(db, q);
    const expectAll = await n(sql`select count(*)::int as n from push_record`);
    const expectCompany = await n(sql`select count(*)::int as n from push_record where comp_id = ${compId}::int`);
    log(`seeded ${expectAll} push records in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return { expectAll, expectCompany };
  } finally {
    await database.close();
  }
};

/** A local SMTP server that accepts every message (no login, no TLS) and counts them. */
const startSmtp = async () => {
  let received = 0;
  /** performance.now() of the first and the last message received. */
  let first;
  let last;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => {});
      stream.on('end', () => {
        received++;
        const at = performance.now();
        first ??= at;
        last = at;
        callback();
      });
    },
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.server.address().port,
    received: () => received,
    span: () => (first === undefined ? 0 : (last - first) / 1000),
    close: () => new Promise((r) => server.close(r)),
  };
};

/** SENDS due email records of one platform and a waiting dispatch job (as the dispatcher's own queueing leaves them). */
const queueSends = async (db, platformId, now) => {
  await sql`
    insert into push_record (comp_id, channel, platform_id, recipient, lang, title, body, state, source, gmt_create, next_attempt)
    select 1, 2, ${platformId}::int, 'r' || g || '@example.com', 'zh-CN', '告警：前门', '设备 前门（SIM-000001）于 09:29 发生 移动侦测。', 1, 'bench-send', ${now}, ${now}
    from generate_series(1, ${SENDS}::int) g`.execute(db);
  await sql`insert into job (kind, comp_id, user_id, scope, params, file_name, input_key, gmt_create)
    values ('push_dispatch', 1, 'system', '{"kind":"all"}', '{}', '', '', ${now})`.execute(db);
};

/** Queues SENDS email records for one platform (as the dispatcher's own queueing does), then waits until all are sent. */
const benchDispatch = async ({ url, token, databaseUrl }) => {
  const smtp = await startSmtp();
  try {
    const platform = await call(
      url,
      'v2/push/platform/add',
      { name: 'Bench SMTP', type: 2, platform: 'smtp', smtp_addr: '127.0.0.1', smtp_port: smtp.port, ssl: 0, user_id: 'bench@example.com' },
      token,
    );
    if (platform.code !== 200) throw new Error(`platform add: ${platform.code} ${platform.msg}`);
    const database = await openSeededDatabase({ databaseUrl });
    try {
      const now = Math.floor(Date.now() / 1000);
      const started = performance.now();
      await queueSends(database.db, platform.data.id, now);
      for (;;) {
        const left = Number(
          (await sql`select count(*)::int as n from push_record where source = 'bench-send' and state in (1, 4)`.execute(database.db))
            .rows[0].n,
        );
        if (left === 0) break;
        if (performance.now() - started > 300_000) throw new Error(`dispatch: ${left} records still waiting after 300 s`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const seconds = (performance.now() - started) / 1000;
      const failed = Number(
        (await sql`select count(*)::int as n from push_record where source = 'bench-send' and state = 3`.execute(database.db)).rows[0].n,
      );
      return { sent: SENDS - failed, failed, received: smtp.received(), seconds, perSecond: (SENDS - failed) / seconds };
    } finally {
      await database.close();
    }
  } finally {
    await smtp.close();
  }
};

/**
 * The dispatcher on PGlite, which is one process: with the server stopped, the bench opens the
 * database, adds an SMTP platform and queues the sends, then starts the server again, whose job
 * runner sends them. Timed from the first message the SMTP server receives to the last (the
 * server's start is not counted); the records are then read back through the list.
 */
const benchDispatchPglite = async ({ dataDir, pgliteDir }) => {
  const smtp = await startSmtp();
  try {
    const database = await openSeededDatabase({ pgliteDir });
    try {
      const now = Math.floor(Date.now() / 1000);
      const platform = await sql`
        insert into push_platform (name, type, platform, smtp_addr, smtp_port, ssl, user_id, comp_id, gmt_create, gmt_update)
        values ('Bench SMTP', 2, 'smtp', '127.0.0.1', ${smtp.port}::int, 0, 'bench@example.com', 1, ${now}, ${now})
        returning id`.execute(database.db);
      await queueSends(database.db, platform.rows[0].id, now);
    } finally {
      await database.close();
    }
    const server = await startServer({ dataDir, unset: ['MQTT_URL'] });
    try {
      const started = performance.now();
      while (smtp.received() < SENDS) {
        if (performance.now() - started > 300_000) throw new Error(`dispatch: ${smtp.received()} of ${SENDS} received after 300 s`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const token = await login(server.url, 'admin', ADMIN_PASSWORD);
      const countOfState = async (state) => (await call(server.url, PATH, { source: 'bench-send', state, page_size: 1 }, token)).count;
      let sent = await countOfState(2);
      for (let i = 0; sent < SENDS && i < 50; i++) {
        await new Promise((r) => setTimeout(r, 100));
        sent = await countOfState(2);
      }
      const failed = await countOfState(3);
      const seconds = smtp.span();
      return { sent, failed, received: smtp.received(), seconds, perSecond: (smtp.received() - 1) / seconds, firstToLast: true };
    } finally {
      await server.stop();
    }
  } finally {
    await smtp.close();
  }
};

const runDatabase = (kind) =>
  withBenchDatabase(kind, { tmpPrefix: 'iot-bench-push-', pgPrefix: 'iot_bench_push' }, async ({ dataDir, databaseUrl, pgliteDir }) => {
    const seeded = await seed({ databaseUrl, pgliteDir });
    const server = await startServer({ databaseUrl, dataDir, unset: ['MQTT_URL'] });
    let result;
    try {
      const admin = await login(server.url, 'admin', ADMIN_PASSWORD);
      const comp = await login(server.url, COMP_ADMIN_ID, COMP_ADMIN_PASSWORD);
      const calls = [];
      const add = async (what, body, token, expectCount) => {
        const { last, ...timings } = await timeCalls(server.url, PATH, body, token, SAMPLES);
        if (last.code !== 200) throw new Error(`${what}: ${last.code} ${last.msg}`);
        if (last.count !== expectCount) throw new Error(`${what}: count ${last.count}, expected ${expectCount}`);
        if (last.data.length === 0) throw new Error(`${what}: no rows`);
        calls.push({ what, ...timings, count: last.count });
      };
      await add('page 1, super admin', { page_no: 1, page_size: 10 }, admin, seeded.expectAll);
      await add(`page ${DEEP_PAGE}, super admin`, { page_no: DEEP_PAGE, page_size: 10 }, admin, seeded.expectAll);
      await add('page 1, company admin', { page_no: 1, page_size: 10 }, comp, seeded.expectCompany);
      const last = Math.ceil(seeded.expectCompany / 10);
      await add(`last page (${last}), company admin`, { page_no: last, page_size: 10 }, comp, seeded.expectCompany);
      const dispatch = databaseUrl ? await benchDispatch({ url: server.url, token: admin, databaseUrl }) : null;
      result = { kind, seeded, calls, dispatch };
    } finally {
      await server.stop();
    }
    if (!databaseUrl) result.dispatch = await benchDispatchPglite({ dataDir, pgliteDir });
    return result;
  });

const print = (r) => {
  console.log(`\n${r.kind}: ${r.seeded.expectAll} push records`);
  console.log('| call | p50 ms | p99 ms | count | target |');
  console.log('|---|---:|---:|---:|---|');
  for (const c of r.calls)
    console.log(`| ${c.what} | ${ms(c.p50)} | ${ms(c.p99)} | ${c.count} | p99 < ${TARGET_P99} ${mark(c.p99 < TARGET_P99)} |`);
  console.log(
    `dispatcher: ${r.dispatch.sent} emails sent (${r.dispatch.failed} failed, ${r.dispatch.received} received) in ${r.dispatch.seconds.toFixed(1)} s${r.dispatch.firstToLast ? ' (first to last received)' : ''}: ${r.dispatch.perSecond.toFixed(0)} sends/s`,
  );
};

const main = async () => {
  console.log(`push bench: ${RECORDS} records in ${COMPANIES} companies, ${SAMPLES} sequential calls each, ${SENDS} sends; ${machine()}`);
  if (process.env.BENCH_SKIP_BUILD !== '1') buildServer();
  await runEachDatabase(runDatabase, print);
};

await main();
