import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPassword, type Browser, baseUrl, logIn, openBrowser } from './browser.js';

let browser: Browser;
beforeAll(async () => {
  browser = await openBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('logout', () => {
  it('ends the session, keeps the query, and the next login starts on the dashboard', async () => {
    const { page } = browser;
    await logIn(page, 'admin', adminPassword());
    await page.goto(`${baseUrl()}/system/role?lang=en`);
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/login\?lang=en$/);
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => /token/i.test(k)))).toEqual([]);
    // The old page is not remembered: an explicit logout is not a session expiry.
    await logIn(page, 'admin', adminPassword());
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    // A protected page after logout sends the visitor to /login again.
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/login/);
    await page.goto(`${baseUrl()}/operate/company?lang=en`);
    await page.waitForURL(/\/login\?lang=en$/);
  });
});
