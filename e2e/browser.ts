import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
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
  return {
    context,
    page,
    close: async () => {
      await context.close();
      fs.rmSync(dir, { recursive: true, force: true });
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
