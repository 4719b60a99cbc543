import path from 'node:path';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOk, asAdmin, unique } from './api';
import { adminPassword, type Browser, baseUrl, logIn, openBrowser, pickCompany, screenshotDir } from './browser';

/**
 * Device registration (product/device): register a device in the dialog, find it with the
 * filters, move it to another company with the bulk bar, delete every device the filter matches.
 */

const shown = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'visible', timeout });
const gone = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'hidden', timeout });

describe('device registration screen', () => {
  let b: Browser;
  const compA = unique('dev-a');
  const compB = unique('dev-b');
  const prefix = `E2E${Date.now().toString(36).toUpperCase()}`;
  const uid = `${prefix}-0001`;
  let pk = '';

  beforeAll(async () => {
    const token = await asAdmin();
    const a = await apiOk<{ comp_id: number }>('v2/user/company/add', { comp_name: compA, comp_parent_id: 1, comp_type: 3 }, token);
    await apiOk('v2/user/company/add', { comp_name: compB, comp_parent_id: 1, comp_type: 3 }, token);
    pk = (await apiOk<{ pk: string }>('user/product/add', { name: unique('dev-prod'), comp_id: a.data.comp_id }, token)).data.pk;
    // A second device of the same company that the UID filter must leave out.
    await apiOk('v2/iot/web/uid/reg/add', { uid: `OTHER${prefix}`, pk, comp_id: a.data.comp_id }, token);
    b = await openBrowser();
    await logIn(b.page, 'admin', adminPassword());
  });
  afterAll(async () => {
    await b?.close();
  });

  it('adds a device, filters, bulk-assigns it to another company, deletes by filter', async () => {
    const { page } = b;
    await page.goto(`${baseUrl()}/product/device?lang=en`);
    const table = page.getByRole('table');
    await shown(page.getByRole('button', { name: 'Assign to company' }));

    // Add: the dialog checks the formats before sending.
    await page.getByRole('button', { name: /^(plus )?Add$/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Register a device' });
    await shown(dialog);
    await dialog.getByLabel('UID').fill('ab');
    await dialog.getByLabel('MAC').fill('zz:zz');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await shown(dialog.getByText('UID: 6–32 letters, digits or hyphens'));
    await shown(dialog.getByText('MAC: 12 hex digits, optionally separated by : or -'));
    await dialog.getByLabel('UID').fill(uid.toLowerCase());
    await dialog.getByLabel('MAC').fill('0a-1b-2c-3d-4e-5f');
    await dialog.getByLabel('Product').click();
    await page.getByTitle(new RegExp(`\\(${pk}\\)$`)).click();
    await pickCompany(page, dialog, 'Company', compA);
    await dialog.getByRole('button', { name: 'OK' }).click();
    await gone(dialog);
    await shown(table.getByRole('cell', { name: uid, exact: true }));
    await shown(table.getByRole('cell', { name: '0A:1B:2C:3D:4E:5F' }));

    // Filter by UID prefix: only ours.
    const filters = page.getByRole('form', { name: 'Filters' });
    await filters.getByLabel('UID').fill(prefix.toLowerCase());
    await filters.getByRole('button', { name: 'Search' }).click();
    await shown(page.getByText('1 in total', { exact: true }).first());
    await expect(table.getByRole('cell', { name: `OTHER${prefix}` }).count()).resolves.toBe(0);
    await page.screenshot({ path: path.join(screenshotDir(), 'devices-en.png'), fullPage: true });

    // Bulk-assign the selected row to company B.
    await table
      .getByRole('row', { name: new RegExp(uid) })
      .getByRole('checkbox')
      .check();
    await page.getByRole('button', { name: 'Assign to company' }).click();
    const bulk = page.getByRole('dialog', { name: 'Assign to company' });
    await shown(bulk);
    await shown(bulk.getByText('The 1 selected devices'));
    await pickCompany(page, bulk, 'New company', compB);
    await bulk.getByRole('button', { name: 'Apply to 1' }).click();
    await gone(bulk);
    await shown(table.getByRole('row', { name: new RegExp(uid) }).getByRole('cell', { name: compB }));

    // Delete every device the filter matches.
    await page.getByRole('button', { name: /^(delete )?Delete$/ }).click();
    const del = page.getByRole('dialog', { name: 'Delete' });
    await shown(del);
    await del.getByText('All 1 devices matching the filters').click();
    await shown(del.getByText('1 devices will be deleted', { exact: false }));
    await del.getByRole('button', { name: 'Apply to 1' }).click();
    await gone(del);
    await gone(table.getByRole('cell', { name: uid, exact: true }));
    const left = await apiOk<unknown[]>('v2/iot/web/uid/reg/list', { uid: prefix }, await asAdmin());
    expect(left.count).toBe(0);
    const other = await apiOk<unknown[]>('v2/iot/web/uid/reg/list', { uid: `OTHER${prefix}` }, await asAdmin());
    expect(other.count).toBe(1);

    await page.goto(`${baseUrl()}/product/device?lang=zh-CN`);
    await shown(page.getByRole('button', { name: '分配公司' }));
    await page.screenshot({ path: path.join(screenshotDir(), 'devices-zh-CN.png'), fullPage: true });
  });
});
