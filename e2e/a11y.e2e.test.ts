import { createRequire } from 'node:module';
import { MENU_TREE } from '@iot/contract';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPassword, type Browser, baseUrl, logIn, openBrowser } from './browser';

/**
 * Accessibility: every route of the menu tree (built screens and the "not yet available"
 * placeholders alike) and the dashboard, as the super administrator, in English and in
 * Simplified Chinese, checked by axe-core: no violation of impact serious or critical.
 * One browser and one page, the routes in a loop.
 */

const axeSource: string = createRequire(import.meta.url)('axe-core').source;

const ROUTES = ['dashboard', ...MENU_TREE.flatMap((group) => (group.children ?? []).map((screen) => screen.key))];
const LANGUAGES = ['en', 'zh-CN'] as const;
const BLOCKING = new Set(['serious', 'critical']);

interface Finding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * Waits until the page's data has arrived: no request in flight, no spinner or skeleton, no
 * (finite) animation running: axe must see the colours the user sees, not a fade-in.
 */
const settle = async (page: Page, route: string) => {
  await page.waitForLoadState('networkidle');
  await page
    .waitForFunction(
      () =>
        document.querySelector('main') !== null &&
        document.querySelector('main .ant-spin-spinning, main .ant-skeleton-active') === null &&
        document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity) &&
        // antd's motions (a menu group opening, a fade) run while their classes stand.
        ![...document.querySelectorAll('[class*="-appear"], [class*="-enter"], [class*="-leave"]')].some((el) =>
          /-(appear|enter|leave)(-(prepare|start|active))?(\s|$)/.test(el.getAttribute('class') ?? ''),
        ),
      undefined,
      { timeout: 15_000 },
    )
    .catch((err: unknown) => {
      throw new Error(`/${route} did not settle: ${String(err)}`);
    });
  // Two more frames: what the page does after it settled (fixes run once per frame) has
  // happened, as it has by the time a user looks.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
};

/**
 * Opens a route inside the running console, as a link would (history push + popstate, which the
 * router follows): one page load for the whole loop, so axe is injected once.
 */
const visit = async (page: Page, path: string) => {
  if (!page.url().startsWith(baseUrl())) {
    await page.goto(`${baseUrl()}${path}`);
    return;
  }
  const from = new URL(page.url());
  const titleBefore = await page.title();
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.waitForURL((u) => `${u.pathname}${u.search}` === path);
  // The address changes at once; the console shows the new route only when its lazy page has
  // loaded, and until then the old page stands, settled: wait for the route's title (every
  // route has its own) and the language asked for.
  const to = new URL(path, baseUrl());
  await page.waitForFunction(
    ([was, lang]) => document.title !== was && document.documentElement.lang === lang,
    [to.pathname === from.pathname ? null : titleBefore, to.searchParams.get('lang')] as const,
    { timeout: 15_000 },
  );
};

/** axe-core on the whole document: the serious and critical violations, with the elements they name. */
const blockingViolations = async (page: Page): Promise<Finding[]> => {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  // Colours are judged at rest: a control enabled while axe runs (devices another test's
  // simulator registers meanwhile) would still show its disabled colours mid-transition.
  await page.evaluate(() => {
    if (document.getElementById('a11y-no-transitions')) return;
    const style = document.createElement('style');
    style.id = 'a11y-no-transitions';
    // `:not(#…)` outweighs a class: antd's collapse motion declares its transition `!important`.
    style.textContent = ':not(#a11y-none), :not(#a11y-none)::before, :not(#a11y-none)::after { transition: none !important; }';
    document.head.append(style);
  });
  const violations = await page.evaluate(async () => {
    type AxeResult = {
      violations: {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: unknown[]; any: { data?: { fgColor?: string; bgColor?: string; contrastRatio?: number } | null }[] }[];
      }[];
    };
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResult> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? '',
      help: v.help,
      targets: v.nodes.map((n) => {
        // colour-contrast says which colours it measured
        const data = n.any.find((a) => a.data?.contrastRatio)?.data;
        const colors = data ? ` [${data.fgColor} on ${data.bgColor}: ${data.contrastRatio}]` : '';
        return n.target.map(String).join(' ') + colors;
      }),
    }));
  });
  return violations.filter((v) => BLOCKING.has(v.impact));
};

const report = (route: string, lang: string, findings: Finding[]) =>
  findings.map((f) => `/${route}?lang=${lang}: ${f.impact} ${f.id} (${f.help}) on ${f.targets.slice(0, 5).join(' | ')}`);

describe('accessibility (axe-core) and messages', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await openBrowser();
    await logIn(browser.page, 'admin', adminPassword());
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const lang of LANGUAGES) {
    it(`finds no serious or critical violation and no missing message on the ${ROUTES.length} menu routes in ${lang}`, async () => {
      const { page } = browser;
      const problems: string[] = [];
      for (const route of ROUTES) {
        await visit(page, `/${route}?lang=${lang}`);
        await settle(page, route);
        expect(new URL(page.url()).pathname).toBe(`/${route}`);
        problems.push(...report(route, lang, await blockingViolations(page)));
      }
      // Every message a page shows comes from a loaded area (a page's `areas` names what it uses).
      problems.push(...browser.missingMessages.splice(0));
      if (problems.length > 0) console.error(problems.join('\n'));
      expect(problems).toEqual([]);
    }, 600_000);
  }

  // The loop above keeps one page load, so a message area another route loaded earlier stays
  // loaded: here each route is the first one its page load opens.
  it(`shows no missing message on any of the ${ROUTES.length} routes opened first`, async () => {
    const { page } = browser;
    for (const route of ROUTES) {
      await page.goto(`${baseUrl()}/${route}?lang=zh-TW`);
      await settle(page, route);
    }
    expect(browser.missingMessages.splice(0)).toEqual([]);
  }, 600_000);
});
