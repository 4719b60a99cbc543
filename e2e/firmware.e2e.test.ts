import fs from 'node:fs';
import path from 'node:path';
import type { IngestOutput } from '@iot/contract';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiOk, asAdmin, rootCompany, unique } from './api';
import { adminPassword, type Browser, baseUrl, logIn, openBrowser, screenshotDir } from './browser';

/**
 * Product firmware (product/iot, firmware tab): after a rollout the devices simulated through the
 * ingestion interface (3 places, 4 devices asking: one upgrading, one succeeded, one failed, one
 * left out), the version's row shows its counts and its devices; a version is added in the form
 * with its details per language.
 */
const shown = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'visible', timeout });
const PREFIX = `FW${Date.now().toString(36).toUpperCase()}`;
const UIDS = [1, 2, 3, 4].map((n) => `${PREFIX}-${n}`);

/** Device events through the ingestion interface, with the key the server generated on first start. */
const ingest = async (events: object[]) => {
  const key = fs.readFileSync(path.join(inject('dataDir'), 'ingest.key'), 'utf8').trim();
  const res = await fetch(`${baseUrl()}/api/v2/iot/ingest/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-key': key },
    body: JSON.stringify({ events }),
  });
  const answer = (await res.json()) as { code: number; data: IngestOutput };
  if (answer.code !== 200) throw new Error(`ingest: ${answer.code}`);
  return answer.data;
};

describe('firmware tab', () => {
  let b: Browser;
  let pk = '';

  beforeAll(async () => {
    const token = await asAdmin();
    const root = await rootCompany();
    pk = (await apiOk<{ pk: string }>('user/product/add', { name: unique('fw-prod'), comp_id: root.comp_id }, token)).data.pk;
    for (const uid of UIDS) await apiOk('v2/iot/web/uid/reg/add', { uid, pk, comp_id: root.comp_id }, token);
    await apiOk(
      'v2/ota/admin/product/ver/add',
      {
        pk,
        ver: '3.0.0',
        ver_num: 300,
        min_ver_num: 100,
        limit: 3,
        state: 1,
        details: [{ lang: 'en', url: 'https://fw.example.com/3.0.0.bin', title: 'Firmware 3.0.0' }],
      },
      token,
    );
    // The rollout: four devices ask, three are offered it; one upgrades, one succeeds, one fails.
    const checks = await ingest(UIDS.map((uid) => ({ uid, type: 'ota_check', ver_num: 120 })));
    const offered = (checks.ota ?? []).filter((r) => r.result === 'offered').map((r) => r.uid);
    expect(offered).toHaveLength(3);
    const [up, ok, failed] = offered as [string, string, string];
    await ingest([
      { uid: up, type: 'ota_progress', progress: 40 },
      { uid: ok, type: 'ota_progress', progress: 80 },
      { uid: ok, type: 'ota_result', success: 1, ver_num: 300 },
      { uid: failed, type: 'ota_result', success: 0, error: 'flash write failed' },
    ]);
    b = await openBrowser();
    await logIn(b.page, 'admin', adminPassword());
  });
  afterAll(async () => {
    await b?.close();
  });

  it("shows a version's rollout counts and devices, and adds a version with its details", async () => {
    const { page } = b;
    await page.goto(`${baseUrl()}/product/iot?lang=en&tab=firmware&pk=${pk}`);
    const table = page.getByRole('table', { name: 'Firmware versions' });
    const row = table.getByRole('row').filter({ hasText: '3.0.0' });
    await shown(row);
    const rollout = row.getByLabel('Rollout');
    for (const text of ['Offered 0', 'Upgrading 1', 'Succeeded 1', 'Failed 1']) await shown(rollout.getByText(text, { exact: true }));
    await shown(row.getByText('3 of 3', { exact: true }));
    await shown(row.getByText('Released', { exact: true }));
    await page.screenshot({ path: path.join(screenshotDir(), 'firmware-tab-en.png'), fullPage: true });

    // The version's devices: the three offered it, the failure with its error.
    await row.getByRole('button', { name: /Devices$/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Rollout of 3.0.0' });
    await shown(dialog);
    await shown(dialog.getByText('3 in total', { exact: true }).first());
    await shown(dialog.getByRole('row').filter({ hasText: 'flash write failed' }).getByText('Failed', { exact: true }));
    await page.screenshot({ path: path.join(screenshotDir(), 'firmware-rollout-en.png') });
    await dialog.getByRole('button', { name: 'Close' }).click();

    // A new version: numbers, and its English details in the language list.
    await page.getByRole('button', { name: /Add$/ }).click();
    const form = page.getByRole('dialog', { name: 'Add firmware version' });
    await shown(form);
    await form.getByLabel('Version', { exact: true }).fill('3.1.0');
    await form.getByLabel('Version number').fill('310');
    await form.getByLabel('From device version').fill('100');
    await form.getByLabel('Download URL').fill('https://fw.example.com/3.1.0.bin');
    await form.getByLabel('Title').fill('Firmware 3.1.0');
    await form.getByLabel('Size (bytes)').fill('');
    await page.screenshot({ path: path.join(screenshotDir(), 'firmware-add-en.png'), fullPage: true });
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'hidden', timeout: 10_000 });
    const added = table.getByRole('row').filter({ hasText: '3.1.0' });
    await shown(added);
    await shown(added.getByText('Delisted', { exact: true }));
    await shown(added.getByText('0 (no limit)', { exact: true }));

    // The same version again: the 409 names the field, and the form says so under it.
    await page.getByRole('button', { name: /Add$/ }).click();
    await shown(form);
    await form.getByLabel('Version', { exact: true }).fill('3.1.0');
    await form.getByLabel('Version number').fill('311');
    await form.getByLabel('Download URL').fill('https://fw.example.com/3.1.0-again.bin');
    await form.getByRole('button', { name: 'Save' }).click();
    await shown(form.getByText('This product already has a version with this value', { exact: true }));
    await form.getByRole('button', { name: 'Cancel' }).click();
  });
});
