// `npm run bench`: a benchmark, not a test. For PGlite and PostgreSQL, with BENCH_USERS users in
// BENCH_COMPANIES companies, measures req/s and p50/p99 of an authenticated, scoped
// `v2/user/account/list` (page 1 with its count) as a company administrator and as the super
// administrator, each beside the bare list (the same two SQL statements through the same pool with no
// token, scope resolution, validation or envelope: the list's honest ceiling, registered only on the
// benchmark's server) and the no-database ping.
// Then prints the gzip size of the JS the login page loads and of the largest route chunk.
//
// Knobs: BENCH_USERS (100000), BENCH_COMPANIES (1000), BENCH_SECONDS (10), BENCH_CONNECTIONS (50),
// BENCH_DB=pglite|postgres|both (both), BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres),
// BENCH_KEEP=1 (keep the seeded database for EXPLAIN).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import {
  ADMIN_PASSWORD,
  buildServerIfStale,
  call,
  createCompanyAdmin,
  DBS,
  dist,
  intEnv,
  log,
  login,
  machine,
  openSeededDatabase,
  rootCompany,
  seedTopCompanies,
  startServer,
  withBenchDatabase,
} from './bench-lib.mjs';
import { ROOT } from './lib.mjs';

const USERS = intEnv('BENCH_USERS', 100_000);
const COMPANIES = Math.min(intEnv('BENCH_COMPANIES', 1000), USERS);
const SECONDS = intEnv('BENCH_SECONDS', 10);
const CONNECTIONS = intEnv('BENCH_CONNECTIONS', 50);
const WARMUP_SECONDS = Math.min(3, SECONDS);

const COMP_ADMIN_ID = 'bench_comp_admin';
const COMP_ADMIN_PASSWORD = 'Bench#Comp1';
const BATCH = 5000;

// Targets (issue 7): the list through the kit ≥ 0.7 × the bare list (the same SQL with no token, scope,
// validation or envelope) on both databases; p99 < 50 ms (PostgreSQL); login JS < 300 kB gzip.
const TARGET_RATIO = 0.7;
const TARGET_P99_MS = 50;
const TARGET_LOGIN_JS_BYTES = 300 * 1000;

const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;

// ───────────────────────────── seeding ─────────────────────────────

/** Migrates, seeds the menus and the super administrator, then bulk-inserts the companies and users. */
const seed = async ({ databaseUrl, pgliteDir }) => {
  const { encodePassword } = await dist('platform/seed.js');
  const { hashPassword } = await dist('platform/passwords.js');

  const started = performance.now();
  const database = await openSeededDatabase({ databaseUrl, pgliteDir });
  const db = database.db;
  try {
    const root = await rootCompany(db);
    const now = Math.floor(Date.now() / 1000);

    // Companies under the root, with their materialised path and top id (a child of the root is its own top).
    await seedTopCompanies(db, { root, to: COMPANIES, name: 'Bench company', short: 'B', key: 'bench-', now });

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
    await createCompanyAdmin(db, {
      userId: COMP_ADMIN_ID,
      password: COMP_ADMIN_PASSWORD,
      userName: 'Bench company admin',
      compId: comp_id,
      roleId: role_id,
      now,
    });
    await sql`drop table bench_comp`.execute(db);
    // As autovacuum would leave a table after a bulk load: statistics and the visibility map.
    await sql`vacuum analyze`.execute(db);
    const expectCompany = Number((await sql`select count(*)::int as n from app_user where comp_id = ${comp_id}`.execute(db)).rows[0].n);
    const expectAll = Number((await sql`select count(*)::int as n from app_user`.execute(db)).rows[0].n);
    log(`seeded ${expectAll} users in ${COMPANIES + 1} companies in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return { expectCompany, expectAll, compId: comp_id };
  } finally {
    await database.close();
  }
};

// ───────────────────────────── server ─────────────────────────────

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

const runDatabase = (kind) =>
  withBenchDatabase(kind, { tmpPrefix: 'iot-bench-', pgPrefix: 'iot_bench' }, async ({ dataDir, databaseUrl, pgliteDir }) => {
    const expected = await seed({ databaseUrl, pgliteDir });
    // autocannon drops its sockets at the end of a run: let the requests still in the server finish first.
    // BENCH_BARE_ROUTES: the bare list (the list's SQL alone, no token/scope/validation/envelope) is registered.
    const server = await startServer({ databaseUrl, dataDir, settleMs: 1000, env: { BENCH_BARE_ROUTES: '1' } });
    try {
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

      for (const [who, compId, count] of [
        ['company', expected.compId, expected.expectCompany],
        ['all', 0, expected.expectAll],
      ]) {
        const a = await call(server.url, 'bench/bare/account-list', { comp_id: compId }, null);
        if (a.rows?.length !== 10 || a.count !== count) throw new Error(`bare list (${who}): ${JSON.stringify(a).slice(0, 200)}`);
      }

      const rows = [];
      log(`${kind}: ping (no database)`);
      rows.push({ name: 'POST /api/v2/ping (no token, no DB)', ...(await measure(server.url, 'v2/ping', {})) });
      log(`${kind}: bare list, company scope`);
      const bareCompany = {
        name: `bare list SQL, company scope (count ${expected.expectCompany})`,
        ...(await measure(server.url, 'bench/bare/account-list', { comp_id: expected.compId })),
      };
      rows.push(bareCompany);
      log(`${kind}: account/list as company admin`);
      rows.push({
        name: `account/list, company admin (count ${expected.expectCompany})`,
        bare: bareCompany,
        ...(await measure(server.url, 'v2/user/account/list', listBody, compToken)),
      });
      log(`${kind}: bare list, all companies`);
      const bareAll = {
        name: `bare list SQL, all (count ${expected.expectAll})`,
        ...(await measure(server.url, 'bench/bare/account-list', { comp_id: 0 })),
      };
      rows.push(bareAll);
      log(`${kind}: account/list as super admin`);
      rows.push({
        name: `account/list, super admin (count ${expected.expectAll})`,
        bare: bareAll,
        ...(await measure(server.url, 'v2/user/account/list', listBody, adminToken)),
      });
      return { kind, rows };
    } finally {
      await server.stop();
    }
  });

const printTable = ({ kind, rows }) => {
  const ping = rows[0].rps;
  const mark = (ok) => (ok ? '✓' : '✗ MISSED');
  console.log(`\n${kind === 'postgres' ? 'PostgreSQL' : 'PGlite'} — ${CONNECTIONS} connections, ${SECONDS} s each`);
  const header = ['call', 'req/s', 'p50 ms', 'p99 ms', '÷ ping', '÷ bare list', 'errors'];
  const lines = rows.map((r) => [
    r.name,
    r.rps.toFixed(0),
    String(r.p50),
    `${r.p99} ${r.bare && kind === 'postgres' ? mark(r.p99 < TARGET_P99_MS) : ''}`.trim(),
    (r.rps / ping).toFixed(2),
    r.bare ? `${(r.rps / r.bare.rps).toFixed(2)} ${mark(r.rps / r.bare.rps >= TARGET_RATIO)}` : '',
    String(r.errors),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  console.log(fmt(header));
  console.log(`|${widths.map((w, i) => (i === 0 ? `${'-'.repeat(w + 1)}-` : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const l of lines) console.log(fmt(l));
  console.log(
    `targets: the list through the pipeline ≥ ${TARGET_RATIO} × the bare list's req/s (its own SQL alone, same run, both databases); p99 < ${TARGET_P99_MS} ms (PostgreSQL)`,
  );
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
    `iot-console bench: ${USERS} users in ${COMPANIES} companies, ${CONNECTIONS} connections, ${SECONDS} s per run; ${machine()}`,
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

// BENCH_SUITE=users|devices|jobs|stats|alarms|push|ingest|web|all (all): the user list above, then the device list (scripts/bench-devices.mjs),
// then the xlsx import and export (scripts/bench-import.mjs), then the device statistics (scripts/bench-stats.mjs), then the alarm-log
// list at a million rows (scripts/bench-alarms.mjs), then push records at a million rows and the dispatcher's sends (scripts/bench-push.mjs),
// then device state ingestion (scripts/bench-ingest.mjs), then the web console in Chromium (scripts/bench-web.mjs).
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
if (SUITE === 'all' || SUITE === 'alarms') {
  const env = { ...process.env, BENCH_SKIP_BUILD: SUITE === 'all' ? '1' : '' };
  const res = spawnSync(process.execPath, [path.join(ROOT, 'scripts/bench-alarms.mjs')], { cwd: ROOT, stdio: 'inherit', env });
  if (res.status !== 0) process.exitCode = 1;
}
if (SUITE === 'all' || SUITE === 'push') {
  const env = { ...process.env, BENCH_SKIP_BUILD: SUITE === 'all' ? '1' : '' };
  const res = spawnSync(process.execPath, [path.join(ROOT, 'scripts/bench-push.mjs')], { cwd: ROOT, stdio: 'inherit', env });
  if (res.status !== 0) process.exitCode = 1;
}
if (SUITE === 'all' || SUITE === 'ingest') {
  const res = spawnSync(process.execPath, [path.join(ROOT, 'scripts/bench-ingest.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (res.status !== 0) process.exitCode = 1;
}
if (SUITE === 'all' || SUITE === 'web') {
  const res = spawnSync(process.execPath, [path.join(ROOT, 'scripts/bench-web.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (res.status !== 0) process.exitCode = 1;
}
