// `npm test`: every check and every test. In CI (CI=true) nothing is skipped: the PostgreSQL
// run needs TEST_DATABASE_URL and the browser tests need /usr/bin/chromium.
import fs from 'node:fs';
import { buildIfStale, ensureInstalled, run } from './lib.mjs';

const isCi = process.env.CI === 'true' || process.env.CI === '1';
const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const step = (title) => console.log(`\n━━ ${title}`);

ensureInstalled();

step('lint and format (biome)');
run('npx', ['biome', 'check', '.']);

step('type check');
run('npx', ['tsc', '-b', 'apps/server']);
run('npx', ['tsc', '-p', 'apps/web', '--noEmit']);
run('npx', ['tsc', '--noEmit', '-p', 'apps/server/test']);

step('unit and API tests on PGlite');
run('npx', ['vitest', 'run'], { env: { ...process.env, TEST_DB: 'pglite' } });

if (process.env.TEST_DATABASE_URL) {
  step('API tests on PostgreSQL');
  run('npx', ['vitest', 'run', 'apps/server/test'], { env: { ...process.env, TEST_DB: 'postgres' } });
} else if (isCi) {
  console.error('CI needs TEST_DATABASE_URL for the PostgreSQL run');
  process.exit(1);
} else {
  console.warn('! TEST_DATABASE_URL is unset: the PostgreSQL run was not done (CI runs it)');
}

step('build');
buildIfStale();

if (fs.existsSync(chromium)) {
  step('browser tests (Playwright + Chromium)');
  run('npx', ['vitest', 'run', '--config', 'vitest.e2e.config.ts'], { env: { ...process.env, CHROMIUM_PATH: chromium } });
} else if (isCi) {
  console.error(`CI needs Chromium at ${chromium} for the browser tests`);
  process.exit(1);
} else {
  console.warn(`! ${chromium} is missing: browser tests were not run (apt-get install -y chromium; CI runs them)`);
}
console.log('\n✓ all checks passed');
