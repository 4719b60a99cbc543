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

  it('lists the device’s log lines and opens the export dialog; the service logs tab is there for the super administrator', async () => {
    const { page } = admin;
    await page.goto(`${baseUrl()}/applist/log_list?lang=en`);
    const table = page.getByRole('table', { name: 'Device logs' });
    await page.getByRole('form', { name: 'Filters' }).getByLabel('Device UID').fill(`${PREFIX}-000002`);
    await page.getByRole('button', { name: 'Search' }).click();
    // Five backfilled lines of that device.
    await expect
      .poll(
        () =>
          table
            .getByRole('row')
            .filter({ hasText: `${PREFIX}-000002` })
            .count(),
        { timeout: 10_000 },
      )
      .toBe(5);
    await page.getByRole('button', { name: 'Export' }).click();
    await page.getByRole('dialog', { name: 'Export device logs' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('tab', { name: 'Service logs' }).click();
    await expect
      .poll(() => page.getByRole('table', { name: 'Service logs' }).getByRole('row').count(), { timeout: 10_000 })
      .toBeGreaterThan(1);
  });

  it('shows the app users’ statistics with the simulated registrations', async () => {
    const { page } = admin;
    await page.goto(`${baseUrl()}/info/user?lang=en`);
    await page.getByRole('heading', { name: 'App-user statistics' }).waitFor();
    await page.getByText('New users in range').waitFor();
    await page.getByText('Tables', { exact: true }).click();
    // The simulator's users registered within the last 30 days: the apps table has a row.
    await expect.poll(() => page.getByRole('row').filter({ hasText: /^\d/ }).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await page.screenshot({ path: path.join(screenshotDir(), 'user-stats.png'), fullPage: true });
  });
});
