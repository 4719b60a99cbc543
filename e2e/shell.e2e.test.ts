import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { addCompany, addUserWithMenus, api, apiOk, asAdmin, rootCompany, unique } from './api';
import { adminPassword, type Browser, baseUrl, logIn, openBrowser, screenshotDir } from './browser';

/**
 * The console shell as a user meets it: login, language, titles, redirects,
 * session expiry, the API test page, the company screen, registration and
 * approval, the mobile layout and toasts.
 */

const url = (p: string) => `${baseUrl()}${p}`;

/** Path + query of the page's address. */
const where = (page: Page) => {
  const u = new URL(page.url());
  return u.pathname + u.search;
};

const shown = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'visible', timeout });
const gone = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'hidden', timeout });

/** Screenshot once antd's enter animations (modal zoom, drawer slide) are over. */
const snap = async (page: Page, name: string, fullPage = true) => {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  await page.screenshot({ path: path.join(screenshotDir(), name), fullPage });
};

/** The antd toast (role alert) with this text. */
const toast = (page: Page, text: string | RegExp) => page.getByRole('alert').filter({ hasText: text });

/** The visible page-content landmark (antd Layout.Content is the <main>). */
const content = (page: Page) => page.getByRole('main');

let browsers: Browser[] = [];
const browser = async (opts: Parameters<typeof openBrowser>[0] = {}) => {
  const b = await openBrowser(opts);
  browsers.push(b);
  return b;
};
afterEach(async () => {
  await Promise.all(browsers.map((b) => b.close()));
  browsers = [];
});

/** Picks a language in the header's language select. */
const pickLanguage = async (page: Page, current: string, label: string) => {
  await page.getByRole('combobox', { name: current }).click();
  await page.getByRole('option', { name: label }).click();
};

describe('login', () => {
  it('logs the admin in through the login page and shows the dashboard counts', async () => {
    const { page } = await browser();
    await page.goto(url('/login'));
    // An English browser gets lang=en added.
    await page.waitForURL((u) => u.pathname === '/login' && u.search === '?lang=en');
    await page.getByLabel('Account').fill('admin');
    await page.getByLabel('Password').fill(adminPassword());
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((u) => u.pathname === '/dashboard');
    expect(where(page)).toBe('/dashboard?lang=en');

    const token = await asAdmin();
    const companies = (await apiOk('v2/user/company/list', { page_size: 1 }, token)).count;
    const users = (await apiOk('v2/user/account/list', { page_size: 1 }, token)).count;
    await shown(page.getByRole('heading', { name: /^Welcome, / }));
    // Each card shows its title and the list's count.
    const cards = () => content(page).textContent();
    await expect.poll(cards).toMatch(new RegExp(`Companies\\s*${companies}(?!\\d)`));
    await expect.poll(cards).toMatch(new RegExp(`Users\\s*${users}(?!\\d)`));
    await expect.poll(cards).toMatch(/Roles\s*\d+/);
  });

  it('keeps the query string through the login', async () => {
    const { page } = await browser();
    await logIn(page, 'admin', adminPassword(), 'lang=en&x=1');
    expect(where(page)).toBe('/dashboard?lang=en&x=1');
  });

  it('says "Wrong account or password" (514) and stays on /login', async () => {
    const { page } = await browser();
    await page.goto(url('/login?lang=en'));
    await page.getByLabel('Account').fill('admin');
    await page.getByLabel('Password').fill(`${adminPassword()}-wrong`);
    await page.getByRole('button', { name: 'Log in' }).click();
    await shown(page.getByRole('alert').filter({ hasText: 'Wrong account or password' }));
    expect(where(page)).toBe('/login?lang=en');
    expect(await page.evaluate(() => localStorage.getItem('acc_token'))).toBeNull();
  });

  it('sends an unauthenticated visit to /login with its query and returns there after logging in', async () => {
    const { page } = await browser();
    await page.goto(url('/operate/company?lang=en&x=1'));
    await page.waitForURL((u) => u.pathname === '/login');
    expect(where(page)).toBe('/login?lang=en&x=1');
    await page.getByLabel('Account').fill('admin');
    await page.getByLabel('Password').fill(adminPassword());
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((u) => u.pathname === '/operate/company');
    expect(where(page)).toBe('/operate/company?lang=en&x=1');
    await shown(page.getByRole('table', { name: 'Companies' }));
  });
});

describe('language', () => {
  it('adds lang=en for an English browser and lang=zh-CN for a Chinese one', async () => {
    const en = await browser();
    await en.page.goto(url('/login'));
    await en.page.waitForURL((u) => u.search === '?lang=en');
    await shown(en.page.getByRole('heading', { name: 'Log in' }));

    const zh = await browser({ locale: 'zh-CN' });
    await zh.page.goto(url('/login'));
    await zh.page.waitForURL((u) => u.search === '?lang=zh-CN');
    await shown(zh.page.getByRole('heading', { name: '登录' }));
    await shown(zh.page.getByLabel('账号'));
    await expect.poll(() => zh.page.title()).toBe('登录 - 云平台管理后台');
  });

  it('serves /authorize and /link3_login in English even to a Chinese browser', async () => {
    const { page } = await browser({ locale: 'zh-CN' });
    await page.goto(url('/authorize'));
    await page.waitForURL((u) => u.pathname === '/authorize' && u.search === '?lang=en');
    await expect.poll(() => page.title()).toBe('Authorize - IoT Cloud Console');

    await page.goto(url('/link3_login'));
    await page.waitForURL((u) => u.pathname === '/link3_login' && u.search === '?lang=en');
    await shown(page.getByRole('heading', { name: 'Authorization login' }));
    await shown(page.getByLabel('Account'));
  });

  it('switches the console to 简体中文 and 繁體中文 in place, antd texts included', async () => {
    const { page } = await browser();
    await logIn(page, 'admin', adminPassword());
    const nothing = unique('shell-nothing');
    await page.goto(url('/operate/company?lang=en'));
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await shown(menu.getByRole('menuitem', { name: 'Companies' }));
    await shown(page.getByRole('columnheader', { name: 'Company name' }));
    // An empty result: the table's empty text is antd's own.
    await page.getByRole('form', { name: 'Filters' }).getByLabel('Company name').fill(nothing);
    await page.getByRole('button', { name: 'Search' }).click();
    const table = page.getByRole('table', { name: 'Companies' });
    await shown(table.getByText('No data', { exact: true }).filter({ visible: true }));

    const cases = [
      {
        from: 'Language',
        label: '简体中文',
        lang: 'zh-CN',
        lang2: '语言',
        menu: '公司管理',
        group: '运营管理',
        col: '公司名称',
        empty: '暂无数据',
      },
      {
        from: '语言',
        label: '繁體中文',
        lang: 'zh-TW',
        lang2: '語言',
        menu: '公司管理',
        group: '營運管理',
        col: '公司名稱',
        empty: '暫無資料',
      },
    ];
    for (const c of cases) {
      await pickLanguage(page, c.from, c.label);
      await page.waitForURL((u) => u.searchParams.get('lang') === c.lang);
      expect(new URL(page.url()).pathname).toBe('/operate/company');
      const zhMenu = page.getByRole('navigation', { name: c.lang === 'zh-CN' ? '主菜单' : '主選單' });
      await shown(zhMenu.getByRole('menuitem', { name: c.group }));
      await shown(zhMenu.getByRole('menuitem', { name: c.menu }));
      await shown(page.getByRole('columnheader', { name: c.col }));
      await shown(page.getByRole('combobox', { name: c.lang2 }));
      // antd's own locale: the empty-table text, and the Modal's OK/Cancel of a confirm.
      await shown(page.getByRole('table', { name: c.menu }).getByText(c.empty, { exact: true }).filter({ visible: true }));
      expect(await page.getByText('No data', { exact: true }).filter({ visible: true }).count()).toBe(0);
      await expect.poll(() => page.title()).toBe(`${c.menu} - ${c.lang === 'zh-CN' ? '云平台管理后台' : '雲平台管理後台'}`);
      await snap(page, `shell-company-${c.lang}.png`);
    }
    // The filter is still applied: the page was not reloaded.
    expect(await page.getByRole('form', { name: '篩選' }).getByLabel('公司名稱').inputValue()).toBe(nothing);
  });

  it('shows the dashboard and dialogs in the chosen language', async () => {
    const { page } = await browser();
    await logIn(page, 'admin', adminPassword());
    await page.goto(url('/dashboard?lang=zh-CN'));
    await shown(page.getByRole('heading', { name: /^欢迎/ }));
    await expect.poll(() => content(page).textContent()).toMatch(/公司数\s*\d+.*用户数\s*\d+.*角色数\s*\d+/);
    await snap(page, 'shell-dashboard-zh-CN.png');
    await page.goto(url('/operate/company?lang=zh-TW'));
    await page.getByRole('button', { name: '新增' }).click();
    const dialog = page.getByRole('dialog', { name: '新增公司' });
    await shown(dialog);
    await snap(page, 'shell-company-add-zh-TW.png', false);
    await dialog.getByRole('button', { name: '取消' }).click();
    await gone(dialog);
  });
});

describe('titles and routes', () => {
  it('titles each page with its label and the platform title', async () => {
    const { page } = await browser();
    // The built page starts with the platform title alone.
    const html = await (await fetch(url('/login'))).text();
    expect(html).toContain('<title>IoT Cloud Console</title>');
    await page.goto(url('/login?lang=en'));
    await expect.poll(() => page.title()).toBe('Log in - IoT Cloud Console');
    await page.goto(url('/register?lang=en'));
    await expect.poll(() => page.title()).toBe('Register - IoT Cloud Console');
    await logIn(page, 'admin', adminPassword());
    await expect.poll(() => page.title()).toBe('Dashboard - IoT Cloud Console');
    await page.goto(url('/operate/company?lang=en'));
    await expect.poll(() => page.title()).toBe('Companies - IoT Cloud Console');
    await page.goto(url('/operate/company?lang=zh-CN'));
    await expect.poll(() => page.title()).toBe('公司管理 - 云平台管理后台');
  });

  it('redirects groups and the root, and shows placeholder and catch-all pages inside the layout', async () => {
    const { page } = await browser();
    await logIn(page, 'admin', adminPassword());
    await page.goto(url('/system?lang=en'));
    await page.waitForURL((u) => u.pathname === '/system/role');
    expect(where(page)).toBe('/system/role?lang=en');
    await expect.poll(() => page.title()).toBe('Roles - IoT Cloud Console');

    await page.goto(url('/?lang=en&x=2'));
    await page.waitForURL((u) => u.pathname === '/dashboard');
    expect(where(page)).toBe('/dashboard?lang=en&x=2');

    // ICC IDs come with a later issue: an honest placeholder until then.
    await page.goto(url('/product/iccid?lang=en'));
    await shown(content(page).getByText('Not yet available', { exact: true }));
    // Inside the layout: the menu is there, with the group of this screen open.
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await shown(menu.getByRole('menuitem', { name: 'ICC IDs' }));
    await expect.poll(() => page.title()).toBe('ICC IDs - IoT Cloud Console');

    await page.goto(url('/no/such/page?lang=en'));
    await shown(content(page).getByText('Page not found', { exact: true }));
    await shown(menu);
    await expect.poll(() => page.title()).toBe('Page not found - IoT Cloud Console');
    await page.getByRole('button', { name: 'Back to home' }).click();
    await page.waitForURL((u) => u.pathname === '/dashboard');
    expect(where(page)).toBe('/dashboard?lang=en');
  });
});

describe('session expiry', () => {
  const revoke = async (page: Page) => {
    const token = await page.evaluate(() => localStorage.getItem('acc_token'));
    expect(token).toBeTruthy();
    expect((await api('user/logout', {}, token)).code).toBe(200);
    // The token no longer works.
    expect((await api('v2/user/account/get', {}, token)).code).toBe(401);
  };

  it('goes to /login keeping the query string when the token was revoked (table refresh)', async () => {
    const { page } = await browser();
    await logIn(page, 'admin', adminPassword(), 'lang=en&x=3');
    await page.goto(url('/operate/company?lang=en&x=3'));
    await shown(page.getByRole('table', { name: 'Companies' }).getByRole('row').nth(1));
    await revoke(page);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.waitForURL((u) => u.pathname === '/login');
    expect(where(page)).toBe('/login?lang=en&x=3');
    expect(await page.evaluate(() => localStorage.getItem('acc_token'))).toBeNull();
    // Logging in again returns to the screen.
    await page.getByLabel('Account').fill('admin');
    await page.getByLabel('Password').fill(adminPassword());
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((u) => u.pathname === '/operate/company');
    expect(where(page)).toBe('/operate/company?lang=en&x=3');
  });

  it('goes to /login when navigating to another screen with a revoked token', async () => {
    const { page } = await browser();
    await logIn(page, 'admin', adminPassword());
    await shown(page.getByRole('heading', { name: /^Welcome, / }));
    await revoke(page);
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await menu.getByRole('menuitem', { name: 'Operations' }).click();
    await menu.getByRole('menuitem', { name: 'Companies' }).click();
    await page.waitForURL((u) => u.pathname === '/login');
    expect(where(page)).toBe('/login?lang=en');
  });
});

describe('/___api_test', () => {
  it('lets the super administrator call a path and shows the JSON answer', async () => {
    const { page } = await browser();
    await logIn(page, 'admin', adminPassword());
    await page.goto(url('/___api_test?lang=en'));
    await page.getByLabel('API path').fill('v2/user/company/list');
    await page.getByLabel('JSON body').fill('{"page_size":1}');
    await page.getByRole('button', { name: 'Send' }).click();
    const answer = page.getByRole('region', { name: 'Answer' });
    await shown(answer.getByText(/"code": 200/));
    const json = JSON.parse((await answer.locator('pre').textContent()) ?? '') as { code: number; data: unknown[]; count: number };
    expect(json.code).toBe(200);
    expect(json.data).toHaveLength(1);
    expect(json.count).toBeGreaterThanOrEqual(1);
  });

  it('shows no permission to a user who is not the super administrator', async () => {
    const user = await addUserWithMenus({ prefix: 'shell-api', menuKeys: ['operate/company'] });
    const { page } = await browser();
    await logIn(page, user.userId, user.password);
    await page.goto(url('/___api_test?lang=en'));
    await shown(content(page).getByText('No permission', { exact: true }));
    expect(await page.getByRole('button', { name: 'Send' }).count()).toBe(0);
    // The screen the role holds is there.
    await page.goto(url('/operate/company?lang=en'));
    await shown(page.getByRole('table', { name: 'Companies' }));
  });
});

describe('company screen', () => {
  it('adds, edits and deletes a company under its parent, with form checks and the 409 toast', async () => {
    const root = await rootCompany();
    const parent = await addCompany(unique('shell-parent'), root.comp_id);
    const sibling = await addCompany(unique('shell-sibling'), parent.comp_id);
    const name = unique('shell-child');
    const { page } = await browser();
    await logIn(page, 'admin', adminPassword());
    await page.goto(url('/operate/company?lang=en'));
    const table = page.getByRole('table', { name: 'Companies' });
    await shown(table.getByRole('row').nth(1));

    await page.getByRole('button', { name: 'Add' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add company' });
    await shown(dialog);
    // Nothing filled in: required field and a toast.
    await dialog.getByRole('button', { name: 'Save' }).click();
    await shown(toast(page, 'Fill in all required fields'));
    const nameItem = dialog.getByLabel('Company name');
    await shown(dialog.getByText('Required', { exact: true }));
    // Parent: pick the new parent in the tree select (searchable).
    await dialog.getByLabel('Parent company').click();
    await page.keyboard.type(parent.comp_name);
    await page.getByRole('treeitem', { name: parent.comp_name }).click();
    await nameItem.fill(name);
    await gone(dialog.getByText('Required', { exact: true }));
    // A mainland number must have 11 digits.
    await dialog.getByLabel('Phone', { exact: true }).fill('12345');
    await shown(dialog.getByText('Enter a valid phone number (11 digits for a mobile in China)'));
    await dialog.getByLabel('Phone', { exact: true }).fill('13800138000');
    await gone(dialog.getByText('Enter a valid phone number (11 digits for a mobile in China)'));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await shown(toast(page, 'Added'));
    await gone(dialog);

    // In the tree: root → parent → child.
    const row = (text: string) => table.getByRole('row').filter({ hasText: text });
    const expand = async (text: string) => {
      const button = row(text).getByRole('button', { name: 'Expand row' });
      if (await button.isVisible()) await button.click();
    };
    await expand(root.comp_name);
    await shown(row(parent.comp_name));
    await expand(parent.comp_name);
    await shown(row(name));
    await shown(row(sibling.comp_name));
    expect(await row(name).textContent()).toContain('+86 13800138000');
    // Collapsing the parent hides its children.
    await row(parent.comp_name).getByRole('button', { name: 'Collapse row' }).click();
    await gone(row(name));
    await row(parent.comp_name).getByRole('button', { name: 'Expand row' }).click();

    // Edit.
    await row(name).getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit company' });
    await shown(edit);
    expect(await edit.getByLabel('Company name').inputValue()).toBe(name);
    await edit.getByLabel('Company name').fill(`${name}-ed`);
    await edit.getByRole('button', { name: 'Save' }).click();
    await shown(toast(page, 'Saved'));
    await gone(edit);
    await shown(row(`${name}-ed`));

    // A namesake under the same parent: 409 as a toast, the dialog stays.
    await row(`${name}-ed`).getByRole('button', { name: 'Edit' }).click();
    await shown(edit);
    await edit.getByLabel('Company name').fill(sibling.comp_name);
    await page.waitForTimeout(2000); // the earlier toast's suppression window (1.9 s) has passed
    await edit.getByRole('button', { name: 'Save' }).click();
    await shown(toast(page, 'ID, email or phone already exists'));
    await shown(edit);
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await gone(edit);

    // Delete, with confirmation.
    await row(`${name}-ed`).getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('tooltip').filter({ hasText: 'Delete this record?' });
    await shown(confirm);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await shown(toast(page, 'Deleted'));
    await gone(row(`${name}-ed`));
    const left = await apiOk<{ comp_name: string }[]>('v2/user/company/list', { comp_parent_id: parent.comp_id }, await asAdmin());
    expect(left.data.map((c) => c.comp_name)).toEqual([sibling.comp_name]);
  });

  it('adds a namesake through the Add dialog: 409 toast', async () => {
    const root = await rootCompany();
    const parent = await addCompany(unique('shell-dup-parent'), root.comp_id);
    const taken = await addCompany(unique('shell-dup'), parent.comp_id);
    const { page } = await browser();
    await logIn(page, 'admin', adminPassword());
    await page.goto(url('/operate/company?lang=en'));
    await page.getByRole('button', { name: 'Add' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add company' });
    await shown(dialog);
    await dialog.getByLabel('Parent company').click();
    await page.keyboard.type(parent.comp_name);
    await page.getByRole('treeitem', { name: parent.comp_name }).click();
    await dialog.getByLabel('Company name').fill(taken.comp_name);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await shown(toast(page, 'ID, email or phone already exists'));
    await shown(dialog);
  });
});

describe('registration', () => {
  it('registers a company, the admin approves it, then its account logs in', async () => {
    const root = await rootCompany();
    const compName = unique('shell-reg');
    const userId = unique('shellreg').replace(/-/g, '_');
    const password = 'Reg1ster!e2e';
    const { page } = await browser();
    await page.goto(url('/register?lang=en'));
    // Three steps (the wizard's rules have their own file): where, contact, first account.
    await shown(page.getByRole('region', { name: 'Company', exact: true }));
    await page.getByLabel('Parent company key').fill(root.comp_key);
    await page.getByLabel('Company name').fill(compName);
    await page.getByRole('button', { name: 'Next' }).click();
    await shown(page.getByRole('region', { name: 'Contact', exact: true }));
    await page.getByLabel('Contact person').fill('Reg Tester');
    await page.getByLabel('Phone', { exact: true }).fill('13800138000');
    await page.getByRole('button', { name: 'Next' }).click();
    await shown(page.getByRole('region', { name: 'First account', exact: true }));
    await page.getByLabel('Account', { exact: true }).fill(userId);
    await page.getByLabel('Email').fill(`${userId}@example.com`);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm password').fill(password);
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await shown(page.getByText('Registration submitted', { exact: true }));
    await shown(page.getByText('The parent company must approve your registration.', { exact: false }));

    // Not yet: the account is disabled until approval.
    await page.getByRole('button', { name: 'Back to login' }).click();
    await page.waitForURL((u) => u.pathname === '/login');
    await page.getByLabel('Account').fill(userId);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await shown(page.getByRole('alert').filter({ hasText: 'Account disabled' }));

    const admin = await browser();
    await logIn(admin.page, 'admin', adminPassword());
    await admin.page.goto(url('/operate/company?lang=en'));
    await admin.page.getByRole('form', { name: 'Filters' }).getByLabel('Company name').fill(compName);
    await admin.page.getByRole('button', { name: 'Search' }).click();
    const row = admin.page.getByRole('table', { name: 'Companies' }).getByRole('row').filter({ hasText: compName });
    await shown(row.getByText('Pending approval'));
    await row.getByRole('button', { name: 'Approve' }).click();
    const confirm = admin.page.getByRole('tooltip').filter({ hasText: 'Approve this company registration?' });
    await confirm.getByRole('button', { name: 'OK' }).click();
    await shown(toast(admin.page, 'Company approved'));
    await shown(row.getByText('Active', { exact: true }));
    expect(await row.getByRole('button', { name: 'Approve' }).count()).toBe(0);

    await logIn(page, userId, password);
    await shown(page.getByRole('heading', { name: /^Welcome, / }));
    await shown(content(page).getByText(`Company: ${compName}`, { exact: false }));
  });
});

describe('mobile layout (375×740)', () => {
  it('hides the sider, opens the menu in a drawer and navigates from it', async () => {
    const { page } = await browser({ viewport: { width: 375, height: 740 } });
    await logIn(page, 'admin', adminPassword());
    await shown(page.getByRole('heading', { name: /^Welcome, / }));
    expect(await page.getByRole('navigation', { name: 'Main menu' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('dialog', { name: 'IoT Cloud Console' });
    await shown(drawer);
    await drawer.getByRole('menuitem', { name: 'Operations' }).click();
    await drawer.getByRole('menuitem', { name: 'Companies' }).click();
    await page.waitForURL((u) => u.pathname === '/operate/company');
    expect(where(page)).toBe('/operate/company?lang=en');
    await gone(drawer);
    await shown(page.getByRole('table', { name: 'Companies' }));
    await snap(page, 'shell-mobile-company-en.png');
  });

  it('shows at most 3 page numbers', async () => {
    const root = await rootCompany();
    const parent = await addCompany(unique('shell-mob-parent'), root.comp_id);
    const prefix = unique('shell-mob-rows');
    for (let i = 1; i <= 60; i++) await addCompany(`${prefix}-${String(i).padStart(2, '0')}`, parent.comp_id);
    const { page } = await browser({ viewport: { width: 375, height: 740 } });
    await logIn(page, 'admin', adminPassword());
    await page.goto(url('/operate/company?lang=en'));
    await page.getByRole('form', { name: 'Filters' }).getByLabel('Company name').fill(prefix);
    await page.getByRole('button', { name: 'Search' }).click();
    await shown(page.getByText('60 in total'));
    const table = page.getByRole('table', { name: 'Companies' });
    await shown(table.getByRole('row').filter({ hasText: `${prefix}-01` }));
    // 10 rows a page.
    expect(await table.getByRole('row').filter({ hasText: prefix }).count()).toBe(10);
    // antd's pager items are <li title="<n>"> inside the pagination list; only numbered ones count.
    const pageNumbers = page.getByRole('listitem').filter({ hasText: /^\d+$/ });
    const visibleNumbers = async () => {
      const all = await pageNumbers.all();
      const texts: string[] = [];
      for (const li of all) if (await li.isVisible()) texts.push((await li.textContent()) ?? '');
      return texts;
    };
    await expect.poll(visibleNumbers).toContain('1');
    expect((await visibleNumbers()).length).toBeLessThanOrEqual(3);
    await snap(page, 'shell-mobile-pager-en.png');
    // Walk to the last page: never more than 3 numbers, and there are 6 pages.
    const next = page.getByRole('listitem', { name: 'Next Page' });
    let last = '1';
    for (let i = 0; i < 10 && (await next.getAttribute('aria-disabled')) !== 'true'; i++) {
      await next.click();
      const numbers = await visibleNumbers();
      expect(numbers.length).toBeLessThanOrEqual(3);
      expect(numbers.length).toBeGreaterThanOrEqual(2);
      last = numbers[numbers.length - 1] ?? last;
    }
    expect(last).toBe('6');
    expect(
      await table
        .getByRole('row')
        .filter({ hasText: `${prefix}-60` })
        .count(),
    ).toBe(1);

    // Wide again: at most 5 numbers, and antd's page-size changer in each language.
    await page.setViewportSize({ width: 1280, height: 800 });
    await shown(page.getByRole('navigation', { name: 'Main menu' }));
    await page.getByRole('listitem', { name: '1', exact: true }).click();
    await shown(table.getByRole('row').filter({ hasText: `${prefix}-01` }));
    expect((await visibleNumbers()).length).toBeLessThanOrEqual(5);
    await shown(page.getByText('10 / page', { exact: true }));
    for (const c of [
      { from: 'Language', label: '简体中文', perPage: '10 条/页', col: '公司名称' },
      { from: '语言', label: '繁體中文', perPage: '10 條/頁', col: '公司名稱' },
    ]) {
      await pickLanguage(page, c.from, c.label);
      await shown(page.getByRole('columnheader', { name: c.col }));
      await shown(page.getByText(c.perPage, { exact: true }));
      expect((await visibleNumbers()).length).toBeLessThanOrEqual(5);
    }
    await snap(page, 'shell-company-pager-zh-TW.png');
  });
});

describe('toasts', () => {
  it('shows one error toast for two errors within 1.9 s and hides it after about 2 s', async () => {
    const { page } = await browser();
    await logIn(page, 'admin', adminPassword());
    await page.goto(url('/operate/company?lang=en'));
    await page.getByRole('button', { name: 'Add' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add company' });
    await shown(dialog);
    const error = toast(page, 'Fill in all required fields');
    const save = dialog.getByRole('button', { name: 'Save' });
    await save.click();
    await shown(error);
    const shownAt = Date.now();
    await save.click();
    // The second failure (within 1.9 s) adds no toast.
    await page.waitForTimeout(300);
    expect(await error.count()).toBe(1);
    await gone(error, 5000);
    const visibleFor = Date.now() - shownAt;
    expect(visibleFor).toBeGreaterThan(1500);
    expect(visibleFor).toBeLessThan(3500);
    // Once the window has passed, a new error shows again.
    await save.click();
    await shown(error);
  });
});
