import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOk, asAdmin, rootCompany, unique } from './api';
import { adminPassword, type Browser, baseUrl, logIn, openBrowser, screenshotDir } from './browser';

/**
 * A list on a phone (390 × 844): the filters past the first fold behind "More filters", so the
 * rows are in the first screen (product/device has ten filters); the toggle shows the others and
 * says how many of them are set while folded. On a desktop nothing folds.
 */

const shown = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'visible', timeout });
const gone = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'hidden', timeout });

/** Screenshot once antd's animations are over. */
const snap = async (page: Page, name: string) => {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  await page.screenshot({ path: path.join(screenshotDir(), name) });
};

describe('a list on a phone', () => {
  let phone: Browser;
  const prefix = `PH${Date.now().toString(36).toUpperCase()}`;

  beforeAll(async () => {
    const token = await asAdmin();
    const root = await rootCompany();
    const pk = (await apiOk<{ pk: string }>('user/product/add', { name: unique('phone-prod'), comp_id: root.comp_id }, token)).data.pk;
    await apiOk('v2/iot/web/uid/reg/add', { uid: `${prefix}-0001`, pk, comp_id: root.comp_id }, token);
    phone = await openBrowser({ viewport: { width: 390, height: 844 } });
    await logIn(phone.page, 'admin', adminPassword());
  });
  afterAll(async () => {
    await phone?.close();
  });

  it('shows the first row without scrolling and folds the filters past the first behind a toggle', async () => {
    const { page } = phone;
    await page.goto(`${baseUrl()}/product/device?lang=en`);
    const filters = page.getByRole('form', { name: 'Filters' });
    const firstRow = page.getByRole('table').locator('tbody tr.ant-table-row').first();
    await shown(firstRow);
    await snap(page, 'phone-device-390-en.png');

    // The first row is inside the viewport, the page not scrolled.
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    const box = await firstRow.boundingBox();
    expect(box).not.toBeNull();
    expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(844);

    // One filter shows; the other nine wait behind the toggle.
    await shown(filters.getByLabel('UID'));
    expect(await filters.getByLabel('MAC').isVisible()).toBe(false);
    expect(await filters.getByLabel('Vendor').isVisible()).toBe(false);
    const more = filters.getByRole('button', { name: 'More filters' });
    expect(await more.getAttribute('aria-expanded')).toBe('false');

    await more.click();
    await shown(filters.getByLabel('MAC'));
    await shown(filters.getByLabel('Vendor'));
    await shown(filters.getByLabel('Registered between'));
    const fewer = filters.getByRole('button', { name: 'Fewer filters' });
    expect(await fewer.getAttribute('aria-expanded')).toBe('true');
    await snap(page, 'phone-device-390-en-expanded.png');

    // A folded filter that is set still applies, and the toggle says so.
    await filters.getByLabel('Vendor').fill('nobody-makes-this');
    await fewer.click();
    await gone(filters.getByLabel('Vendor'));
    await shown(filters.getByRole('button', { name: 'More filters (1 set)' }));
    await filters.getByRole('button', { name: 'Search' }).click();
    await shown(page.getByText('0 in total', { exact: true }).first());
    await filters.getByRole('button', { name: 'Reset' }).click();
    await shown(filters.getByRole('button', { name: 'More filters', exact: true }));
    await shown(firstRow);
  });

  it('names the toggle in Chinese', async () => {
    const { page } = phone;
    await page.goto(`${baseUrl()}/product/device?lang=zh-CN`);
    const filters = page.getByRole('form', { name: '筛选' });
    await filters.getByRole('button', { name: '更多筛选' }).click();
    await shown(filters.getByRole('button', { name: '收起筛选' }));
  });

  it('folds nothing on a desktop', async () => {
    const desktop = await openBrowser({ viewport: { width: 1440, height: 900 } });
    try {
      const { page } = desktop;
      await logIn(page, 'admin', adminPassword());
      await page.goto(`${baseUrl()}/product/device?lang=en`);
      const filters = page.getByRole('form', { name: 'Filters' });
      await shown(page.getByRole('table').locator('tbody tr.ant-table-row').first());
      await shown(filters.getByLabel('Vendor'));
      await shown(filters.getByLabel('Last online between'));
      expect(await filters.getByRole('button', { name: /More filters/ }).count()).toBe(0);
      await snap(page, 'desktop-device-1440-en.png');
    } finally {
      await desktop.close();
    }
  });
});
