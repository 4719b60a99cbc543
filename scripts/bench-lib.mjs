// Shared pieces of the benchmarks (scripts/bench*.mjs): knobs, building, the bench database on
// PGlite or PostgreSQL, seeding companies and administrators, the server child process, login
// and calls over HTTP, timings and the printed lines.
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

// ───────────────────────────── knobs ─────────────────────────────

export const intEnv = (name, fallback, { min = 1 } = {}) => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return n;
};

/** BENCH_DB=pglite|postgres|both (both): the databases to run on. */
export const DBS = { pglite: ['pglite'], postgres: ['postgres'], both: ['pglite', 'postgres'] }[process.env.BENCH_DB || 'both'];
if (!DBS) throw new Error('BENCH_DB must be pglite, postgres or both');
/** BENCH_KEEP=1 keeps the seeded database and data directory (for EXPLAIN); drop them yourself. */
export const KEEP = process.env.BENCH_KEEP === '1';
export const PG_SERVER_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
export const ADMIN_PASSWORD = 'Bench#Admin1';

export const log = (msg) => console.log(`› ${msg}`);
export const quietLog = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, fatal() {}, child: () => quietLog };
/** Imports a module of the built server (apps/server/dist). */
export const dist = (p) => import(pathToFileURL(path.join(ROOT, 'apps/server/dist', p)).href);
/** `N × cpu model, Node vX`, for a bench's first line. */
export const machine = () => `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`;

// ───────────────────────────── build ─────────────────────────────

const SERVER_PARTS = [
  ['packages/contract', 'packages/contract/dist/index.js'],
  ['apps/server', 'apps/server/dist/main.js'],
];

/** npm run build of the contract and the server. */
export const buildServer = () => {
  for (const [ws] of SERVER_PARTS) {
    const res = spawnSync('npm', ['run', 'build', '-w', ws], { cwd: ROOT, stdio: 'inherit' });
    if (res.status !== 0) throw new Error(`npm run build -w ${ws} failed`);
  }
};

const newest = (p) => {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const entry of fs.readdirSync(p)) max = Math.max(max, newest(path.join(p, entry)));
  return max;
};
const mtime = (p) => (fs.existsSync(p) ? fs.statSync(p).mtimeMs : 0);

/** Builds the contract and the server when their sources are newer than their last build. */
export const buildServerIfStale = () => {
  // tsc -b rewrites tsconfig.tsbuildinfo on every build, even when no output changed.
  const stale = SERVER_PARTS.some(
    ([ws, out]) =>
      !fs.existsSync(path.join(ROOT, out)) ||
      mtime(path.join(ROOT, ws, 'tsconfig.tsbuildinfo')) <
        Math.max(newest(path.join(ROOT, ws, 'src')), mtime(path.join(ROOT, ws, 'tsconfig.json'))),
  );
  if (!stale) return;
  for (const [ws] of SERVER_PARTS) {
    log(`building ${ws}`);
    const res = spawnSync('npm', ['run', 'build', '-w', ws], { cwd: ROOT, stdio: 'inherit' });
    if (res.status !== 0) throw new Error(`npm run build -w ${ws} failed`);
  }
};

// ───────────────────────────── databases ─────────────────────────────

/** One statement on the PostgreSQL server (BENCH_DATABASE_URL), on a connection of its own. */
export const pgAdmin = async (q) => {
  const client = new pg.Client({ connectionString: PG_SERVER_URL });
  await client.connect();
  try {
    await client.query(q);
  } finally {
    await client.end();
  }
};

/**
 * A fresh PostgreSQL database named `${prefix}_<random hex>`: its URL, and `drop` (which keeps it
 * when `keep`, saying so).
 */
export const createPgDatabase = async (prefix, { keep = false, hexBytes = 5 } = {}) => {
  const name = `${prefix}_${crypto.randomBytes(hexBytes).toString('hex')}`;
  await pgAdmin(`create database ${name}`);
  const u = new URL(PG_SERVER_URL);
  u.pathname = `/${name}`;
  const databaseUrl = u.toString();
  const drop = () =>
    keep ? Promise.resolve(log(`kept database ${databaseUrl}`)) : pgAdmin(`drop database if exists ${name} with (force)`);
  return { name, databaseUrl, drop };
};

/** Opens the database, migrates it, seeds the menus and the super administrator (with ADMIN_PASSWORD). */
export const openSeededDatabase = async ({ databaseUrl, pgliteDir, poolSize = 2 }) => {
  const { openDatabase } = await dist('platform/db/database.js');
  const { migrateToLatest } = await dist('platform/db/migrations.js');
  const { seedMenus, ensureFirstAdmin } = await dist('platform/seed.js');
  const database = await openDatabase({ databaseUrl, pgliteDir, poolSize });
  try {
    await migrateToLatest(database.db);
    await seedMenus(database.db);
    await ensureFirstAdmin(database.db, ADMIN_PASSWORD, quietLog);
  } catch (err) {
    await database.close();
    throw err;
  }
  return database;
};

/** The root company (the super administrator's). */
export const rootCompany = (db) =>
  db.selectFrom('company').select(['comp_id', 'comp_path']).where('comp_parent_id', '=', 0).executeTakeFirstOrThrow();

/**
 * Companies `from`..`to` under `root` with generate_series (`${name} g`, `${short}g`, `${key}g`),
 * each its own top with its materialised path.
 */
export const seedTopCompanies = async (db, { root, from = 1, to, name, short, key, now }) => {
  await sql`
    insert into company (comp_name, comp_short_name, comp_key, comp_type, comp_parent_id, comp_top_id, comp_path, gmt_create, gmt_update)
    select ${name}::text || ' ' || g, ${short}::text || g, ${key}::text || g, 3, ${root.comp_id}::int, 0, '', ${now}::bigint, ${now}::bigint
    from generate_series(${from}::int, ${to}::int) g`.execute(db);
  await sql`
    update company set comp_path = ${root.comp_path}::text || comp_id || '/', comp_top_id = comp_id
    where comp_parent_id = ${root.comp_id}::int and comp_path = ''`.execute(db);
};

/**
 * `devices` devices with their state rows, round-robin over `companies` new top companies under
 * `root` (the worst case for per-company counters), all of product `pk` (created here), with
 * generate_series in batches of `batch`: uid `${uidPrefix}` + 8 digits, MAC the hex of
 * `macOffset` + g, registered one a second until `now` - 1. Answers the companies' ids in order.
 */
export const seedDevices = async (
  db,
  { root, devices, companies, now, name, short, key, pk = 'BENCHPK', uidPrefix = 'BENCH-', macOffset = 0, batch = 100_000 },
) => {
  await seedTopCompanies(db, { root, to: companies, name, short, key, now });
  await sql`
    insert into product (pk, name, comp_id, create_time, update_time)
    values (${pk}::text, 'Bench camera', ${root.comp_id}::int, ${now}::bigint, ${now}::bigint)`.execute(db);
  await sql`
    create table bench_comp as
    select comp_id, (row_number() over (order by comp_id) - 1)::int as idx
    from company where comp_parent_id = ${root.comp_id}::int and comp_key like ${`${key}%`}::text`.execute(db);
  for (let lo = 0; lo < devices; lo += batch) {
    const hi = Math.min(devices, lo + batch) - 1;
    await sql`
      insert into device (uid, mac, pk, comp_id, dev_key, gmt_create, gmt_update)
      select ${uidPrefix}::text || lpad(g::text, 8, '0'),
             upper(regexp_replace(lpad(to_hex(${macOffset}::bigint + g), 12, '0'), '(..)(?!$)', '\\1:', 'g')),
             ${pk}::text, b.comp_id, md5(g::text), ${now - devices}::bigint + g, ${now - devices}::bigint + g
      from generate_series(${lo}::int, ${hi}::int) g join bench_comp b on b.idx = g % ${companies}::int
      order by g`.execute(db);
  }
  await sql`
    insert into device_state (device_id, online, active, network_type, last_online, offline_reason)
    select id, (id % 3 = 0)::int, (id % 2 = 0)::int, (id % 6)::int, case when id % 2 = 0 then gmt_create end, 0
    from device where pk = ${pk}::text`.execute(db);
  const ids = await sql`select comp_id from bench_comp order by idx`.execute(db);
  await sql`drop table bench_comp`.execute(db);
  return ids.rows.map((r) => r.comp_id);
};

/** A company-tree role in `compId` holding the menus `menuKeys`; answers its id. */
export const createTreeRole = async (db, { name, compId, menuKeys, now }) => {
  const role = await db
    .insertInto('role')
    .values({ name, cn_name: '', state: 1, type: 2, data_scope: 2, comp_id: compId, gmt_create: now, gmt_update: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await sql`insert into role_menu (role_id, menu_id) select ${role.id}::int, menu_id from menu where menu_key in (${sql.join(menuKeys)})`.execute(
    db,
  );
  return role.id;
};

/**
 * The company administrator a bench times its scoped calls as: a company-tree role of `compId` holding
 * `menuKeys`, a user named `name` with it, then `vacuum analyze` so the timed plans see the seeded rows.
 */
export const createScopedAdmin = async (db, { name, compId, menuKeys, userId, password, now }) => {
  const roleId = await createTreeRole(db, { name, compId, menuKeys, now });
  await createCompanyAdmin(db, { userId, password, userName: name, compId, roleId, now });
  await sql`vacuum analyze`.execute(db);
};

/** The number a `select … as n` statement answers. */
export const countOf = async (db, q) => Number((await q.execute(db)).rows[0].n);

/** A company administrator (user type 2) with a known password. */
export const createCompanyAdmin = async (db, { userId, password, userName, compId, roleId, now }) => {
  const { encodePassword } = await dist('platform/seed.js');
  const { hashPassword } = await dist('platform/passwords.js');
  await db
    .insertInto('app_user')
    .values({
      user_id: userId,
      password_hash: await hashPassword(encodePassword(userId, password)),
      user_name: userName,
      user_email: '',
      user_phone: '',
      user_phone_area: '+86',
      validity_time: 0,
      remark: '',
      pending_registration: false,
      comp_id: compId,
      state: 1,
      user_type: 2,
      role_id: roleId,
      gmt_create: now,
      gmt_update: now,
    })
    .execute();
};

/**
 * Runs `body({ kind, dataDir, databaseUrl, pgliteDir })` on a fresh database of `kind` (a temporary
 * data directory, and on PostgreSQL a database named `${pgPrefix}_…`), then removes both (BENCH_KEEP
 * keeps them).
 */
export const withBenchDatabase = async (kind, { tmpPrefix, pgPrefix }, body) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), tmpPrefix));
  let drop = async () => {};
  try {
    let databaseUrl;
    if (kind === 'postgres') {
      const created = await createPgDatabase(pgPrefix, { keep: KEEP });
      databaseUrl = created.databaseUrl;
      drop = created.drop;
      log(`postgres: database ${created.name}`);
    } else log(`pglite: ${dataDir}`);
    return await body({ kind, dataDir, databaseUrl, pgliteDir: path.join(dataDir, 'pglite') });
  } finally {
    await drop().catch((err) => console.error(`could not drop the bench database: ${err.message}`));
    if (KEEP) log(`kept ${dataDir}`);
    else fs.rmSync(dataDir, { recursive: true, force: true });
  }
};

// ───────────────────────────── server ─────────────────────────────

const freePort = () =>
  new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });

/**
 * The built server (apps/server/dist/main.js) as a child process on a free port, ready once
 * /api/ready answers. `env` adds variables, `unset` removes inherited ones, `settleMs` waits
 * before stopping (for requests still in flight).
 */
export const startServer = async ({ databaseUrl, dataDir, env: extra = {}, unset = [], settleMs = 0 }) => {
  const port = await freePort();
  const env = { ...process.env };
  for (const name of ['DATABASE_URL', 'REDIS_URL', ...unset]) delete env[name];
  Object.assign(env, {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    WEB_DIR: '',
    LOG_LEVEL: 'warn',
    ...extra,
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
    if (settleMs > 0) await new Promise((r) => setTimeout(r, settleMs));
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
  return { url, stop };
};

/** POST /api/<p> with a JSON body (and a bearer token): the answer's JSON. */
export const call = async (url, p, body = {}, token) => {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${url}/api/${p}`, { method: 'POST', headers, body: JSON.stringify(body) });
  return res.json();
};

/** CONTRACT §4: key, RSA-OAEP-SHA256 cipher of `user_id \n encodePassword \n server_time`, login. */
export const login = async (url, userId, password) => {
  const key = await call(url, 'v2/user/login/key');
  if (key.code !== 200) throw new Error(`login/key: ${key.code} ${key.msg}`);
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

// ───────────────────────────── timings ─────────────────────────────

/** p50 and p99 (nearest rank, ms) of a list of timings. */
export const stats = (times) => {
  const s = [...times].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { p50: at(0.5), p99: at(0.99), n: s.length };
};

/** Times `samples` runs of a query on the database itself. */
export const timeSql = async (db, q, samples) => {
  const times = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    await q.execute(db);
    times.push(performance.now() - t0);
  }
  return stats(times);
};

/** One call after another: the latency one user sees; 20 warm-up calls first. Answers the timings and the last answer. */
export const timeCalls = async (url, p, body, token, samples) => {
  for (let i = 0; i < 20; i++) await call(url, p, body, token);
  const times = [];
  let last;
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    last = await call(url, p, body, token);
    times.push(performance.now() - t0);
  }
  return { ...stats(times), last };
};

export const ms = (v) => v.toFixed(v < 10 ? 2 : 1);
export const mark = (ok) => (ok ? '✓' : '✗');

/** Runs `runOne(kind)` for each BENCH_DB database, printing each result; a failure sets the exit code. */
export const runEachDatabase = async (runOne, print) => {
  let failed = false;
  for (const kind of DBS) {
    try {
      print(await runOne(kind));
    } catch (err) {
      failed = true;
      console.error(`✗ ${kind}: ${err.stack ?? err}`);
    }
  }
  if (failed) process.exitCode = 1;
};
