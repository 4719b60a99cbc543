import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, startSmtp, USER } from '../apps/server/test/delivery-stand-ins';
import { apiOk, asAdmin, unique } from './api';
import { adminPassword, type Browser, baseUrl, logIn, openBrowser, pickOption } from './browser';

/** Messaging as an operator uses it: a mail platform, a template with its live preview, test sends, their records. */

const url = (p: string) => `${baseUrl()}${p}`;
const shown = (locator: Locator, timeout = 15_000) => locator.waitFor({ state: 'visible', timeout });
const gone = (locator: Locator, timeout = 15_000) => locator.waitFor({ state: 'hidden', timeout });

describe('messaging screens', () => {
  let admin: Browser;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  const platformName = unique('mail');
  const templateName = unique('alarm');

  beforeAll(async () => {
    smtp = await startSmtp();
    admin = await openBrowser();
    await logIn(admin.page, 'admin', adminPassword());
  });
  afterAll(async () => {
    await admin?.close();
    await smtp?.close();
  });

  it('adds an SMTP platform (only its settings shown, the password never shown back) and test-sends through it', async () => {
    const { page } = admin;
    await page.goto(url('/applist/flatform?lang=en'));
    const panel = page.getByRole('tabpanel', { name: 'Push platforms' });
    await panel.getByRole('button', { name: 'Add' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add' });
    await dialog.getByLabel('Name', { exact: true }).fill(platformName);
    await pickOption(page, dialog, 'Channel', 'Email');
    // Before a provider is chosen none of the provider settings shows.
    expect(await dialog.getByLabel('SMTP host').count()).toBe(0);
    // The email channel offers only the email provider.
    await dialog.getByLabel('Provider').click();
    await expect.poll(() => page.getByTitle('Huawei push', { exact: true }).getAttribute('class')).toContain('option-disabled');
    expect(await page.getByTitle('Email (SMTP)', { exact: true }).getAttribute('class')).not.toContain('option-disabled');
    await page.getByTitle('Email (SMTP)', { exact: true }).click();
    await dialog.getByLabel('SMTP host').fill('127.0.0.1');
    await dialog.getByLabel('SMTP port').fill(String(smtp.port));
    await dialog.getByLabel('User name').fill(USER);
    await dialog.getByLabel('Password').fill(PASSWORD);
    expect(await dialog.getByLabel('Key ID').count()).toBe(0);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await gone(dialog);
    const row = panel.getByRole('table', { name: 'Push platforms' }).getByRole('row').filter({ hasText: platformName });
    await shown(row);
    expect(await row.textContent()).not.toContain(PASSWORD);

    await row.getByRole('button', { name: 'Test send' }).click();
    const test = page.getByRole('dialog', { name: 'Test send' });
    await test.getByLabel('Recipient').fill('ops@example.com');
    await test.getByRole('button', { name: 'Send' }).click();
    await shown(page.getByText('Sent: the provider accepted the message'));
    await expect.poll(() => smtp.mails.filter((m) => m.to === 'ops@example.com').length).toBe(1);
    expect(smtp.mails.at(-1)?.subject).toBe(`Test message from ${platformName}`);
    await page.getByRole('button', { name: 'OK' }).click();
  });

  it("keeps a message platform's key file: chosen in the browser, stored sealed, never shown back", async () => {
    const { page } = admin;
    const appId = 700_000 + Math.floor(Math.random() * 99_999);
    const keyFile = JSON.stringify({
      project_id: 'demo-push',
      private_key: '-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n',
    });
    await page.goto(url('/applist/flatform?lang=en'));
    await page.getByRole('tab', { name: 'Message platforms' }).click();
    const panel = page.getByRole('tabpanel', { name: 'Message platforms' });
    await panel.getByRole('button', { name: 'Add' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add' });
    await dialog.getByLabel('App ID').fill(String(appId));
    await pickOption(page, dialog, 'Vendor', 'Huawei');
    const file = dialog.locator('input[type=file]');
    // A binary file is refused in the browser, with the reason.
    await file.setInputFiles({ name: 'key.p12', mimeType: 'application/x-pkcs12', buffer: Buffer.from([0x30, 0x82, 0x00, 0x01, 0x02]) });
    await shown(dialog.getByRole('alert').filter({ hasText: 'Not a text file' }));
    await file.setInputFiles({ name: 'agconnect-services.json', mimeType: 'application/json', buffer: Buffer.from(keyFile) });
    await shown(dialog.getByText(`agconnect-services.json (${keyFile.length} bytes): saved with the form, encrypted`));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await gone(dialog);
    const row = panel
      .getByRole('table', { name: 'Message platforms' })
      .getByRole('row')
      .filter({ hasText: String(appId) });
    await shown(row);

    await row.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit' });
    await shown(edit.getByText('A file is stored (encrypted; it is never shown again)'));
    expect(await page.content()).not.toContain('demo-push');
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await gone(edit);

    const listed = await apiOk<{ app_id: number; secret_file: string }[]>(
      'v2/push/admin/msg/platform/list',
      { app_id: appId },
      await asAdmin(),
    );
    expect(listed.data?.map((p) => p.secret_file)).toEqual(['******']);
  });

  it('writes a zh-CN template with a live preview, test-sends it, and the records show both sends', async () => {
    const { page } = admin;
    await page.goto(url('/applist/template?lang=en'));
    const panel = page.getByRole('tabpanel', { name: 'Templates' });
    await panel.getByRole('button', { name: 'Add' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add' });
    await dialog.getByLabel('Name', { exact: true }).fill(templateName);
    await dialog.getByLabel('Code').fill(templateName);
    await pickOption(page, dialog, 'Language', '简体中文');
    await pickOption(page, dialog, 'Channel', 'Email');
    await pickOption(page, dialog, 'Parameter group', 'Alarm');
    await dialog.getByLabel('Title').fill('{{dev_name}}：{{alarm_name}}');
    await dialog.getByLabel('Body').fill('{{user_name}}，设备 {{dev_name}} 于 {{alarm_time}} 告警 {{nope}}');
    const preview = dialog.getByRole('region', { name: 'Preview' });
    await shown(preview.getByText('Front door：Motion detected'));
    await shown(preview.getByText('Alex，设备 Front door 于 2026-11-23 09:29 告警 {{nope}}'));
    await shown(dialog.getByText('Unknown parameters: nope'));
    await dialog.getByLabel('Body').fill('{{user_name}}，设备 {{dev_name}} 于 {{alarm_time}} 告警');
    await gone(dialog.getByText('Unknown parameters: nope'));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await gone(dialog);

    const row = panel.getByRole('table', { name: 'Push templates' }).getByRole('row').filter({ hasText: templateName });
    await shown(row);
    await row.getByRole('button', { name: 'Test send' }).click();
    const test = page.getByRole('dialog', { name: 'Test send' });
    await test.getByLabel('Platform').click();
    await page.getByTitle(new RegExp(`^${platformName} \\(\\d+\\)$`)).click();
    await test.getByLabel('Recipient').fill('xiaoming@example.com');
    await test.getByRole('button', { name: 'Send' }).click();
    await shown(page.getByText('Sent: the provider accepted the message'));
    await expect.poll(() => smtp.mails.filter((m) => m.to === 'xiaoming@example.com').length).toBe(1);
    const mail = smtp.mails.find((m) => m.to === 'xiaoming@example.com');
    expect(mail?.subject).toBe('Front door：Motion detected');
    expect(mail?.text).toContain('Alex，设备 Front door 于 2026-11-23 09:29 告警');
    await page.getByRole('button', { name: 'OK' }).click();

    await page.goto(url('/applist/record?lang=en'));
    const records = page.getByRole('table', { name: 'Push records' });
    await shown(records.getByRole('row').filter({ hasText: 'xiaoming@example.com' }));
    const sent = records.getByRole('row').filter({ hasText: 'xiaoming@example.com' });
    expect(await sent.textContent()).toContain('Sent');
    await shown(records.getByRole('row').filter({ hasText: 'ops@example.com' }));
  });
});
