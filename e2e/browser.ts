import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { inject } from 'vitest';

export const baseUrl = () => inject('baseUrl');
export const adminPassword = () => inject('adminPassword');

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Messages the console asked for and no loaded message area held (`i18n: missing message …` warnings). */
  missingMessages: string[];
  close(): Promise<void>;
}

/** A fresh Chromium profile (Playwright wants the user data dir as an argument, not a flag). */
export const openBrowser = async (
  opts: { viewport?: { width: number; height: number }; locale?: string; extraArgs?: string[] } = {},
): Promise<Browser> => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'iot-chromium-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [...FLAGS, ...(opts.extraArgs ?? [])],
    headless: true,
    viewport: opts.viewport ?? { width: 1280, height: 800 },
    locale: opts.locale ?? 'en-US',
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const missingMessages: string[] = [];
  page.on('console', (message) => {
    if (message.text().startsWith('i18n: missing message')) missingMessages.push(`${page.url()}: ${message.text()}`);
  });
  return {
    context,
    page,
    missingMessages,
    /** Closes the browser; fails the suite if a page showed a message that no loaded area held. */
    close: async () => {
      await context.close();
      fs.rmSync(dir, { recursive: true, force: true });
      if (missingMessages.length > 0) throw new Error(`messages missing from the loaded areas:\n${missingMessages.join('\n')}`);
    },
  };
};

export const screenshotDir = () => {
  const dir = path.resolve(import.meta.dirname, '../test-results/screens');
  fs.mkdirSync(dir, { recursive: true });
  return dir;
};

/** Logs in through the login page (English) and waits for the dashboard. */
export const logIn = async (page: Page, userId: string, password: string, query = 'lang=en') => {
  await page.goto(`${baseUrl()}/login?${query}`);
  await page.getByLabel('Account').fill(userId);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(/\/dashboard/);
};

/**
 * Picks a node of the company TreeSelect labelled `label` in `scope`, searching by name, and
 * waits until the select shows it. A click on the tree item that lands while antd's opening
 * animation still runs can be lost on a loaded machine, so the pick is repeated until it holds.
 */
export const pickCompany = async (page: Page, scope: Locator, label: string, name: string) => {
  const input = scope.getByLabel(label);
  // The select's content box carries the chosen node's title (antd 6 single select).
  const chosen = scope.locator('.ant-select', { has: page.getByLabel(label) }).locator(`[title="${name.replace(/"/g, '\\"')}"]`);
  for (let attempt = 0; attempt < 5; attempt++) {
    await input.click();
    await input.fill(name);
    await page.getByRole('tree').last().getByTitle(name, { exact: true }).click();
    try {
      await chosen.first().waitFor({ state: 'visible', timeout: 2_000 });
      return;
    } catch {
      // not picked: search and click again
    }
  }
  await chosen.first().waitFor({ state: 'visible', timeout: 10_000 });
};

/**
 * Picks an option of the Select labelled `label` in `scope`. The visible list
 * items carry the option as their title (the role=option list is antd's hidden
 * screen-reader copy).
 */
export const pickOption = async (page: Page, scope: Locator, label: string, option: string) => {
  await scope.getByLabel(label).click();
  await page.getByTitle(option, { exact: true }).click();
};
