import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LicenceRow } from '@iot/contract';
import ExcelJS from 'exceljs';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOk, asAdmin, unique } from './api';
import { adminPassword, type Browser, baseUrl, logIn, openBrowser, pickCompany, screenshotDir } from './browser';

/**
 * Licence codes (product/lic_list): generate a batch of 5 in the dialog, see them, revoke one,
 * bind one to a device, export the batch and read the downloaded .xlsx.
 */

const shown = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'visible', timeout });
const gone = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'hidden', timeout });

describe('licence codes screen', () => {
  let b: Browser;
  const company = unique('lic-co');
  const uid = `LIC${Date.now().toString(36).toUpperCase()}-1`;
  let pk = '';
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'iot-lic-'));

  beforeAll(async () => {
    const token = await asAdmin();
    const c = await apiOk<{ comp_id: number }>('v2/user/company/add', { comp_name: company, comp_parent_id: 1, comp_type: 3 }, token);
    pk = (await apiOk<{ pk: string }>('user/product/add', { name: unique('lic-prod'), comp_id: c.data.comp_id }, token)).data.pk;
    await apiOk('v2/iot/web/uid/reg/add', { uid, pk, comp_id: c.data.comp_id }, token);
    b = await openBrowser();
    await logIn(b.page, 'admin', adminPassword());
  });
  afterAll(async () => {
    await b?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('generates 5 codes, revokes one, binds one, exports the batch', async () => {
    const { page } = b;
    await page.goto(`${baseUrl()}/product/lic_list?lang=en`);
    const table = page.getByRole('table');

    // Generate: product, owner company, count.
    await page.getByRole('button', { name: /Generate codes$/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Generate licence codes' });
    await shown(dialog);
    await dialog.getByLabel('Product key').click();
    await page.getByTitle(new RegExp(`\\(${pk}\\)$`)).click();
    await pickCompany(page, dialog, 'Owner company', company);
    await dialog.getByLabel('Number of codes').fill('5');
    await dialog.getByRole('button', { name: 'Generate codes' }).click();
    const done = dialog.getByText(/^5 codes generated \(batch \d+\)$/);
    await shown(done);
    const batchId = Number((await done.textContent())?.match(/batch (\d+)/)?.[1]);
    await page.screenshot({ path: path.join(screenshotDir(), 'licences-generated-en.png') });
    await dialog.getByRole('button', { name: 'Done' }).click();
    await gone(dialog);

    // The batch in the list: 5 unused codes.
    const codes = (await apiOk<LicenceRow[]>('v2/umh/admin/liccode/list', { batch_id: batchId }, await asAdmin())).data
      .map((r) => r.code)
      .sort();
    expect(codes).toHaveLength(5);
    const filters = page.getByRole('form', { name: 'Filters' });
    await filters.getByLabel('Batch').fill(String(batchId));
    await filters.getByRole('button', { name: 'Search' }).click();
    await shown(page.getByText('5 in total', { exact: true }).first());
    for (const code of codes) await shown(table.getByRole('cell', { name: code, exact: true }));
    await page.screenshot({ path: path.join(screenshotDir(), 'licences-en.png'), fullPage: true });

    // Revoke the first.
    const revokedRow = table.getByRole('row', { name: new RegExp(codes[0] as string) });
    await revokedRow.getByRole('button', { name: /Revoke$/ }).click();
    await page.getByRole('tooltip').getByRole('button', { name: 'OK' }).click();
    await shown(revokedRow.getByRole('cell', { name: 'Revoked', exact: true }));
    await expect(revokedRow.getByRole('button', { name: /Bind to device$/ }).count()).resolves.toBe(0);

    // Bind the second to the device.
    const boundRow = table.getByRole('row', { name: new RegExp(codes[1] as string) });
    await boundRow.getByRole('button', { name: /Bind to device$/ }).click();
    const bind = page.getByRole('dialog', { name: `Bind code ${codes[1]} to a device` });
    await shown(bind);
    await bind.getByLabel('Device UID').fill(uid.toLowerCase());
    await bind.getByRole('button', { name: 'Bind to device' }).click();
    await gone(bind);
    await shown(boundRow.getByRole('cell', { name: 'Used', exact: true }));
    await shown(boundRow.getByRole('cell', { name: uid, exact: true }));

    // Export the batch: an .xlsx holding its five codes with their states.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /Export$/ }).click()]);
    const file = path.join(tmp, 'licences.xlsx');
    await download.saveAs(file);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    const rows: unknown[][] = [];
    wb.worksheets[0]?.eachRow((r) => {
      rows.push((r.values as unknown[]).slice(1));
    });
    expect(rows[0]?.slice(0, 3)).toEqual(['Licence code', 'State', 'Device UID']);
    const body = rows.slice(1);
    expect(body.map((r) => r[0]).sort()).toEqual(codes);
    const stateOf = (code: string) => body.find((r) => r[0] === code)?.[1];
    expect(stateOf(codes[0] as string)).toBe('Revoked');
    expect(stateOf(codes[1] as string)).toBe('Used');
    expect(body.find((r) => r[0] === codes[1])?.[2]).toBe(uid);
  });
});
