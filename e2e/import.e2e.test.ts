import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOk, asAdmin, unique } from './api';
import { adminPassword, type Browser, baseUrl, logIn, openBrowser, pickCompany, screenshotDir } from './browser';

/**
 * Bulk device work on product/device and product/dev_dup: import an .xlsx with bad rows (progress,
 * counts, the report), find the imported devices, export and download, resolve a duplicate.
 */
const shown = (locator: Locator, timeout = 20_000) => locator.waitFor({ state: 'visible', timeout });
const gone = (locator: Locator, timeout = 20_000) => locator.waitFor({ state: 'hidden', timeout });

const readRows = async (file: string) => {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  const rows: unknown[][] = [];
  wb.worksheets[0]?.eachRow((r) => {
    rows.push((r.values as unknown[]).slice(1));
  });
  return rows;
};

describe('device import, export and duplicates', () => {
  let b: Browser;
  const comp = unique('imp');
  const prefix = `IMP${Date.now().toString(36).toUpperCase()}`;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-import-'));
  const sheet = path.join(tmp, 'devices.xlsx');
  let pk = '';

  beforeAll(async () => {
    const token = await asAdmin();
    const c = await apiOk<{ comp_id: number }>('v2/user/company/add', { comp_name: comp, comp_parent_id: 1, comp_type: 3 }, token);
    pk = (await apiOk<{ pk: string }>('user/product/add', { name: unique('imp-prod'), comp_id: c.data.comp_id }, token)).data.pk;
    await apiOk('v2/iot/web/uid/reg/add', { uid: `${prefix}-0009`, pk, comp_id: c.data.comp_id }, token);
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('devices');
    ws.addRow(['UID', 'MAC', 'PK']);
    ws.addRow([`${prefix}-0001`, '', pk]);
    ws.addRow([`${prefix}-0002`, 'AA:BB:CC:DD:EE:02', pk]);
    ws.addRow(['bad uid!', '', pk]);
    ws.addRow([`${prefix}-0003`, '', pk]);
    ws.addRow([`${prefix}-0009`, '', pk]); // already registered
    await wb.xlsx.writeFile(sheet);
    b = await openBrowser();
    await logIn(b.page, 'admin', adminPassword());
  });
  afterAll(async () => {
    await b?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('imports an .xlsx with bad rows: progress, counts, report, devices in the list', async () => {
    const { page } = b;
    await page.goto(`${baseUrl()}/product/device?lang=en`);
    await page.getByRole('button', { name: /Import$/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Import devices from xlsx' });
    await shown(dialog);
    await shown(dialog.getByRole('link', { name: /Download the xlsx template/ }));
    // Only xlsx: a csv is refused before anything is sent.
    const csv = path.join(tmp, 'devices.csv');
    fs.writeFileSync(csv, 'uid\nx');
    await dialog.locator('input[type=file]').setInputFiles(csv);
    await shown(page.getByText('Only xlsx files may be uploaded').first());
    await pickCompany(page, dialog, 'Owner company', comp);
    await dialog.locator('input[type=file]').setInputFiles(sheet);
    await dialog.getByRole('button', { name: 'Upload and import' }).click();
    await shown(dialog.getByRole('progressbar', { name: 'Import progress' }));
    await shown(dialog.getByTestId('import-state').getByText('Imported'));
    await shown(dialog.getByText('5 of 5 rows checked'));
    const stat = (title: string) => dialog.locator('.ant-statistic').filter({ hasText: title }).locator('.ant-statistic-content-value');
    await expect(stat('Imported').textContent()).resolves.toBe('3');
    await expect(stat('Refused').textContent()).resolves.toBe('2');
    await page.screenshot({ path: path.join(screenshotDir(), 'import-result-en.png') });
    const [report] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('link', { name: /Download the report of refused rows/ }).click(),
    ]);
    const reportFile = path.join(tmp, 'report.xlsx');
    await report.saveAs(reportFile);
    const rows = await readRows(reportFile);
    expect(rows.slice(1).map((r) => [r[0], r[4]])).toEqual([
      [4, 'uid_format'],
      [6, 'duplicate_uid'],
    ]);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await gone(dialog);
    const filters = page.getByRole('form', { name: 'Filters' });
    await filters.getByLabel('UID').fill(prefix);
    await filters.getByRole('button', { name: 'Search' }).click();
    await shown(page.getByText('4 in total', { exact: true }).first());
    for (const n of ['0001', '0002', '0003']) await shown(page.getByRole('cell', { name: `${prefix}-${n}`, exact: true }));
  });

  it('exports the filtered list and downloads the file', async () => {
    const { page } = b;
    await page
      .getByRole('button', { name: /Export$/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog', { name: 'Export devices' });
    await shown(dialog);
    const today = new Date();
    const day = (d: Date) => d.toISOString().slice(0, 10);
    const start = dialog.getByPlaceholder('Start date');
    await start.click();
    await start.fill(day(new Date(today.getTime() - 7 * 86_400_000)));
    await start.press('Enter');
    const end = dialog.getByPlaceholder('End date');
    await end.fill(day(today));
    await end.press('Enter');
    await dialog.getByRole('button', { name: /Export$/ }).click();
    const table = dialog.getByRole('table');
    await shown(table.getByText('Success').first());
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      table
        .getByRole('link', { name: /Download/ })
        .first()
        .click(),
    ]);
    const out = path.join(tmp, 'export.xlsx');
    await file.saveAs(out);
    const rows = await readRows(out);
    expect(
      rows
        .slice(1)
        .map((r) => String(r[1]))
        .sort(),
    ).toEqual([`${prefix}-0001`, `${prefix}-0002`, `${prefix}-0003`, `${prefix}-0009`]);
    await page.keyboard.press('Escape');
  });

  it('resolves the duplicate the import met on product/dev_dup', async () => {
    const { page } = b;
    await page.goto(`${baseUrl()}/product/dev_dup?lang=en`);
    const row = page.getByRole('row', { name: new RegExp(`${prefix}-0009`) }).first();
    await shown(row);
    await shown(row.getByText('Pending'));
    await row.getByRole('button', { name: /Keep existing/ }).click();
    await page.getByRole('tooltip').getByRole('button', { name: 'OK' }).click();
    await shown(page.getByText('Resolved').first());
    await shown(row.getByText('Keep existing'));
    await page.screenshot({ path: path.join(screenshotDir(), 'dev-dup-en.png'), fullPage: true });
  });

  it('fails a workbook with the header only, and says why', async () => {
    const { page } = b;
    const headerOnly = path.join(tmp, 'header-only.xlsx');
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('devices').addRow(['UID', 'MAC', 'PK']);
    await wb.xlsx.writeFile(headerOnly);
    await page.goto(`${baseUrl()}/product/device?lang=en`);
    await page.getByRole('button', { name: /Import$/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Import devices from xlsx' });
    await shown(dialog);
    await pickCompany(page, dialog, 'Owner company', comp);
    await dialog.locator('input[type=file]').setInputFiles(headerOnly);
    await dialog.getByRole('button', { name: 'Upload and import' }).click();
    await shown(dialog.getByTestId('import-state').getByText('Failed'));
    await shown(dialog.getByText('The workbook holds no device row: it is empty or has the header only.'));
    await dialog.getByRole('button', { name: 'Done' }).click();
    await gone(dialog);
  });

  it("imports in the console's language: default product for empty PK cells, report in Chinese", async () => {
    const { page } = b;
    const zhSheet = path.join(tmp, 'zh.xlsx');
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('devices');
    ws.addRow(['UID', 'MAC', 'PK']);
    ws.addRow([`${prefix}-0101`, '', '']); // the default product
    ws.addRow(['bad uid!', '', '']);
    await wb.xlsx.writeFile(zhSheet);
    await page.goto(`${baseUrl()}/product/device?lang=zh-CN`);
    await page.getByRole('button', { name: /导入$/ }).click();
    const dialog = page.getByRole('dialog', { name: '从 xlsx 导入设备' });
    await shown(dialog);
    await pickCompany(page, dialog, '所属公司', comp);
    await dialog.getByLabel('默认产品').click();
    await page.getByTitle(new RegExp(`\\(${pk}\\)$`)).click();
    await dialog.locator('input[type=file]').setInputFiles(zhSheet);
    await dialog.getByRole('button', { name: '上传并导入' }).click();
    await shown(dialog.getByTestId('import-state').getByText('已导入'));
    const [report] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('link', { name: /下载未导入行的报告/ }).click()]);
    const reportFile = path.join(tmp, 'report-zh.xlsx');
    await report.saveAs(reportFile);
    const rows = await readRows(reportFile);
    // Written by the server in the language the console sent (Accept-Language): code and words.
    expect(rows.slice(1).map((r) => [r[0], r[4], r[5]])).toEqual([[3, 'uid_format', 'UID 格式错误']]);
    const imported = await apiOk<{ pk: string }[]>('v2/iot/web/uid/reg/list', { uid: `${prefix}-0101` }, await asAdmin());
    expect(imported.data.map((d) => d.pk)).toEqual([pk]);
    await dialog.getByRole('button', { name: '完成' }).click();
    await gone(dialog);
  });
});
