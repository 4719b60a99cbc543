import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminPassword, type Browser, baseUrl, logIn, openBrowser, screenshotDir } from './browser';

/**
 * The app side in the browser (issue 8): the simulator registers two devices and reports a week
 * of their alarms through the ingestion interface; the alarm list shows them.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const PREFIX = `ALM${Date.now().toString(36).toUpperCase()}`;

/** The simulator for a few seconds: registration, app users, bindings, the backfilled alarms and logs. */
const simulate = () =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [path.join(ROOT, 'scripts/simulate.mjs'), '--devices', '2', '--prefix', PREFIX, '--seconds', '3', '--url', baseUrl(), '--quiet'],
      { cwd: ROOT, env: { ...process.env, DATA_DIR: inject('dataDir'), ADMIN_PASSWORD: adminPassword() }, stdio: 'inherit' },
    );
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`simulate exited with ${code}`))));
  });

describe('alarms', () => {
  let admin: Browser;

  beforeAll(async () => {
    await simulate();
    admin = await openBrowser();
    await logIn(admin.page, 'admin', adminPassword());
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('lists the alarms the simulator reported, filtered by device', async () => {
    const { page } = admin;
    await page.goto(`${baseUrl()}/applist/alarm?lang=en`);
    const table = page.getByRole('table', { name: 'Alarms' });
    await page.getByRole('form', { name: 'Filters' }).getByLabel('Device UID').fill(`${PREFIX}-000001`);
    await page.getByRole('button', { name: 'Search' }).click();
    const rows = table.getByRole('row').filter({ hasText: `${PREFIX}-000001` });
    // Three backfilled alarms of that device, each with its type.
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(3);
    expect(await rows.first().textContent()).toMatch(/Type [1-7]/);
    await page.screenshot({ path: path.join(screenshotDir(), 'alarms.png'), fullPage: true });
  });
});
