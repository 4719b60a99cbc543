import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPassword, type Browser, baseUrl, openBrowser } from './browser.js';

/**
 * CONTRACT §4: served over plain HTTP from an address other than localhost, the page is
 * not a secure context and has no WebCrypto; the login must still work (node-forge) and
 * warn that the connection is not encrypted. Chromium resolves console.test to the test
 * server, so the page runs at http://console.test:<port>, an insecure origin.
 */
let browser: Browser;
let insecureUrl: string;

beforeAll(async () => {
  const port = new URL(baseUrl()).port;
  insecureUrl = `http://console.test:${port}`;
  browser = await openBrowser({ extraArgs: ['--host-resolver-rules=MAP console.test 127.0.0.1'] });
});
afterAll(async () => {
  await browser?.close();
});

describe('login without WebCrypto (plain HTTP, not localhost)', () => {
  it('is an insecure context without crypto.subtle', async () => {
    await browser.page.goto(`${insecureUrl}/login?lang=en`);
    const context = await browser.page.evaluate(() => ({ secure: window.isSecureContext, subtle: Boolean(globalThis.crypto?.subtle) }));
    expect(context).toEqual({ secure: false, subtle: false });
  });

  it('warns that the connection is not encrypted and still logs in', async () => {
    const { page } = browser;
    await page.goto(`${insecureUrl}/login?lang=en`);
    await page.getByText('This connection is not encrypted', { exact: false }).waitFor();
    await page.getByLabel('Account').fill('admin');
    await page.getByLabel('Password').fill(adminPassword());
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/dashboard/);
    expect(new URL(page.url()).host).toBe(new URL(insecureUrl).host);
  });

  it('answers a wrong password with the same message as over HTTPS', async () => {
    const { page } = browser;
    await page.evaluate(() => localStorage.clear());
    await page.goto(`${insecureUrl}/login?lang=en`);
    await page.getByLabel('Account').fill('admin');
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('Wrong account or password').waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
  });
});
