import type { StatsOutput } from '@iot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOk, asAdmin, unique } from './api';
import { adminPassword, type Browser, baseUrl, logIn, openBrowser, screenshotDir } from './browser';

/** info/dev: the statistics page draws its charts, and its table view holds the API's numbers. */

const url = (p: string) => `${baseUrl()}${p}`;
const DAY = 86_400;

describe('info/dev', () => {
  let admin: Browser;
  let company = '';
  let compId = 0;

  beforeAll(async () => {
    const token = await asAdmin();
    company = unique('stats-co');
    const c = await apiOk<{ comp_id: number }>('v2/user/company/add', { comp_name: company, comp_parent_id: 1, comp_type: 3 }, token);
    compId = c.data.comp_id;
    const pk = (await apiOk<{ pk: string }>('user/product/add', { name: unique('stats-prod'), comp_id: c.data.comp_id }, token)).data.pk;
    const tag = Date.now().toString(36).toUpperCase();
    for (let i = 0; i < 3; i++) await apiOk('v2/iot/web/uid/reg/add', { uid: `ST${tag}${i}`, pk, comp_id: c.data.comp_id }, token);
    admin = await openBrowser();
    await logIn(admin.page, 'admin', adminPassword());
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('renders the charts, and the table view matches the API', async () => {
    const { page } = admin;
    await page.goto(url('/info/dev?lang=en'));
    await page.getByRole('heading', { name: 'Device statistics' }).waitFor();
    const trend = page.getByRole('img', { name: 'Daily registrations, activations and online devices' });
    await trend.locator('canvas').first().waitFor();
    expect(await page.locator('canvas').count()).toBeGreaterThanOrEqual(3);
    await page.screenshot({ path: `${screenshotDir()}/stats-en.png`, fullPage: true });

    const today = Math.floor(Date.now() / 1000 / DAY);
    const s = (
      await apiOk<StatsOutput>('v2/iot/dev/statistics/get', { gmt_start: (today - 29) * DAY, gmt_end: (today + 1) * DAY }, await asAdmin())
    ).data;
    expect(s.totals.registered).toBeGreaterThanOrEqual(3);

    await page.getByText('Tables', { exact: true }).click();
    const tables = page.getByRole('table');
    await tables.first().waitFor();
    // The daily table: one row per day with the API's registrations.
    const todayRow = page.getByRole('row').filter({ hasText: s.series.at(-1)?.day ?? '' });
    const cells = await todayRow.first().getByRole('cell').allTextContents();
    const last = s.series.at(-1);
    expect(cells).toEqual([last?.day, String(last?.registered), String(last?.activated), String(last?.online)]);
    // Totals shown as statistics match too.
    await page.getByText(String(s.totals.devices), { exact: true }).first().waitFor();

    // Filtered to the new company, the company table holds exactly it, with its three registrations
    // (whatever else the database holds, so the check always applies).
    await page.getByLabel('Company').click();
    await page.getByLabel('Company').fill(company);
    await page.getByRole('tree').getByTitle(company, { exact: true }).click();
    const mine = (
      await apiOk<StatsOutput>(
        'v2/iot/dev/statistics/get',
        { gmt_start: (today - 29) * DAY, gmt_end: (today + 1) * DAY, comp_id: compId },
        await asAdmin(),
      )
    ).data;
    expect(mine.companies).toEqual([{ comp_id: compId, comp_name: company, registered: 3, activated: 0 }]);
    const companyRow = page.getByRole('row').filter({ hasText: company });
    await companyRow.first().waitFor();
    // The filter reached the page: the company table holds that one row only.
    const companyTable = page.getByRole('table').filter({ has: companyRow });
    await expect.poll(() => companyTable.locator('tbody tr.ant-table-row').count()).toBe(1);
    expect(await companyRow.getByRole('cell').allTextContents()).toEqual([company, '3', '0']);

    // The download link carries the ticket and answers an .xlsx.
    const href = await page.getByRole('link', { name: /Download \.xlsx/ }).getAttribute('href');
    expect(href).toContain('ticket=');
    const res = await fetch(url(href ?? ''));
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
  });

  it('reads in Chinese', async () => {
    const { page } = admin;
    await page.goto(url('/info/dev?lang=zh-CN'));
    await page.getByRole('heading', { name: '设备统计' }).waitFor();
    await page.getByRole('img', { name: '每日新注册、新激活与在线设备' }).locator('canvas').first().waitFor();
    await page.screenshot({ path: `${screenshotDir()}/stats-zh-CN.png`, fullPage: true });
  });

  it('shows the device trend card on the dashboard', async () => {
    const { page } = admin;
    await page.goto(url('/dashboard?lang=en'));
    const card = page.getByRole('img', { name: 'Device registrations, last 30 days' });
    await card.locator('canvas').first().waitFor();
  });
});
