import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiOk, asAdmin, rootCompany } from './api';
import { adminPassword, type Browser, baseUrl, logIn, openBrowser, screenshotDir } from './browser';

/**
 * Device state in the browser: the state list open, the simulator connects its devices,
 * and the rows turn online without a reload (live stream → TanStack Query cache).
 */
const url = (p: string) => `${baseUrl()}${p}`;
const ROOT = path.resolve(import.meta.dirname, '..');
const PREFIX = `E2E${Date.now().toString(36).toUpperCase()}`;
const UIDS = [`${PREFIX}-000001`, `${PREFIX}-000002`];

const runSimulator = (): ChildProcess =>
  spawn(
    process.execPath,
    [
      path.join(ROOT, 'scripts/simulate.mjs'),
      '--devices',
      '2',
      '--prefix',
      PREFIX,
      '--heartbeat',
      '2',
      '--seconds',
      '60',
      '--url',
      baseUrl(),
    ],
    // No --key: the simulator reads DATA_DIR/ingest.key, the key the server generated on first start.
    { cwd: ROOT, env: { ...process.env, DATA_DIR: inject('dataDir'), ADMIN_PASSWORD: adminPassword() }, stdio: 'inherit' },
  );

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(screenshotDir(), `${name}.png`), fullPage: true });

describe('device state', () => {
  let admin: Browser;
  let simulator: ChildProcess | null = null;

  beforeAll(async () => {
    const token = await asAdmin();
    const root = await rootCompany();
    const product = await apiOk<{ pk: string }>('user/product/add', { name: `${PREFIX} product`, comp_id: root.comp_id }, token);
    for (const uid of UIDS) await apiOk('v2/iot/web/uid/reg/add', { uid, pk: product.data.pk, comp_id: root.comp_id }, token);
    admin = await openBrowser();
    await logIn(admin.page, 'admin', adminPassword());
  });
  afterAll(async () => {
    if (simulator && simulator.exitCode === null) {
      simulator.kill('SIGTERM');
      await new Promise((r) => simulator?.once('exit', r));
    }
    await admin?.close();
  });

  it('shows devices going online in the open list when the simulator connects them', async () => {
    const { page } = admin;
    await page.goto(url('/product/device_state?lang=en'));
    const table = page.getByRole('table', { name: 'Device state' });
    await page.getByRole('form', { name: 'Filters' }).getByLabel('UID').fill(PREFIX);
    await page.getByRole('button', { name: 'Search' }).click();
    const rows = table.getByRole('row').filter({ hasText: PREFIX });
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(2);
    await expect.poll(() => rows.filter({ hasText: 'Offline · never seen' }).count()).toBe(2);
    await page.getByText('Live', { exact: true }).waitFor({ timeout: 10_000 });
    // A marker on the window: a reload would drop it.
    await page.evaluate(() => {
      (window as unknown as { __noReload: boolean }).__noReload = true;
    });

    simulator = runSimulator();
    await expect.poll(() => rows.filter({ hasText: 'Online' }).count(), { timeout: 20_000 }).toBe(2);
    await rows.first().getByText('updated').waitFor();
    expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
    // NAT type, vendor and protocol came with the connection.
    const text = (await rows.first().textContent()) ?? '';
    expect(text).toMatch(/NAT|Public/);
    await shot(page, 'device-state-en');
  });

  it('opens one device in depth from its row, with state history', async () => {
    const { page } = admin;
    await page.getByRole('link', { name: UIDS[0] }).click();
    await page.waitForURL(/\/operate\/device\?uid=/);
    await page.getByText('State history').waitFor();
    const history = page.getByRole('table', { name: 'State history' });
    await expect.poll(() => history.getByRole('row').filter({ hasText: 'Online' }).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    // The connection's details in words: field names and the NAT type by name, not the wire's keys and numbers.
    const online = (await history.getByRole('row').filter({ hasText: 'Online' }).first().textContent()) ?? '';
    expect(online).toMatch(/Network type: (Unknown|Public network|[A-Za-z-]+ NAT)/);
    expect(online).toMatch(/Vendor: /);
    expect(online).not.toContain('network_type');
    await shot(page, 'operate-device-en');
  });

  it('wake state, licence codes, and the screens in Chinese', async () => {
    const { page } = admin;
    await page.goto(url('/product/awake?lang=en'));
    await page.getByRole('table', { name: 'Wake state' }).waitFor();
    await shot(page, 'awake-en');
    await page.goto(url('/product/lic_list?lang=en'));
    await page.getByRole('table', { name: 'Licence codes' }).waitFor();
    await shot(page, 'lic-list-en');
    await page.goto(url('/product/device_state?lang=zh-CN'));
    await page.getByRole('table', { name: '设备状态' }).waitFor();
    await page.getByText('实时', { exact: true }).waitFor({ timeout: 10_000 });
    await shot(page, 'device-state-zh-CN');
    await page.goto(url(`/operate/device?uid=${UIDS[0]}&lang=zh-CN`));
    await page.getByText('状态历史').waitFor();
    await shot(page, 'operate-device-zh-CN');
    await page.goto(url('/product/awake?lang=zh-CN'));
    await page.getByRole('table', { name: '唤醒状态' }).waitFor();
    await shot(page, 'awake-zh-CN');
    await page.goto(url('/product/lic_list?lang=zh-CN'));
    await page.getByRole('table', { name: '授权码' }).waitFor();
    await shot(page, 'lic-list-zh-CN');
  });
});
