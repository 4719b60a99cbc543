import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUserWithMenus, unique } from './api';
import { adminPassword, type Browser, baseUrl, logIn, openBrowser } from './browser';

/** The system screens as the administrator uses them: menus, service resources, audit log, own account. */

const url = (p: string) => `${baseUrl()}${p}`;
const shown = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'visible', timeout });
const gone = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'hidden', timeout });
const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Main menu' });

const save = async (dialog: Locator) => {
  await dialog.getByRole('button', { name: 'Save' }).click();
  await gone(dialog);
};

describe('system screens', () => {
  let admin: Browser;
  const sys = unique('sys');
  const dcName = unique('dc');
  const dcRenamed = `${dcName}-renamed`;

  beforeAll(async () => {
    admin = await openBrowser();
    await logIn(admin.page, 'admin', adminPassword());
  });
  afterAll(async () => {
    await admin?.close();
  });

  it('menu: switching show-in-menu off hides the entry from the sidebar, on shows it again', async () => {
    const { page } = admin;
    await page.goto(url('/system/menu?lang=en'));
    const table = page.getByRole('table', { name: 'Menus' });
    const row = table.getByRole('row').filter({ hasText: 'system/resource' });
    await shown(row);
    // The icon is drawn, named by its icon name.
    await shown(row.getByRole('img', { name: 'ClusterOutlined' }));
    const toggle = page.getByRole('switch', { name: 'Show Service resources in the menu' });
    const entry = sidebar(page).getByRole('menuitem', { name: 'Service resources' });
    await shown(entry);
    expect(await toggle.isChecked()).toBe(true);

    await toggle.click();
    await gone(entry);
    await expect.poll(() => toggle.isChecked()).toBe(false);
    // Still hidden after a reload: it is the server's menu tree, not local state.
    await page.reload();
    await shown(table.getByRole('row').filter({ hasText: 'system/resource' }));
    expect(await sidebar(page).getByRole('menuitem', { name: 'Service resources' }).count()).toBe(0);
    await shown(sidebar(page).getByRole('menuitem', { name: 'Audit log' }));

    await page.getByRole('switch', { name: 'Show Service resources in the menu' }).click();
    await shown(sidebar(page).getByRole('menuitem', { name: 'Service resources' }));
  });

  it('resource: adds, edits and deletes a data center', async () => {
    const { page } = admin;
    await page.goto(url('/system/resource?lang=en'));
    await page.getByRole('tab', { name: 'Data centers' }).click();
    const panel = page.getByRole('tabpanel', { name: 'Data centers' });
    await panel.getByRole('button', { name: 'Add' }).click();
    let dialog = page.getByRole('dialog', { name: 'Add data center' });
    await dialog.getByLabel('System', { exact: true }).fill(sys);
    await dialog.getByLabel('Name', { exact: true }).fill(dcName);
    await dialog.getByLabel('Zone').fill('cn-east');
    await dialog.getByLabel('Domain', { exact: true }).fill('example.com');
    await dialog.getByLabel('Port', { exact: true }).fill('8080');
    await save(dialog);
    const table = panel.getByRole('table', { name: 'Data centers' });
    const row = table.getByRole('row').filter({ hasText: dcName });
    await shown(row);
    const text = (await row.textContent()) ?? '';
    expect(text).toContain(sys);
    expect(text).toContain('cn-east');
    expect(text).toContain('8080');
    expect(text).toContain('443');
    expect(text).toContain('Enabled');

    await row.getByRole('button', { name: 'Edit' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit data center' });
    expect(await dialog.getByLabel('Name', { exact: true }).inputValue()).toBe(dcName);
    await dialog.getByLabel('Name', { exact: true }).fill(dcRenamed);
    await save(dialog);
    const renamed = table.getByRole('row').filter({ hasText: dcRenamed });
    await shown(renamed);

    await renamed.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('tooltip').getByRole('button', { name: 'Delete' }).click();
    await gone(table.getByRole('row').filter({ hasText: sys }));
  });

  it('audit: the changes above are listed with before and after', async () => {
    const { page } = admin;
    await page.goto(url('/system/audit?lang=en'));
    const filters = page.getByRole('form', { name: 'Filters' });
    await filters.getByLabel('API path').fill('v2/user/srv/resource');
    await filters.getByRole('button', { name: 'Search' }).click();
    const table = page.getByRole('table', { name: 'Audit log' });
    // Newest first: delete, set, add of the data center.
    await shown(table.getByRole('row').filter({ hasText: 'v2/user/srv/resource/del' }).first());
    const setRow = table.getByRole('row').filter({ hasText: 'v2/user/srv/resource/set' }).first();
    await shown(setRow);
    expect(await setRow.textContent()).toContain('Change');
    expect(await setRow.textContent()).toContain('admin');
    await setRow.getByRole('button', { name: 'Expand row' }).click();
    const changes = page.getByRole('table', { name: /^Changes of / });
    await shown(changes);
    const nameChange = changes.getByRole('row').filter({ hasText: 'name' });
    expect(await nameChange.getByRole('cell').allTextContents()).toEqual(['name', dcName, dcRenamed]);

    // The menu toggles of the first test are there too, filtered by action.
    await filters.getByLabel('API path').fill('v2/user/menu/set');
    await filters.getByLabel('Action').click();
    await page.getByTitle('Change', { exact: true }).click();
    await filters.getByRole('button', { name: 'Search' }).click();
    const menuRow = table.getByRole('row').filter({ hasText: 'v2/user/menu/set' }).first();
    await shown(menuRow);
    await menuRow.getByRole('button', { name: 'Expand row' }).click();
    const isShow = page
      .getByRole('table', { name: /^Changes of / })
      .getByRole('row')
      .filter({ hasText: 'is_show' });
    expect(await isShow.getByRole('cell').allTextContents()).toEqual(['is_show', '0', '1']);

    // Sorting is the server's: by API path ascending, then descending, over all entries.
    await filters.getByRole('button', { name: 'Reset' }).click();
    const paths = async () => {
      await page.waitForTimeout(500);
      const cells = await table.getByRole('row').filter({ hasText: 'v2/' }).all();
      return Promise.all(cells.map(async (r) => ((await r.textContent()) ?? '').match(/v2\/[a-z/]+/)?.[0] ?? ''));
    };
    await table.getByRole('columnheader', { name: 'API path' }).click();
    const asc = await paths();
    expect(asc.length).toBeGreaterThan(1);
    expect(asc).toEqual([...asc].sort());
    await table.getByRole('columnheader', { name: 'API path' }).click();
    const desc = await paths();
    expect(desc).toEqual([...desc].sort().reverse());
  });

  it('user/info: a wrong old password is refused on its field; the right one changes it', async () => {
    const account = await addUserWithMenus({ prefix: 'pw', menuKeys: ['system/audit'] });
    const newPassword = 'New#e2e-pass2';
    const b = await openBrowser();
    try {
      const { page } = b;
      await logIn(page, account.userId, account.password);
      await page.goto(url('/user/info?lang=en'));
      await shown(page.getByRole('main').getByText(account.userId, { exact: true }));
      await shown(page.getByRole('main').getByText(account.company.comp_name, { exact: true }));

      const form = page.getByRole('form', { name: 'Change password' });
      await page.getByLabel('Current password').fill('not-my-password');
      await page.getByLabel('New password', { exact: true }).fill(newPassword);
      await page.getByLabel('Confirm new password').fill(`${newPassword}x`);
      await page.getByRole('button', { name: 'Change password' }).click();
      await shown(page.getByText('The two passwords differ'));

      await page.getByLabel('Confirm new password').fill(newPassword);
      await page.getByRole('button', { name: 'Change password' }).click();
      await shown(form.getByText('Wrong password'));

      await page.getByLabel('Current password').fill(account.password);
      await page.getByRole('button', { name: 'Change password' }).click();
      await shown(page.getByRole('status').filter({ hasText: 'Your other sessions have been signed out' }));

      await page.getByRole('button', { name: 'Log out' }).click();
      await page.waitForURL((u) => u.pathname === '/login');
      // The old password no longer works, the new one does.
      await page.getByLabel('Account').fill(account.userId);
      await page.getByLabel('Password').fill(account.password);
      await page.getByRole('button', { name: 'Log in' }).click();
      await shown(page.getByText('Wrong account or password'));
      await page.getByLabel('Password').fill(newPassword);
      await page.getByRole('button', { name: 'Log in' }).click();
      // (The shell returns to the page shown before logging out.)
      await page.waitForURL((u) => u.pathname !== '/login');
      await shown(page.getByRole('button', { name: 'Log out' }));
    } finally {
      await b.close();
    }
  });
});
