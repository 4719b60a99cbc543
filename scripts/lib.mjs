// Shared steps of `npm start`, `npm test` and `npm run bench`: install what is missing, build what is stale.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');

export const run = (cmd, args, opts = {}) => {
  const res = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', ...opts });
  if (res.status !== 0) {
    console.error(`\n✗ ${cmd} ${args.join(' ')} failed (exit ${res.status ?? res.signal})`);
    process.exit(res.status ?? 1);
  }
};

const newest = (p) => {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const entry of fs.readdirSync(p)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    max = Math.max(max, newest(path.join(p, entry)));
  }
  return max;
};

const mtime = (p) => (fs.existsSync(p) ? fs.statSync(p).mtimeMs : 0);

export const ensureInstalled = () => {
  const marker = path.join(ROOT, 'node_modules/.package-lock.json');
  const stale = !fs.existsSync(marker) || mtime(path.join(ROOT, 'package-lock.json')) > mtime(marker);
  if (stale) {
    console.log('› installing dependencies');
    run('npm', ['install', '--no-audit', '--no-fund']);
  }
};

/** Builds contract and server (tsc -b is incremental) and the web console when its sources changed. */
export const buildIfStale = () => {
  run('npx', ['tsc', '-b', 'apps/server']);
  const webDist = path.join(ROOT, 'apps/web/dist/index.html');
  const webSources = Math.max(
    newest(path.join(ROOT, 'apps/web/src')),
    newest(path.join(ROOT, 'apps/web/index.html')),
    newest(path.join(ROOT, 'apps/web/vite.config.ts')),
    newest(path.join(ROOT, 'packages/contract/src')),
  );
  if (mtime(webDist) < webSources) {
    console.log('› building the web console');
    run('npm', ['run', 'build', '-w', 'apps/web']);
  }
};
