import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { rootCompany, unique } from './api';
import { type Browser, baseUrl, openBrowser, screenshotDir } from './browser';

/**
 * The shared Wizard on the registration page (SPEC §2 wizard rule): a step
 * must pass its check before moving forward; going back, or to any earlier
 * visited step, is free and keeps the values; steps not visited yet cannot be
 * jumped to; a refusal naming a field brings the user back to its step.
 */

const shown = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'visible', timeout });

let browsers: Browser[] = [];
afterEach(async () => {
  await Promise.all(browsers.map((b) => b.close()));
  browsers = [];
});

const openRegister = async () => {
  const b = await openBrowser();
  browsers.push(b);
  await b.page.goto(`${baseUrl()}/register?lang=en`);
  return b.page;
};

/** The step whose fields show, by its title (each step is a labelled region). */
const step = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });
/** The Steps header: visited steps are buttons (named by their icon, a number or a check, and title), the others plain text. */
const header = (page: Page, title: string) => page.getByRole('button', { name: new RegExp(`^\\S+ ${title}$`) });

/** Which of the three steps shows (the others are hidden or not rendered). */
const currentStep = async (page: Page) => {
  for (const title of ['Company', 'Contact', 'First account']) if (await step(page, title).isVisible()) return title;
  return null;
};

/** The error texts shown under a field (antd links them with aria-describedby). */
const fieldErrors = (field: Locator) =>
  field.evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .map((id) => (id ? document.getElementById(id)?.textContent?.trim() : ''))
      .filter(Boolean),
  );

/** Screenshot once antd's animations (error texts, step colours) are over. */
const snap = async (page: Page, name: string) => {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  await page.screenshot({ path: path.join(screenshotDir(), name), fullPage: true });
};

const isFocused = (field: Locator) => field.evaluate((el) => el === document.activeElement);

describe('registration wizard', () => {
  it('checks each step before Next, moves back and to visited steps freely, never to unvisited ones', async () => {
    const page = await openRegister();
    const next = page.getByRole('button', { name: 'Next', exact: true });
    const previous = page.getByRole('button', { name: 'Previous', exact: true });
    const parentKey = page.getByLabel('Parent company key');
    const compName = page.getByLabel('Company name');
    const person = page.getByLabel('Contact person');
    const phone = page.getByLabel('Phone', { exact: true });

    await shown(step(page, 'Company'));
    expect(await previous.count()).toBe(0);
    // Later steps are not visited: not buttons in the header.
    expect(await header(page, 'Contact').count()).toBe(0);
    expect(await header(page, 'First account').count()).toBe(0);

    // Next with the required fields empty: still step 1, each field says why.
    await next.click();
    await expect.poll(() => fieldErrors(parentKey)).toEqual(['Required']);
    await expect.poll(() => fieldErrors(compName)).toEqual(['Required']);
    expect(await step(page, 'Company').getByText('Required', { exact: true }).count()).toBe(2);
    expect(await currentStep(page)).toBe('Company');
    expect(await isFocused(parentKey)).toBe(true);

    // Filled: Next moves on; the company type kept its default.
    const name = unique('wizard-co');
    await parentKey.fill('no-such-parent-key');
    await compName.fill(name);
    await expect.poll(() => fieldErrors(parentKey)).toEqual([]);
    await next.click();
    await shown(step(page, 'Contact'));
    expect(await currentStep(page)).toBe('Contact');
    expect(await page.getByLabel('Phone area').inputValue()).toBe('+86');

    // Step 3 is not visited yet: clicking its title does nothing.
    expect(await header(page, 'First account').count()).toBe(0);
    await page.getByText('First account', { exact: true }).click();
    expect(await currentStep(page)).toBe('Contact');
    expect(await step(page, 'First account').count()).toBe(0);

    // Step 2's own check: the contact person is required, +86 wants 11 digits.
    await phone.fill('1380013800');
    await next.click();
    await expect.poll(() => fieldErrors(person)).toEqual(['Required']);
    await expect.poll(() => fieldErrors(phone)).toEqual(['Enter a valid phone number (11 digits for a mobile in China)']);
    expect(await currentStep(page)).toBe('Contact');
    await person.fill('Wizard Tester');

    // Previous is free (even with step 2 unfinished) and step 1 kept its values.
    await previous.click();
    await shown(step(page, 'Company'));
    expect(await parentKey.inputValue()).toBe('no-such-parent-key');
    expect(await compName.inputValue()).toBe(name);

    // Step 2 is visited: its title is a button and leads back there, values kept.
    await header(page, 'Contact').click();
    await shown(step(page, 'Contact'));
    expect(await person.inputValue()).toBe('Wizard Tester');
    expect(await phone.inputValue()).toBe('1380013800');
    await snap(page, 'wizard-register-step2-en.png');

    await phone.fill('13800138000');
    await next.click();
    await shown(step(page, 'First account'));
  });

  it('checks the passwords match, and brings a refused field back to its step with the error', async () => {
    const root = await rootCompany();
    const page = await openRegister();
    const next = page.getByRole('button', { name: 'Next', exact: true });
    const register = page.getByRole('button', { name: 'Register', exact: true });
    const parentKey = page.getByLabel('Parent company key');
    const compName = page.getByLabel('Company name');
    const account = page.getByLabel('Account', { exact: true });
    const confirm = page.getByLabel('Confirm password');

    await parentKey.fill('no-such-parent-key');
    await compName.fill(unique('wizard-co'));
    await next.click();
    await page.getByLabel('Contact person').fill('Wizard Tester');
    await next.click();
    await shown(step(page, 'First account'));
    const userId = unique('wizard').replace(/-/g, '_');
    await account.fill(userId);
    await page.getByLabel('Password', { exact: true }).fill('Wiz4rd!e2e');
    await confirm.fill('Wiz4rd!e2e-other');
    await page.getByLabel('Email').fill(`${userId}@example.com`);

    // Step 3's check: the two passwords differ.
    await register.click();
    await expect.poll(() => fieldErrors(confirm)).toEqual(['The two passwords differ']);
    expect(await currentStep(page)).toBe('First account');
    await confirm.fill('Wiz4rd!e2e');

    // The server knows no company with this key (406 parent_comp_key not_found): back to step 1, error on the key.
    await register.click();
    await shown(step(page, 'Company'));
    await expect.poll(() => fieldErrors(parentKey)).toEqual(['No active company has this key']);
    expect(await isFocused(parentKey)).toBe(true);
    expect(await compName.inputValue()).not.toBe('');
    await snap(page, 'wizard-register-refused-key-en.png');

    // Jumping forward to a visited step checks the steps before it too.
    await compName.fill('');
    await header(page, 'First account').click();
    await expect.poll(() => fieldErrors(compName)).toEqual(['Required']);
    expect(await currentStep(page)).toBe('Company');

    // Fixed: straight to step 3 by its title, values kept; an account that exists (1101) is shown on its field.
    await compName.fill(unique('wizard-co'));
    await parentKey.fill(root.comp_key);
    await header(page, 'First account').click();
    await shown(step(page, 'First account'));
    expect(await account.inputValue()).toBe(userId);
    await account.fill('admin');
    await register.click();
    await expect.poll(() => fieldErrors(account)).toEqual(['User ID already exists']);
    expect(await currentStep(page)).toBe('First account');
    expect(await page.getByText('Registration submitted', { exact: true }).count()).toBe(0);
  });

  it('labels the steps in Chinese', async () => {
    const b = await openBrowser({ locale: 'zh-CN' });
    browsers.push(b);
    await b.page.goto(`${baseUrl()}/register?lang=zh-CN`);
    await shown(step(b.page, '公司信息'));
    await b.page.getByRole('button', { name: '下一步', exact: true }).click();
    await shown(step(b.page, '公司信息').getByText('必填', { exact: true }).first());
    await b.page.goto(`${baseUrl()}/register?lang=zh-TW`);
    await shown(step(b.page, '公司資訊'));
    await shown(b.page.getByText('聯絡方式', { exact: true }));
  });
});
