import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCompany, api, apiOk, asAdmin, rootCompany, unique } from './api';
import { adminPassword, type Browser, baseUrl, logIn, openBrowser, pickCompany, screenshotDir } from './browser';

/** The IoT product screen as an operator uses it: image upload, attributes, sharing, delete. */

const url = (p: string) => `${baseUrl()}${p}`;
const shown = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'visible', timeout });
const gone = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'hidden', timeout });

/** A real 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

describe('product/iot', () => {
  let admin: Browser;
  const owner = unique('maker');
  const partner = unique('partner');
  const name = unique('cam');
  let pk = '';

  beforeAll(async () => {
    const root = await rootCompany();
    await addCompany(owner, root.comp_id, { comp_type: 3 });
    await addCompany(partner, root.comp_id, { comp_type: 5 });
    admin = await openBrowser();
    await logIn(admin.page, 'admin', adminPassword());
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('creates a product with an image and shows its thumbnail', async () => {
    const { page } = admin;
    await page.goto(url('/product/iot?lang=en'));
    await page.getByRole('button', { name: 'Add' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add product' });
    await pickCompany(page, dialog, 'Company', owner);
    await dialog.getByLabel('Name', { exact: true }).fill(name);
    await dialog.locator('input[type=file]').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    // The preview appears once the upload answered.
    await shown(dialog.getByRole('img', { name: 'Image', exact: true }));
    await dialog.getByLabel('Attributes (JSON)').fill('{"resolution": "1080p"}');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await gone(dialog);

    const table = page.getByRole('table', { name: 'IoT products' });
    const row = table.getByRole('row').filter({ hasText: name });
    await shown(row);
    const thumb = row.getByRole('img', { name: `Image of ${name}` });
    await shown(thumb);
    await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
    const text = (await row.textContent()) ?? '';
    expect(text).toContain(owner);
    expect(text).toContain('Directly connected device');
    const listed = await api<{ pk: string; attr: string; img: string }[]>('v2/umh/admin/product/list', { name }, await asAdmin());
    pk = listed.data[0]?.pk ?? '';
    expect(pk).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(text).toContain(pk);
    expect(JSON.parse(listed.data[0]?.attr ?? '')).toEqual({ resolution: '1080p' });
    await page.screenshot({ path: `${screenshotDir()}/product-list-en.png` });
    // Chinese: column titles, node type and category labels follow the language.
    await page.goto(url('/product/iot?lang=zh-CN'));
    const zhRow = page.getByRole('table').getByRole('row').filter({ hasText: name });
    await shown(zhRow);
    expect((await zhRow.textContent()) ?? '').toContain('直连设备');
    await page.screenshot({ path: `${screenshotDir()}/product-list-zh-CN.png` });
    await page.goto(url('/product/iot?lang=en'));
  });

  it('edit: invalid JSON in attributes is refused with a message', async () => {
    const { page } = admin;
    const row = page.getByRole('table', { name: 'IoT products' }).getByRole('row').filter({ hasText: name });
    await row.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit product' });
    const attr = dialog.getByLabel('Attributes (JSON)');
    expect(JSON.parse(await attr.inputValue())).toEqual({ resolution: '1080p' });
    await attr.fill('{"resolution": ');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await shown(dialog.getByText('Enter valid JSON'));
    // Valid JSON with an empty value: the server's rule, shown on the field.
    await attr.fill('{"resolution": ""}');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await shown(dialog.getByText('Attribute value cannot be empty'));
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await gone(dialog);
    const listed = await api<{ attr: string }[]>('v2/umh/admin/product/list', { name }, await asAdmin());
    expect(JSON.parse(listed.data[0]?.attr ?? '')).toEqual({ resolution: '1080p' });
  });

  it('shares the product with a company and stops sharing', async () => {
    const { page } = admin;
    const row = page.getByRole('table', { name: 'IoT products' }).getByRole('row').filter({ hasText: name });
    await row.getByRole('button', { name: 'Share' }).click();
    const dialog = page.getByRole('dialog', { name: `Share “${name}” with companies` });
    await shown(dialog.getByText('Not shared with any company'));
    await pickCompany(page, dialog, 'Company to share with', partner);
    await dialog.getByRole('button', { name: /Share$/ }).click();
    const shares = dialog.getByRole('table', { name: 'Shared with' });
    await shown(shares.getByRole('row').filter({ hasText: partner }));
    await page.screenshot({ path: `${screenshotDir()}/product-share-en.png` });

    await shares.getByRole('row').filter({ hasText: partner }).getByRole('button', { name: 'Stop sharing' }).click();
    await page.getByRole('tooltip').getByRole('button', { name: 'OK' }).click();
    await shown(dialog.getByText('Not shared with any company'));
    await dialog.getByRole('button', { name: 'Close' }).click();
    await gone(dialog);
  });

  it('refuses to delete a product licence codes name, and says why', async () => {
    const { page } = admin;
    const token = await asAdmin();
    const licensed = unique('lic-cam');
    const root = await rootCompany();
    const made = await apiOk<{ pk: string }>('user/product/add', { name: licensed, comp_id: root.comp_id }, token);
    await apiOk('v2/umh/admin/liccode/add', { pk: made.data.pk, comp_id: root.comp_id, count: 1 }, token);
    await page.goto(url('/product/iot?lang=en'));
    const row = page.getByRole('table', { name: 'IoT products' }).getByRole('row').filter({ hasText: licensed });
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('tooltip').getByRole('button', { name: 'Delete' }).click();
    await shown(page.getByRole('alert').filter({ hasText: 'Licence codes name this product; it cannot be deleted' }));
    await shown(row);
    // The refused confirmation stays open: cancel it.
    const confirm = page.getByRole('tooltip').filter({ has: page.getByRole('button', { name: 'Cancel' }) });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await gone(confirm);
  });

  it('deletes the product after confirmation', async () => {
    const { page } = admin;
    const table = page.getByRole('table', { name: 'IoT products' });
    const row = table.getByRole('row').filter({ hasText: name });
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('tooltip').getByRole('button', { name: 'Delete' }).click();
    await gone(row);
    const answer = await api('user/product/get', { pk }, await asAdmin());
    expect(answer.code).toBe(406);
  });
});
