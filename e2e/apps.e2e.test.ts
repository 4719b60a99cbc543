import path from 'node:path';
import { APP_KEY_PATTERN } from '@iot/contract';
import jsQR from 'jsqr';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOk, asAdmin, unique } from './api';
import { adminPassword, type Browser, baseUrl, logIn, openBrowser, screenshotDir } from './browser';

/**
 * Apps (applist/app): create an app (its keys shown once), add a version with two languages,
 * show its QR code, decode the code, and fetch the link it holds as an iPhone and as an Android
 * phone: each is sent to its own package in the right language.
 */

const shown = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'visible', timeout });
const gone = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'hidden', timeout });

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36';

describe('apps screen', () => {
  let b: Browser;
  const name = unique('e2e-app');
  const apk = (lang: string) => `https://dl.example.com/${name}/1.10.0/${lang}.apk`;

  beforeAll(async () => {
    b = await openBrowser();
    await logIn(b.page, 'admin', adminPassword());
  });
  afterAll(async () => {
    await b?.close();
  });

  it('creates an app, adds a version in two languages, shows its QR code, and the link sends each phone to its package', async () => {
    const { page } = b;
    await page.goto(`${baseUrl()}/applist/app?lang=en`);

    // Add: the keys are shown once.
    await page.getByRole('button', { name: /Add$/ }).click();
    const add = page.getByRole('dialog', { name: 'Add app' });
    await shown(add);
    await add.getByLabel('Name', { exact: true }).fill(name);
    await add.getByLabel('Android package name').fill('com.example.e2eapps');
    await add.getByRole('button', { name: 'Save' }).click();
    await gone(add);
    const keys = page.getByRole('dialog', { name: `App keys of ${name}` });
    await shown(keys);
    await expect(keys.getByText('This is the only time the key is shown')).toBeTruthy();
    const iosKey = (await keys.locator('[data-key="ios"]').textContent())?.trim() ?? '';
    expect(iosKey).toMatch(APP_KEY_PATTERN);
    await page.screenshot({ path: path.join(screenshotDir(), 'apps-key-once-en.png') });
    await keys.getByRole('button', { name: 'I have stored it' }).click();
    await gone(keys);

    // The list shows the key masked (its last 4 characters only).
    const row = page.getByRole('row', { name: new RegExp(name) });
    await shown(row);
    await shown(row.getByText(`******${iosKey.slice(-4)}`));
    expect(await row.getByText(iosKey).count()).toBe(0);

    // The iPhone's store link (through the API: the subject here is the version and its QR code).
    const token = await asAdmin();
    const app = (await apiOk<{ id: number }[]>('v2/user/app/list', { name }, token)).data[0] as { id: number };
    await apiOk('ota/app/url/add', { app_id: app.id, platform: 'ios', lang: 'en', url: 'https://apps.apple.com/us/app/id4242' }, token);

    // The app's drawer: add version 1.10.0 with English and Simplified Chinese.
    await row.getByRole('button', { name: /Manage/ }).click();
    const drawer = page.getByRole('dialog', { name });
    await shown(drawer);
    await drawer.getByRole('button', { name: /Add$/ }).click();
    const ver = page.getByRole('dialog', { name: 'Add version' });
    await shown(ver);
    await ver.getByLabel('Version', { exact: true }).fill('1.10.0');
    await ver.getByRole('button', { name: 'Add language' }).click();
    await ver.getByRole('button', { name: 'Add language' }).click();
    for (const [i, lang] of ['en', 'zh-CN'].entries()) {
      const item = ver.getByRole('group', { name: `Language ${i + 1}` });
      await item.getByLabel('Language').fill(lang);
      await item.getByLabel('Package URL').fill(apk(lang));
      await item.getByLabel('Title').fill(`1.10.0 ${lang}`);
    }
    await ver.getByRole('button', { name: 'Save' }).click();
    await gone(ver);
    const verRow = drawer.getByRole('row', { name: /1\.10\.0/ });
    await shown(verRow);
    await shown(verRow.getByText('zh-CN'));
    await page.screenshot({ path: path.join(screenshotDir(), 'apps-versions-en.png') });

    // The QR code of the Chinese details.
    await verRow.getByRole('button', { name: 'QR code' }).click();
    const qr = page.getByRole('dialog', { name: 'QR code of version 1.10.0' });
    await shown(qr);
    await qr.getByLabel('Language').click();
    await page.getByTitle('zh-CN', { exact: true }).click();
    const canvas = qr.getByRole('img', { name: 'QR code of version 1.10.0 (zh-CN)' });
    await shown(canvas);
    await page.screenshot({ path: path.join(screenshotDir(), 'apps-version-qr-en.png') });
    const link = (await canvas.getAttribute('data-link')) ?? '';
    expect(link).toBe(`${baseUrl()}/api/v2/app/dl/${app.id}?ver=1.10.0&lang=zh-CN`);
    // What the code holds, read back from its pixels.
    const pixels = await canvas.evaluate((el) => {
      const c = el as HTMLCanvasElement;
      const image = c.getContext('2d')?.getImageData(0, 0, c.width, c.height);
      return image ? { width: image.width, height: image.height, data: Array.from(image.data) } : null;
    });
    expect(pixels).not.toBeNull();
    const decoded = pixels ? jsQR(Uint8ClampedArray.from(pixels.data), pixels.width, pixels.height) : null;
    expect(decoded?.data).toBe(link);
    await expect(qr.getByRole('button', { name: 'Download PNG' }).isEnabled()).resolves.toBe(true);

    // The link as phones fetch it (no sign-in).
    const fetchAs = (userAgent: string, acceptLanguage: string) =>
      page.request.get(link, { headers: { 'user-agent': userAgent, 'accept-language': acceptLanguage }, maxRedirects: 0 });
    const iphone = await fetchAs(IPHONE, 'en-US');
    expect(iphone.status()).toBe(302);
    expect(iphone.headers().location).toBe('https://apps.apple.com/us/app/id4242');
    const androidZh = await fetchAs(ANDROID, 'zh-CN,zh;q=0.9');
    expect(androidZh.status()).toBe(302);
    expect(androidZh.headers().location).toBe(apk('zh-CN'));
    const androidEn = await fetchAs(ANDROID, 'en-GB');
    expect(androidEn.headers().location).toBe(apk('en'));
    // A phone in a language the version lacks gets the QR code's language.
    const androidDe = await fetchAs(ANDROID, 'de-DE');
    expect(androidDe.headers().location).toBe(apk('zh-CN'));
    expect(androidDe.headers()['x-download-lang-source']).toBe('link');
  });
});
