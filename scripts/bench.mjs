// `npm run bench`: a benchmark, not a test. For PGlite and PostgreSQL, with BENCH_USERS users in
// BENCH_COMPANIES companies, measures req/s and p50/p99 of an authenticated, scoped
// `v2/user/account/list` (page 1 with its count) as a company administrator and as the super
// administrator, beside the same server's unauthenticated no-database route (the ceiling).
// Then prints the gzip size of the JS the login page loads and of the largest route chunk.
//
// Knobs: BENCH_USERS (100000), BENCH_COMPANIES (1000), BENCH_SECONDS (10), BENCH_CONNECTIONS (50),
// BENCH_DB=pglite|postgres|both (both), BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres),
// BENCH_KEEP=1 (keep the seeded database for EXPLAIN).
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import autocannon from 'autocannon';
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

const USERS = intEnv('BENCH_USERS', 100_000);
const COMPANIES = Math.min(intEnv('BENCH_COMPANIES', 1000), USERS);
const SECONDS = intEnv('BENCH_SECONDS', 10);
const CONNECTIONS = intEnv('BENCH_CONNECTIONS', 50);
const WARMUP_SECONDS = Math.min(3, SECONDS);
const DBS = { pglite: ['pglite'], postgres: ['postgres'], both: ['pglite', 'postgres'] }[process.env.BENCH_DB || 'both'];
if (!DBS) throw new Error('BENCH_DB must be pglite, postgres or both');
/** BENCH_KEEP=1 keeps the seeded database and data directory (for EXPLAIN); drop them yourself. */
const KEEP = process.env.BENCH_KEEP === '1';
const PG_SERVER_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

const ADMIN_PASSWORD = 'Bench#Admin1';
const COMP_ADMIN_ID = 'bench_comp_admin';
const COMP_ADMIN_PASSWORD = 'Bench#Comp1';
const BATCH = 5000;

// Targets (the issue): list ≥ half the ceiling's req/s on PostgreSQL, p99 < 50 ms; login JS < 300 kB gzip.
const TARGET_RATIO = 0.5;
const TARGET_P99_MS = 50;
const TARGET_LOGIN_JS_BYTES = 300 * 1000;

const log = (msg) => console.log(`› ${msg}`);
const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;

// ───────────────────────────── build ─────────────────────────────

const newest = (p) => {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const entry of fs.readdirSync(p)) max = Math.max(max, newest(path.join(p, entry)));
  return max;
};
const mtime = (p) => (fs.existsSync(p) ? fs.statSync(p).mtimeMs : 0);

const buildServerIfStale = () => {
  const parts = [
    ['packages/contract', 'packages/contract/dist/index.js'],
    ['apps/server', 'apps/server/dist/main.js'],
  ];
  // tsc -b rewrites tsconfig.tsbuildinfo on every build, even when no output changed.
  const stale = parts.some(
    ([ws, out]) =>
      !fs.existsSync(path.join(ROOT, out)) ||
      mtime(path.join(ROOT, ws, 'tsconfig.tsbuildinfo')) <
        Math.max(newest(path.join(ROOT, ws, 'src')), mtime(path.join(ROOT, ws, 'tsconfig.json'))),
  );
  if (!stale) return;
  for (const [ws] of parts) {
    log(`building ${ws}`);
    const res = spawnSync('npm', ['run', 'build', '-w', ws], { cwd: ROOT, stdio: 'inherit' });
    if (res.status !== 0) throw new Error(`npm run build -w ${ws} failed`);
  }
};

// ───────────────────────────── seeding ─────────────────────────────

const dist = (p) => import(pathToFileURL(path.join(ROOT, 'apps/server/dist', p)).href);

const quietLog = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, fatal() {}, child: () => quietLog };

/** Migrates, seeds the menus and the super administrator, then bulk-inserts the companies and users. */
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

    // Companies under the root, with their materialised path and top id (a child of the root is its own top).
    await sql`
      insert into company (comp_name, comp_short_name, comp_key, comp_type, comp_parent_id, comp_top_id, comp_path, gmt_create, gmt_update)
      select 'Bench company ' || g, 'B' || g, 'bench-' || g, 3, ${root.comp_id}::int, 0, '', ${now}::bigint, ${now}::bigint
      from generate_series(1, ${COMPANIES}::int) g
    `.execute(db);
    await sql`
      update company set comp_path = ${root.comp_path}::text || comp_id || '/', comp_top_id = comp_id
      where comp_parent_id = ${root.comp_id}::int and comp_path = ''
    `.execute(db);

    // One custom role per company holding the user menu with the company-tree scope.
    await sql`
      insert into role (name, cn_name, state, type, data_scope, comp_id, gmt_create, gmt_update)
      select 'Bench admin', '', 1, 2, 2, comp_id, ${now}::bigint, ${now}::bigint from company where comp_parent_id = ${root.comp_id}::int
    `.execute(db);
    await sql`
      insert into role_menu (role_id, menu_id)
      select r.id, m.menu_id from role r cross join menu m
      where r.name = 'Bench admin' and m.menu_key in ('operate', 'operate/user')
    `.execute(db);

    // Users: one precomputed argon2 hash for all; spread over the companies round-robin, as if created over time.
    const sharedHash = await hashPassword(encodePassword('bench', 'bench'));
    await sql`
      create table bench_comp as
      select c.comp_id, r.id as role_id, (row_number() over (order by c.comp_id) - 1)::int as idx
      from company c join role r on r.comp_id = c.comp_id
      where c.comp_parent_id = ${root.comp_id}::int
    `.execute(db);
    for (let lo = 0; lo < USERS; lo += BATCH) {
      const hi = Math.min(USERS, lo + BATCH) - 1;
      await sql`
        insert into app_user (user_id, password_hash, user_name, user_email, user_phone, comp_id, state, user_type, role_id, gmt_create, gmt_update)
        select 'bench_user_' || g, ${sharedHash}::text, 'Bench user ' || g, 'user' || g || '@bench.test', '', b.comp_id, 1, 3, b.role_id,
               ${now}::bigint + g, ${now}::bigint + g
        from generate_series(${lo}::int, ${hi}::int) g join bench_comp b on b.idx = g % ${COMPANIES}::int
      `.execute(db);
    }

    // The company administrator: in the middle company, with its role and a known password.
    const comp = await sql`select comp_id, role_id from bench_comp where idx = ${Math.floor(COMPANIES / 2)}::int`.execute(db);
    const { comp_id, role_id } = comp.rows[0];
    await db
      .insertInto('app_user')
      .values({
        user_id: COMP_ADMIN_ID,
        password_hash: await hashPassword(encodePassword(COMP_ADMIN_ID, COMP_ADMIN_PASSWORD)),
        user_name: 'Bench company admin',
        user_email: '',
        user_phone: '',
        user_phone_area: '+86',
        validity_time: 0,
        remark: '',
        pending_registration: false,
        comp_id,
        state: 1,
        user_type: 2,
        role_id,
        gmt_create: now,
        gmt_update: now,
      })
      .execute();
    await sql`drop table bench_comp`.execute(db);
    // As autovacuum would leave a table after a bulk load: statistics and the visibility map.
    await sql`vacuum analyze`.execute(db);
    const expectCompany = Number((await sql`select count(*)::int as n from app_user where comp_id = ${comp_id}`.execute(db)).rows[0].n);
    const expectAll = Number((await sql`select count(*)::int as n from app_user`.execute(db)).rows[0].n);
    log(`seeded ${expectAll} users in ${COMPANIES + 1} companies in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return { expectCompany, expectAll };
  } finally {
    await database.close();
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

const startServer = async ({ databaseUrl, dataDir }) => {
  const port = await freePort();
  const env = { ...process.env };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
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
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode})`);
    try {
      const res = await fetch(`${url}/api/ready`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('server not ready within 60 s');
    await new Promise((r) => setTimeout(r, 200));
  }
  const stop = async () => {
    // autocannon drops its sockets at the end of a run: let the requests still in the server finish first.
    await new Promise((r) => setTimeout(r, 1000));
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

const sha256hex = (s) => crypto.createHash('sha256').update(s).digest('hex');

/** CONTRACT §4: key, RSA-OAEP-SHA256 cipher of `user_id \n encodePassword \n server_time`, login. */
const login = async (url, userId, password) => {
  const key = await call(url, 'v2/user/login/key');
  if (key.code !== 200) throw new Error(`login/key: ${key.code} ${key.msg}`);
  const plain = `${userId}\n${sha256hex(`${userId}:${password}`)}\n${key.data.server_time}`;
  const cipher = crypto
    .publicEncrypt({ key: key.data.public_key, padding: crypto.constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(plain))
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

const cannon = (opts) =>
  new Promise((resolve, reject) => {
    autocannon({ connections: CONNECTIONS, method: 'POST', ...opts }, (err, result) => (err ? reject(err) : resolve(result)));
  });

/** Warm-up, then the measured run. */
const measure = async (url, p, body, token) => {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const opts = { url: `${url}/api/${p}`, headers, body: JSON.stringify(body) };
  await cannon({ ...opts, duration: WARMUP_SECONDS });
  const r = await cannon({ ...opts, duration: SECONDS });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    errors: r.errors + r.timeouts + r.non2xx,
  };
};

const runDatabase = async (kind) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'iot-bench-'));
  let databaseUrl;
  let dropDatabase = async () => {};
  let server;
  try {
    if (kind === 'postgres') {
      const name = `iot_bench_${crypto.randomBytes(5).toString('hex')}`;
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
      dropDatabase = () =>
        KEEP ? Promise.resolve(log(`kept database ${databaseUrl}`)) : admin(`drop database if exists ${name} with (force)`);
      const u = new URL(PG_SERVER_URL);
      u.pathname = `/${name}`;
      databaseUrl = u.toString();
      log(`postgres: database ${name}`);
    } else {
      log(`pglite: ${dataDir}`);
    }
    const expected = await seed({ databaseUrl, pgliteDir: path.join(dataDir, 'pglite') });
    server = await startServer({ databaseUrl, dataDir });
    const adminToken = await login(server.url, 'admin', ADMIN_PASSWORD);
    const compToken = await login(server.url, COMP_ADMIN_ID, COMP_ADMIN_PASSWORD);

    // Sanity: each call answers page 1 with the scope's count before we measure it.
    const listBody = { page_no: 1, page_size: 10 };
    for (const [who, token, count] of [
      ['company admin', compToken, expected.expectCompany],
      ['super admin', adminToken, expected.expectAll],
    ]) {
      const a = await call(server.url, 'v2/user/account/list', listBody, token);
      if (a.code !== 200 || a.data.length !== 10 || a.count !== count) {
        throw new Error(`${who} list: code ${a.code}, ${a.data?.length} rows, count ${a.count} (expected 10 rows, count ${count})`);
      }
    }

    const rows = [];
    log(`${kind}: ping (ceiling)`);
    rows.push({ name: 'POST /api/v2/ping (ceiling, no token, no DB)', ...(await measure(server.url, 'v2/ping', {})) });
    log(`${kind}: account/list as company admin`);
    rows.push({
      name: `account/list, company admin (count ${expected.expectCompany})`,
      list: true,
      ...(await measure(server.url, 'v2/user/account/list', listBody, compToken)),
    });
    log(`${kind}: account/list as super admin`);
    rows.push({
      name: `account/list, super admin (count ${expected.expectAll})`,
      list: true,
      ...(await measure(server.url, 'v2/user/account/list', listBody, adminToken)),
    });
    return { kind, rows };
  } finally {
    if (server) await server.stop();
    await dropDatabase().catch((err) => console.error(`could not drop the bench database: ${err.message}`));
    if (KEEP) log(`kept ${dataDir}`);
    else fs.rmSync(dataDir, { recursive: true, force: true });
  }
};

const printTable = ({ kind, rows }) => {
  const ceiling = rows[0].rps;
  const targeted = kind === 'postgres';
  const mark = (ok) => (targeted ? (ok ? '✓' : '✗ MISSED') : ok ? '(✓)' : '(✗)');
  console.log(
    `\n${kind === 'postgres' ? 'PostgreSQL' : 'PGlite'} — ${CONNECTIONS} connections, ${SECONDS} s each${targeted ? '' : ' (targets apply to PostgreSQL; shown in parentheses)'}`,
  );
  const header = ['call', 'req/s', 'p50 ms', 'p99 ms', '÷ ceiling', 'errors'];
  const lines = rows.map((r) => [
    r.name,
    r.rps.toFixed(0),
    String(r.p50),
    `${r.p99} ${r.list ? mark(r.p99 < TARGET_P99_MS) : ''}`.trim(),
    r.list ? `${(r.rps / ceiling).toFixed(2)} ${mark(r.rps / ceiling >= TARGET_RATIO)}` : '1.00',
    String(r.errors),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  console.log(fmt(header));
  console.log(`|${widths.map((w, i) => (i === 0 ? `${'-'.repeat(w + 1)}-` : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const l of lines) console.log(fmt(l));
  console.log(`targets: list ≥ ${TARGET_RATIO} × ceiling req/s and p99 < ${TARGET_P99_MS} ms (PostgreSQL)`);
};

// ───────────────────────────── JS size ─────────────────────────────

const gzipSize = (file) => {
  const gz = `${file}.gz`;
  if (fs.existsSync(gz) && fs.statSync(gz).mtimeMs >= fs.statSync(file).mtimeMs) return fs.statSync(gz).size;
  return zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
};

/** Static `import … from "x"`, `import "x"` and `export … from "x"` of a built chunk (not `import("x")`). */
const staticImportsOf = (code) => {
  const out = [];
  const re = /(?:^|[;\s}])(?:import|export)\s*(?:[\w$*{}\s,]*?\s*from\s*)?["']([^"']+)["']/g;
  for (let m = re.exec(code); m; m = re.exec(code)) out.push(m[1]);
  return out;
};

const jsSize = () => {
  const distDir = path.join(ROOT, 'apps/web/dist');
  const indexFile = path.join(distDir, 'index.html');
  console.log('\nWeb console JS (gzip -9)');
  if (!fs.existsSync(indexFile)) {
    console.log(
      '  the web build is missing (apps/web/dist/index.html): build it with `npm run build -w apps/web`, then rerun `npm run bench`',
    );
    return null;
  }
  const html = fs.readFileSync(indexFile, 'utf8');
  const rel = (url) => url.replace(/^\//, '').split(/[?#]/)[0];
  const loginFiles = new Set();
  for (const m of html.matchAll(/<script[^>]*\btype=["']module["'][^>]*\bsrc=["']([^"']+)["']/g)) loginFiles.add(rel(m[1]));
  for (const m of html.matchAll(/<script[^>]*\bsrc=["']([^"']+)["'][^>]*\btype=["']module["']/g)) loginFiles.add(rel(m[1]));
  for (const m of html.matchAll(/<link[^>]*\brel=["']modulepreload["'][^>]*\bhref=["']([^"']+)["']/g)) loginFiles.add(rel(m[1]));
  for (const m of html.matchAll(/<link[^>]*\bhref=["']([^"']+)["'][^>]*\brel=["']modulepreload["']/g)) loginFiles.add(rel(m[1]));

  const manifestFile = path.join(distDir, '.vite/manifest.json');
  let loginChunk = null;
  if (fs.existsSync(manifestFile)) {
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
    const add = (key, seen = new Set()) => {
      const entry = manifest[key];
      if (!entry || seen.has(key)) return;
      seen.add(key);
      if (entry.file.endsWith('.js')) loginFiles.add(entry.file);
      for (const imp of entry.imports ?? []) add(imp, seen);
    };
    for (const [key, entry] of Object.entries(manifest)) if (entry.isEntry) add(key);
    const loginKey = Object.keys(manifest).find((k) => /login/i.test(k) && manifest[k].file.endsWith('.js'));
    if (loginKey) {
      loginChunk = manifest[loginKey].file;
      add(loginKey);
    }
  } else {
    const assets = fs.existsSync(path.join(distDir, 'assets')) ? fs.readdirSync(path.join(distDir, 'assets')) : [];
    const loginName = assets.find((f) => /login/i.test(f) && f.endsWith('.js'));
    if (loginName) {
      loginChunk = `assets/${loginName}`;
      loginFiles.add(loginChunk);
    }
    const queue = [...loginFiles];
    while (queue.length > 0) {
      const file = queue.shift();
      const abs = path.join(distDir, file);
      if (!fs.existsSync(abs) || !file.endsWith('.js')) continue;
      for (const spec of staticImportsOf(fs.readFileSync(abs, 'utf8'))) {
        if (!spec.startsWith('.') && !spec.startsWith('/')) continue;
        const target = spec.startsWith('/') ? rel(spec) : path.posix.join(path.posix.dirname(file), spec);
        if (!loginFiles.has(target)) {
          loginFiles.add(target);
          queue.push(target);
        }
      }
    }
  }

  const files = [...loginFiles].filter((f) => f.endsWith('.js') && fs.existsSync(path.join(distDir, f)));
  const sizes = files.map((f) => ({ f, gz: gzipSize(path.join(distDir, f)), raw: fs.statSync(path.join(distDir, f)).size }));
  const total = sizes.reduce((s, x) => s + x.gz, 0);
  const rawTotal = sizes.reduce((s, x) => s + x.raw, 0);
  const allJs = fs
    .readdirSync(path.join(distDir, 'assets'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => ({ f: `assets/${f}`, gz: gzipSize(path.join(distDir, 'assets', f)) }))
    .sort((a, b) => b.gz - a.gz);
  const largest = allJs[0];
  const ok = total < TARGET_LOGIN_JS_BYTES;
  console.log(
    `  login page JS: ${kB(total)} gzip (${kB(rawTotal)} raw) in ${files.length} files — target < ${kB(TARGET_LOGIN_JS_BYTES)} ${ok ? '✓' : '✗ MISSED'}`,
  );
  if (!loginChunk) console.log('  (no chunk named after the login route found: counted the entry closure only)');
  for (const s of sizes.sort((a, b) => b.gz - a.gz)) console.log(`    ${kB(s.gz).padStart(9)}  ${s.f}`);
  if (largest) console.log(`  largest JS chunk: ${kB(largest.gz)} gzip — ${largest.f} (${allJs.length} JS chunks in all)`);
  return { total, files: files.length, ok, largest };
};

// ───────────────────────────── main ─────────────────────────────

const main = async () => {
  console.log(
    `iot-console bench: ${USERS} users in ${COMPANIES} companies, ${CONNECTIONS} connections, ${SECONDS} s per run; ` +
      `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}`,
  );
  buildServerIfStale();
  const results = [];
  let failed = false;
  for (const kind of DBS) {
    try {
      results.push(await runDatabase(kind));
    } catch (err) {
      failed = true;
      console.error(`✗ ${kind}: ${err.stack ?? err}`);
    }
  }
  for (const r of results) printTable(r);
  try {
    jsSize();
  } catch (err) {
    console.error(`✗ JS size: ${err.message} (is the web build still running?)`);
  }
  if (failed) process.exitCode = 1;
};

// BENCH_SUITE=users|devices|jobs|stats|ingest|all (all): the user list above, then the device list (scripts/bench-devices.mjs),
// then the xlsx import and export (scripts/bench-import.mjs), then the device statistics (scripts/bench-stats.mjs),
// then device state ingestion (scripts/bench-ingest.mjs).
const SUITE = process.env.BENCH_SUITE || 'all';
if (SUITE === 'all' || SUITE === 'users') await main();
if (SUITE === 'all' || SUITE === 'devices') {
  const env = { ...process.env, BENCH_SKIP_BUILD: SUITE === 'all' ? '1' : '' };
  const res = spawnSync(process.execPath, [path.join(ROOT, 'scripts/bench-devices.mjs')], { cwd: ROOT, stdio: 'inherit', env });
  if (res.status !== 0) process.exitCode = 1;
}
if (SUITE === 'all' || SUITE === 'jobs') {
  const env = { ...process.env, BENCH_SKIP_BUILD: SUITE === 'all' ? '1' : '' };
  const res = spawnSync(process.execPath, [path.join(ROOT, 'scripts/bench-import.mjs')], { cwd: ROOT, stdio: 'inherit', env });
  if (res.status !== 0) process.exitCode = 1;
}
if (SUITE === 'all' || SUITE === 'stats') {
  const env = { ...process.env, BENCH_SKIP_BUILD: SUITE === 'all' ? '1' : '' };
  const res = spawnSync(process.execPath, [path.join(ROOT, 'scripts/bench-stats.mjs')], { cwd: ROOT, stdio: 'inherit', env });
  if (res.status !== 0) process.exitCode = 1;
}
if (SUITE === 'all' || SUITE === 'ingest') {
  const res = spawnSync(process.execPath, [path.join(ROOT, 'scripts/bench-ingest.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (res.status !== 0) process.exitCode = 1;
}
