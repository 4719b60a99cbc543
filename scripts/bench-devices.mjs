// Device-list benchmark (`node scripts/bench-devices.mjs`, or `npm run bench` with BENCH_SUITE=devices|all):
// for PGlite and PostgreSQL, seeds BENCH_DEVICES devices (1,000,000) in BENCH_COMPANIES companies (1,000) with
// generate_series, starts the built server and times `v2/iot/web/uid/reg/list` one call after another
// (latency, not throughput) at page 1 and at page 50,000 (page_size 10) as a company administrator and as the
// super administrator; times the list's count query and a naive OFFSET for comparison on the database itself.
//
// Knobs: BENCH_DEVICES (1000000), BENCH_COMPANIES (1000), BENCH_SAMPLES (200), BENCH_DB=pglite|postgres|both,
// BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres), BENCH_KEEP=1 (keep the seeded database).
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import { ROOT } from './lib.mjs';

const intEnv = (name, fallback) => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return n;
};

const DEVICES = intEnv('BENCH_DEVICES', 1_000_000);
const COMPANIES = intEnv('BENCH_COMPANIES', 1000);
const SAMPLES = intEnv('BENCH_SAMPLES', 200);
const DEEP_PAGE = 50_000;
const DBS = { pglite: ['pglite'], postgres: ['postgres'], both: ['pglite', 'postgres'] }[process.env.BENCH_DB || 'both'];
if (!DBS) throw new Error('BENCH_DB must be pglite, postgres or both');
const KEEP = process.env.BENCH_KEEP === '1';
const PG_SERVER_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const ADMIN_PASSWORD = 'Bench#Admin1';
const COMP_ADMIN_ID = 'bench_dev_admin';
const COMP_ADMIN_PASSWORD = 'Bench#Dev1';
const BATCH = 100_000;
// Targets (issue 3): list p99 < 50 ms at page 1 and page 50,000; the count < 10 ms.
const TARGET_LIST_P99 = 50;
const TARGET_COUNT_MS = 10;

const log = (msg) => console.log(`› ${msg}`);
const dist = (p) => import(pathToFileURL(path.join(ROOT, 'apps/server/dist', p)).href);
const quietLog = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, fatal() {}, child: () => quietLog };

const buildServer = () => {
  for (const ws of ['packages/contract', 'apps/server']) {
    const res = spawnSync('npm', ['run', 'build', '-w', ws], { cwd: ROOT, stdio: 'inherit' });
    if (res.status !== 0) throw new Error(`npm run build -w ${ws} failed`);
  }
};

/** Companies, one product, a company administrator, then the devices and their state rows in large batches. */
const seed = async ({ databaseUrl, pgliteDir }) => {
  const { openDatabase } = await dist('platform/db/database.js');
  const { migrateToLatest } = await dist('platform/db/migrations.js');
  const { seedMenus, ensureFirstAdmin, encodePassword } = await dist('platform/seed.js');
  const { hashPassword } = await dist('platform/passwords.js');
  const started = performance.now();
  const database = await openDatabase({ databaseUrl, pgliteDir, poolSize: 2 });
  const db = database.db;
  try {
    await migrateToLatest(db);
    await seedMenus(db);
    await ensureFirstAdmin(db, ADMIN_PASSWORD, quietLog);
    const root = await db.selectFrom('company').select(['comp_id', 'comp_path']).where('comp_parent_id', '=', 0).executeTakeFirstOrThrow();
    const now = Math.floor(Date.now() / 1000);
    await sql`
      insert into company (comp_name, comp_short_name, comp_key, comp_type, comp_parent_id, comp_top_id, comp_path, gmt_create, gmt_update)
      select 'Device bench ' || g, 'D' || g, 'devbench-' || g, 3, ${root.comp_id}::int, 0, '', ${now}::bigint, ${now}::bigint
      from generate_series(1, ${COMPANIES}::int) g`.execute(db);
    await sql`
      update company set comp_path = ${root.comp_path}::text || comp_id || '/', comp_top_id = comp_id
      where comp_parent_id = ${root.comp_id}::int and comp_path = ''`.execute(db);
    await sql`
      insert into product (pk, name, comp_id, create_time, update_time)
      values ('BENCHPK', 'Bench camera', ${root.comp_id}::int, ${now}::bigint, ${now}::bigint)`.execute(db);
    await sql`
      create table bench_comp as
      select comp_id, (row_number() over (order by comp_id) - 1)::int as idx from company where comp_parent_id = ${root.comp_id}::int`.execute(
      db,
    );
    // Devices round-robin over the companies (the worst case for per-company counters), registered over time.
    for (let lo = 0; lo < DEVICES; lo += BATCH) {
      const hi = Math.min(DEVICES, lo + BATCH) - 1;
      await sql`
        insert into device (uid, mac, pk, comp_id, dev_key, gmt_create, gmt_update)
        select 'BENCH-' || lpad(g::text, 8, '0'),
               upper(regexp_replace(lpad(to_hex(g), 12, '0'), '(..)(?!$)', '\\1:', 'g')),
               'BENCHPK', b.comp_id, md5(g::text), ${now - DEVICES}::bigint + g, ${now - DEVICES}::bigint + g
        from generate_series(${lo}::int, ${hi}::int) g join bench_comp b on b.idx = g % ${COMPANIES}::int
        order by g`.execute(db);
    }
    await sql`
      insert into device_state (device_id, online, active, network_type, last_online, offline_reason)
      select id, (id % 3 = 0)::int, (id % 2 = 0)::int, (id % 6)::int, case when id % 2 = 0 then gmt_create end, 0 from device`.execute(db);
    const comp = await sql`select comp_id from bench_comp where idx = ${Math.floor(COMPANIES / 2)}::int`.execute(db);
    const compId = comp.rows[0].comp_id;
    await sql`drop table bench_comp`.execute(db);
    const role = await db
      .insertInto('role')
      .values({
        name: 'Device bench admin',
        cn_name: '',
        state: 1,
        type: 2,
        data_scope: 2,
        comp_id: compId,
        gmt_create: now,
        gmt_update: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await sql`insert into role_menu (role_id, menu_id) select ${role.id}::int, menu_id from menu where menu_key in ('product', 'product/device')`.execute(
      db,
    );
    await db
      .insertInto('app_user')
      .values({
        user_id: COMP_ADMIN_ID,
        password_hash: await hashPassword(encodePassword(COMP_ADMIN_ID, COMP_ADMIN_PASSWORD)),
        user_name: 'Device bench admin',
        user_email: '',
        user_phone: '',
        user_phone_area: '+86',
        validity_time: 0,
        remark: '',
        pending_registration: false,
        comp_id: compId,
        state: 1,
        user_type: 2,
        role_id: role.id,
        gmt_create: now,
        gmt_update: now,
      })
      .execute();
    await sql`vacuum analyze`.execute(db);
    const n = async (q) => Number((await q.execute(db)).rows[0].n);
    const expectAll = await n(sql`select count(*)::int as n from device`);
    const expectCompany = await n(sql`select count(*)::int as n from device where comp_id = ${compId}::int`);
    const dkAll = await n(sql`select sum(dk)::int as n from company`);
    if (dkAll !== expectAll) throw new Error(`company.dk sums to ${dkAll}, devices ${expectAll}`);
    log(`seeded ${expectAll} devices in ${COMPANIES} companies in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    // On the database itself: the count the list runs for an unfiltered scope, and a naive OFFSET for comparison.
    const timeSql = async (q, samples) => {
      const times = [];
      for (let i = 0; i < samples; i++) {
        const t0 = performance.now();
        await q.execute(db);
        times.push(performance.now() - t0);
      }
      return stats(times);
    };
    const countAll = await timeSql(sql`select coalesce(sum(c.dk), 0) as n from company c`, SAMPLES);
    const countCompany = await timeSql(sql`select coalesce(sum(c.dk), 0) as n from company c where c.comp_id = ${compId}::int`, SAMPLES);
    const countStar = await timeSql(sql`select count(*) from device`, 5);
    const naive = await timeSql(sql`select id from device order by id desc offset ${(DEEP_PAGE - 1) * 10}::int limit 10`, 5);
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

const stats = (times) => {
  const s = [...times].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { p50: at(0.5), p99: at(0.99), n: s.length };
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

const startServer = async ({ databaseUrl, dataDir }) => {
  const port = await freePort();
  const env = { ...process.env };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  delete env.MQTT_URL;
  Object.assign(env, {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    WEB_DIR: '',
    LOG_LEVEL: 'warn',
    SECRET_KEY: 'bench-secret',
    LOGIN_MAX_FAILURES_ACCOUNT: '1000000',
    LOGIN_MAX_FAILURES_ADDRESS: '1000000',
    NODE_ENV: 'production',
  });
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const child = spawn(process.execPath, [path.join(ROOT, 'apps/server/dist/main.js')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode})`);
    try {
      if ((await fetch(`${url}/api/ready`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('server not ready within 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
  return { url, stop };
};

const call = async (url, p, body = {}, token) => {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${url}/api/${p}`, { method: 'POST', headers, body: JSON.stringify(body) });
  return res.json();
};

const login = async (url, userId, password) => {
  const key = await call(url, 'v2/user/login/key');
  const hash = crypto.createHash('sha256').update(`${userId}:${password}`).digest('hex');
  const cipher = crypto
    .publicEncrypt(
      { key: key.data.public_key, padding: crypto.constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(`${userId}\n${hash}\n${key.data.server_time}`),
    )
    .toString('base64');
  const answer = await call(url, 'v2/user/login', {
    device_system: 'web',
    device_model: 'bench',
    user_id: userId,
    user_password: cipher,
    key_id: key.data.key_id,
  });
  if (answer.code !== 200) throw new Error(`login ${userId}: ${answer.code} ${answer.msg}`);
  return answer.data.acc_token;
};

/** One call after another: the latency one user sees; 20 warm-up calls first. */
const timeCalls = async (url, body, token) => {
  for (let i = 0; i < 20; i++) await call(url, 'v2/iot/web/uid/reg/list', body, token);
  const times = [];
  let last;
  for (let i = 0; i < SAMPLES; i++) {
    const t0 = performance.now();
    last = await call(url, 'v2/iot/web/uid/reg/list', body, token);
    times.push(performance.now() - t0);
  }
  if (last.code !== 200) throw new Error(`list: ${last.code} ${last.msg}`);
  return { ...stats(times), count: last.count, rows: last.data.length };
};

const runDatabase = async (kind) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'iot-bench-dev-'));
  let databaseUrl;
  let dropDatabase = async () => {};
  let server;
  try {
    if (kind === 'postgres') {
      const name = `iot_bench_dev_${crypto.randomBytes(5).toString('hex')}`;
      const admin = async (q) => {
        const client = new pg.Client({ connectionString: PG_SERVER_URL });
        await client.connect();
        try {
          await client.query(q);
        } finally {
          await client.end();
        }
      };
      await admin(`create database ${name}`);
      const u = new URL(PG_SERVER_URL);
      u.pathname = `/${name}`;
      databaseUrl = u.toString();
      dropDatabase = () =>
        KEEP ? Promise.resolve(log(`kept database ${databaseUrl}`)) : admin(`drop database if exists ${name} with (force)`);
      log(`postgres: database ${name}`);
    } else log(`pglite: ${dataDir}`);
    const seeded = await seed({ databaseUrl, pgliteDir: path.join(dataDir, 'pglite') });
    server = await startServer({ databaseUrl, dataDir });
    const adminToken = await login(server.url, 'admin', ADMIN_PASSWORD);
    const compToken = await login(server.url, COMP_ADMIN_ID, COMP_ADMIN_PASSWORD);
    const calls = [];
    for (const [who, token, expected] of [
      ['company admin', compToken, seeded.expectCompany],
      ['super admin', adminToken, seeded.expectAll],
    ]) {
      for (const pageNo of [1, DEEP_PAGE]) {
        const r = await timeCalls(server.url, { page_no: pageNo, page_size: 10 }, token);
        if (r.count !== expected) throw new Error(`${who} count ${r.count}, expected ${expected}`);
        calls.push({ what: `list page ${pageNo}, ${who} (count ${expected})`, ...r });
      }
    }
    // A filtered list (online devices, counted row by row) for comparison: not a target.
    calls.push({
      what: 'list page 1 online=1, super admin (filtered count)',
      ...(await timeCalls(server.url, { page_no: 1, page_size: 10, online: 1 }, adminToken)),
    });
    return { kind, seeded, calls };
  } finally {
    if (server) await server.stop();
    if (!KEEP) fs.rmSync(dataDir, { recursive: true, force: true });
    else log(`kept ${dataDir}`);
    await dropDatabase();
  }
};

const ms = (v) => v.toFixed(v < 10 ? 2 : 1);
const mark = (ok) => (ok ? '✓' : '✗');

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
  console.log(
    `device-list bench: ${DEVICES} devices in ${COMPANIES} companies, ${SAMPLES} sequential calls each; ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`,
  );
  if (process.env.BENCH_SKIP_BUILD !== '1') buildServer();
  let failed = false;
  for (const kind of DBS) {
    try {
      print(await runDatabase(kind));
    } catch (err) {
      failed = true;
      console.error(`✗ ${kind}: ${err.stack ?? err}`);
    }
  }
  if (failed) process.exitCode = 1;
};

await main();
