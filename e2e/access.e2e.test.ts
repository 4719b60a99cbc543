import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unique } from './api';
import { adminPassword, type Browser, baseUrl, logIn, openBrowser, pickCompany, pickOption } from './browser';

/**
 * The key scenario of the foundation: an administrator creates, through the
 * screens, a company, a role with exactly two menus and a user; that user then
 * sees those menus and nothing else, is refused other routes, and sees only the
 * users of its own company.
 */

const url = (p: string) => `${baseUrl()}${p}`;
const shown = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'visible', timeout });
const gone = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'hidden', timeout });

/**
 * Closes a dialog with its Close button. A click that lands while antd's opening animation still
 * runs can be lost on a loaded machine, so the click is repeated until the dialog is gone.
 */
const closeDialog = async (dialog: Locator) => {
  for (let attempt = 0; attempt < 5; attempt++) {
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    try {
      await gone(dialog, 2_000);
      return;
    } catch {
      // still open: click again
    }
  }
  await gone(dialog);
};

/** Saves the open dialog and waits until it closed. */
const save = async (dialog: Locator) => {
  await dialog.getByRole('button', { name: 'Save' }).click();
  await gone(dialog);
};

/** Opens every group of the sidebar (a group title is a menuitem with aria-expanded). */
const openSidebarGroups = async (page: Page) => {
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  await shown(nav.getByRole('menuitem').first());
  const closed = nav.getByRole('menuitem', { expanded: false });
  while ((await closed.count()) > 0) await closed.first().click();
  await page.waitForTimeout(300);
  return nav;
};

/** The visible menu item names of the sidebar, with every group opened. */
const sidebarItems = async (page: Page): Promise<string[]> => {
  const nav = await openSidebarGroups(page);
  const names: string[] = [];
  for (const item of await nav.getByRole('menuitem').all())
    if (await item.isVisible()) names.push((await item.textContent())?.trim() ?? '');
  return names;
};

describe('access: a role with two menus', () => {
  let admin: Browser;
  let user: Browser;
  const compName = unique('acc-co');
  const roleName = unique('acc-role');
  const userId = unique('acc-user');
  const password = 'Acc#e2e-pass1';

  beforeAll(async () => {
    admin = await openBrowser();
    user = await openBrowser();
  });
  afterAll(async () => {
    await admin?.close();
    await user?.close();
  });

  it('the admin creates a company, a role with operate/user and system/audit, and a user in the screens', async () => {
    const { page } = admin;
    await logIn(page, 'admin', adminPassword());

    // Company (its parent defaults to the admin's own company).
    await page.goto(url('/operate/company?lang=en'));
    await page.getByRole('button', { name: 'Add' }).click();
    let dialog = page.getByRole('dialog', { name: 'Add company' });
    await dialog.getByLabel('Company name').fill(compName);
    await save(dialog);
    await shown(page.getByRole('table', { name: 'Companies' }).getByRole('row').filter({ hasText: compName }));

    // Role in that company with exactly two menus.
    await page.goto(url('/system/role?lang=en'));
    await page.getByRole('button', { name: 'Add' }).click();
    dialog = page.getByRole('dialog', { name: 'Add role' });
    await dialog.getByLabel('Name', { exact: true }).fill(roleName);
    await pickCompany(page, dialog, 'Company', compName);
    const menus = dialog.getByRole('group', { name: 'Menus' });
    await menus.getByText('Users', { exact: true }).click();
    await menus.getByText('Audit log', { exact: true }).click();
    await expect.poll(() => menus.getByRole('checkbox', { checked: true }).count()).toBe(2);
    await save(dialog);
    const roleRow = page.getByRole('table', { name: 'Roles' }).getByRole('row').filter({ hasText: roleName });
    await shown(roleRow);
    expect(await roleRow.textContent()).toContain(compName);
    expect(await roleRow.textContent()).toContain('Custom');
    // Editing loads the role's menus (role/get): the same two are checked.
    await roleRow.getByRole('button', { name: 'Edit' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit role' });
    const editMenus = dialog.getByRole('group', { name: 'Menus' });
    await expect.poll(() => editMenus.getByRole('checkbox', { checked: true }).count()).toBe(2);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await gone(dialog);

    // User in that company with that role.
    await page.goto(url('/operate/user?lang=en'));
    await page.getByRole('button', { name: 'Add' }).click();
    dialog = page.getByRole('dialog', { name: 'Add user' });
    await dialog.getByLabel('Account').fill(userId);
    await dialog.getByLabel('Name', { exact: true }).fill('Access Tester');
    await dialog.getByLabel('Password', { exact: true }).fill(password);
    await dialog.getByLabel('Confirm password').fill(password);
    await pickCompany(page, dialog, 'Company', compName);
    await pickOption(page, dialog, 'Role', roleName);
    await save(dialog);
    const userRow = page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: userId });
    await shown(userRow);
    expect(await userRow.textContent()).toContain(compName);
    expect(await userRow.textContent()).toContain(roleName);

    // The role's users, and a refused delete while a user holds it.
    await page.goto(url('/system/role?lang=en'));
    const held = page.getByRole('table', { name: 'Roles' }).getByRole('row').filter({ hasText: roleName });
    await held.getByRole('button', { name: 'Users' }).click();
    const users = page.getByRole('dialog', { name: `Users holding the role ${roleName}` });
    await shown(users.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: userId }));
    await closeDialog(users);
    await held.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('tooltip').getByRole('button', { name: 'Delete' }).click();
    await shown(page.getByRole('alert').filter({ hasText: 'It is in use (users hold it) and cannot be deleted' }));
    await shown(held);

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL((u) => u.pathname === '/login');
  });

  it('the user sees exactly the two menus and their groups', async () => {
    const { page } = user;
    await logIn(page, userId, password);
    expect(await sidebarItems(page)).toEqual(['Dashboard', 'System', 'Audit log', 'Operations', 'Users']);
  });

  it('a route not granted shows the no-permission page', async () => {
    const { page } = user;
    for (const route of ['/system/role', '/operate/company', '/system/menu']) {
      await page.goto(url(`${route}?lang=en`));
      await shown(page.getByText('No permission', { exact: true }));
      expect(await page.getByRole('table').count()).toBe(0);
    }
  });

  it('the user opens operate/user and sees only users of its company', async () => {
    const { page } = user;
    await page.goto(url('/operate/user?lang=en'));
    const table = page.getByRole('table', { name: 'Users' });
    await shown(table.getByRole('row').filter({ hasText: userId }));
    await shown(page.getByText('1 in total').first());
    const rows = table.getByRole('row');
    // Header + one user: the company holds only that user; admin (another company) is not listed.
    expect(await rows.count()).toBe(2);
    expect(await table.getByRole('row').filter({ hasText: 'admin' }).count()).toBe(0);
    expect(await rows.nth(1).textContent()).toContain(compName);

    // The audit log, also granted, opens too.
    await (await openSidebarGroups(page)).getByRole('menuitem', { name: 'Audit log' }).click();
    await page.waitForURL((u) => u.pathname === '/system/audit');
    await shown(page.getByRole('table', { name: 'Audit log' }));
  });
});
