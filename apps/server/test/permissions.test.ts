import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompanyAdmin, startTestServer, type TestServer } from './harness.js';
import {
  addCompany,
  addRole,
  addUser,
  addUserAnswer,
  fails,
  flattenMenus,
  type MenuNodeLite,
  menuIds,
  ok,
  type UserRowLite,
} from './helpers.js';

/**
 * Company tree for these tests:
 *   Platform (1, super admin)
 *   ├── A  (admin a.admin, data_scope 2: A and subsidiaries)
 *   │   └── A1 (user a1.user)
 *   ├── B  (sibling: user b.user, role "B staff")
 *   │   └── B1
 *   └── C  (admin c.admin, data_scope 1: own company only)
 *       └── C1 (user c1.user)
 */
let t: TestServer;
const ADMIN_MENUS = ['operate/company', 'operate/user', 'system/role', 'system/audit'];
let a: Awaited<ReturnType<typeof createCompanyAdmin>>;
let c: Awaited<ReturnType<typeof createCompanyAdmin>>;
let a1: number;
let b: number;
let b1: number;
let c1: number;
let bUser: UserRowLite;
let a1User: UserRowLite;
let c1User: UserRowLite;
let bRole: number;

beforeAll(async () => {
  t = await startTestServer();
  a = await createCompanyAdmin(t, { name: 'A', menuKeys: ADMIN_MENUS, userId: 'a.admin', dataScope: 2 });
  c = await createCompanyAdmin(t, { name: 'C', menuKeys: ADMIN_MENUS, userId: 'c.admin', dataScope: 1 });
  a1 = (await addCompany(t, { comp_name: 'A1', comp_parent_id: a.compId })).comp_id;
  b = (await addCompany(t, { comp_name: 'B' })).comp_id;
  b1 = (await addCompany(t, { comp_name: 'B1', comp_parent_id: b })).comp_id;
  c1 = (await addCompany(t, { comp_name: 'C1', comp_parent_id: c.compId })).comp_id;
  bRole = (await addRole(t, { name: 'B staff', comp_id: b, menuKeys: ['operate/user'] })).id;
  bUser = await addUser(t, { user_id: 'b.user', comp_id: b, role_id: bRole, user_name: 'B original' });
  a1User = await addUser(t, { user_id: 'a1.user', comp_id: a1, user_name: 'A1 user' });
  c1User = await addUser(t, { user_id: 'c1.user', comp_id: c1, user_name: 'C1 user' });
});
afterAll(async () => {
  await t?.close();
});

const asAdmin = <T>(path: string, body: Record<string, unknown> = {}) => t.call<T>(path, body, { token: t.adminToken });
const fieldsOf = (data: unknown) => (data as { fields: Record<string, string> }).fields;

describe('menu-key permission (513)', () => {
  let companyOnly: Awaited<ReturnType<typeof createCompanyAdmin>>;
  beforeAll(async () => {
    companyOnly = await createCompanyAdmin(t, { name: 'Company-only', menuKeys: ['operate/company'], userId: 'company.only' });
  });

  it('refuses every path whose menu keys the role lacks', async () => {
    const token = companyOnly.token;
    for (const path of [
      'v2/user/account/list',
      'v2/user/account/add',
      'v2/user/account/set',
      'v2/user/account/del',
      'v2/user/role/list',
      'v2/user/role/get',
      'v2/user/role/add',
      'v2/user/role/set',
      'v2/user/role/del',
      'v2/user/role/rela/list',
      'v2/user/menu/list',
      'v2/user/srv/resource/list',
      'v2/user/srv/resource/add',
      'v2/user/audit/list',
    ]) {
      fails(await t.call(path, { id: 1, res_type: 'sys' }, { token }), 513);
    }
  });

  it('allows the paths of the menus it holds and those open to every user', async () => {
    const token = companyOnly.token;
    ok(await t.call('v2/user/company/list', {}, { token }));
    ok(await t.call('v2/user/account/get', {}, { token }));
    await addCompany(t, { comp_name: 'Made by company.only', comp_parent_id: companyOnly.compId }, token);
  });

  it('refuses super-only paths (menu add/set/del) to a non-super user, even one holding system/menu', async () => {
    const menuAdmin = await createCompanyAdmin(t, { name: 'Menu admin Co', menuKeys: ['system/menu'], userId: 'menu.admin' });
    ok(await t.call('v2/user/menu/list', {}, { token: menuAdmin.token }));
    const [roleMenu] = await menuIds(t, ['system/role']);
    fails(await t.call('v2/user/menu/add', { menu_key: 'x/y', menu_name: 'X' }, { token: menuAdmin.token }), 513);
    fails(await t.call('v2/user/menu/set', { menu_id: roleMenu, menu_name: 'Hacked' }, { token: menuAdmin.token }), 513);
    fails(await t.call('v2/user/menu/del', { menu_id: roleMenu }, { token: menuAdmin.token }), 513);
    const tree = ok(await asAdmin<MenuNodeLite[]>('v2/user/menu/list'));
    expect(flattenMenus(tree).some((m) => m.menu_key === 'x/y')).toBe(false);
    // The super administrator may.
    const added = ok(await asAdmin<{ menu_id: number }>('v2/user/menu/add', { menu_key: 'x/y', menu_name: 'X' }));
    ok(await asAdmin('v2/user/menu/del', { menu_id: added.menu_id }));
  });

  it('answers a non-super user only its own menus', async () => {
    const tree = ok(await t.call<MenuNodeLite[]>('v2/user/menu/list', {}, { token: a.token }));
    const leaves = flattenMenus(tree)
      .filter((m) => m.sub_menus.length === 0)
      .map((m) => m.menu_key)
      .sort();
    expect(leaves).toEqual([...ADMIN_MENUS].sort());
    // Groups come only as the parents of held menus.
    expect(tree.map((g) => g.menu_key).sort()).toEqual(['operate', 'system']);
    const all = flattenMenus(ok(await asAdmin<MenuNodeLite[]>('v2/user/menu/list')));
    expect(all.length).toBeGreaterThan(leaves.length + 10);
  });
});

describe('company scope: a sibling company is invisible (406, nothing changes)', () => {
  it('users: list, set, del, add', async () => {
    const listed = await t.call<UserRowLite[]>('v2/user/account/list', { page_size: 1000 }, { token: a.token });
    const ids = ok(listed).map((u) => u.user_id);
    expect(ids).toContain('a.admin');
    expect(ids).toContain('a1.user');
    expect(ids).not.toContain('b.user');
    expect(ids).not.toContain('admin');
    expect(listed.count).toBe(ids.length);
    const filtered = await t.call<UserRowLite[]>('v2/user/account/list', { comp_id: b }, { token: a.token });
    expect(ok(filtered)).toEqual([]);
    expect(filtered.count).toBe(0);
    fails(await t.call('v2/user/account/set', { id: bUser.id, user_name: 'Hijacked' }, { token: a.token }), 406);
    fails(await t.call('v2/user/account/set', { id: bUser.id, state: 2 }, { token: a.token }), 406);
    fails(await t.call('v2/user/account/del', { id: bUser.id }, { token: a.token }), 406);
    fails(await t.call('v2/user/account/del', { ids: [a1User.id, bUser.id] }, { token: a.token }), 406);
    fails(await addUserAnswer(t, { user_id: 'planted', comp_id: b }, a.token), 406);
    // Moving one's own user into the sibling company is refused as well.
    fails(await t.call('v2/user/account/set', { id: a1User.id, comp_id: b }, { token: a.token }), 406);
    const [after] = ok(await asAdmin<UserRowLite[]>('v2/user/account/list', { user_id: 'b.user' }));
    expect(after).toMatchObject({ id: bUser.id, user_name: 'B original', state: 1, comp_id: b });
    const [a1After] = ok(await asAdmin<UserRowLite[]>('v2/user/account/list', { user_id: 'a1.user' }));
    expect(a1After).toMatchObject({ comp_id: a1 });
    expect(ok(await asAdmin<UserRowLite[]>('v2/user/account/list', { user_id: 'planted' }))).toEqual([]);
  });

  it('companies: list, set, del, add under, move under', async () => {
    const listed = ok(await t.call<{ comp_id: number }[]>('v2/user/company/list', { page_size: 1000 }, { token: a.token }));
    expect(listed.map((r) => r.comp_id).sort((x, y) => x - y)).toEqual([a.compId, a1].sort((x, y) => x - y));
    const tree = ok(await t.call<{ comp_id: number }[]>('v2/user/company/list', { tree: 1 }, { token: a.token }));
    expect(tree.map((r) => r.comp_id)).toEqual([a.compId]);
    fails(await t.call('v2/user/company/set', { comp_id: b, comp_name: 'Hijacked' }, { token: a.token }), 406);
    fails(await t.call('v2/user/company/set', { comp_id: b1, state: 2 }, { token: a.token }), 406);
    fails(await t.call('v2/user/company/del', { comp_id: b1 }, { token: a.token }), 406);
    fails(await t.call('v2/user/company/del', { ids: [b1] }, { token: a.token }), 406);
    fails(await t.call('v2/user/company/add', { comp_name: 'Planted', comp_parent_id: b }, { token: a.token }), 406);
    fails(await t.call('v2/user/company/set', { comp_id: a1, comp_parent_id: b }, { token: a.token }), 406);
    const all = ok(
      await asAdmin<{ comp_id: number; comp_name: string; state: number; comp_parent_id: number }[]>('v2/user/company/list', {
        page_size: 1000,
      }),
    );
    expect(all.find((r) => r.comp_id === b)).toMatchObject({ comp_name: 'B', state: 1 });
    expect(all.find((r) => r.comp_id === b1)).toMatchObject({ comp_name: 'B1', state: 1 });
    expect(all.find((r) => r.comp_id === a1)).toMatchObject({ comp_parent_id: a.compId });
    expect(all.some((r) => r.comp_name === 'Planted')).toBe(false);
  });

  it('roles: list, get, set, del, rela/list', async () => {
    const listed = ok(await t.call<{ id: number; comp_id: number }[]>('v2/user/role/list', { page_size: 1000 }, { token: a.token }));
    expect(listed.map((r) => r.id)).toContain(a.roleId);
    expect(listed.map((r) => r.id)).not.toContain(bRole);
    expect(ok(await t.call('v2/user/role/list', { comp_id: b }, { token: a.token }))).toEqual([]);
    fails(await t.call('v2/user/role/get', { id: bRole }, { token: a.token }), 406);
    fails(await t.call('v2/user/role/set', { id: bRole, name: 'Hijacked', state: 2 }, { token: a.token }), 406);
    fails(await t.call('v2/user/role/del', { id: bRole }, { token: a.token }), 406);
    fails(await t.call('v2/user/role/rela/list', { role_id: bRole }, { token: a.token }), 406);
    fails(await t.call('v2/user/role/add', { name: 'Planted', comp_id: b, menu_ids: [] }, { token: a.token }), 406);
    const role = ok(await asAdmin<{ name: string; state: number }>('v2/user/role/get', { id: bRole }));
    expect(role).toMatchObject({ name: 'B staff', state: 1 });
    // b.user still works with its role.
    ok(await t.loginAnswer('b.user', 'Passw0rd!'));
  });

  it('own-company scope (data_scope 1) hides subsidiaries', async () => {
    const users = ok(await t.call<UserRowLite[]>('v2/user/account/list', { page_size: 1000 }, { token: c.token })).map((u) => u.user_id);
    expect(users).toEqual(['c.admin']);
    const companies = ok(await t.call<{ comp_id: number }[]>('v2/user/company/list', { page_size: 1000 }, { token: c.token }));
    expect(companies.map((r) => r.comp_id)).toEqual([c.compId]);
    fails(await t.call('v2/user/account/set', { id: c1User.id, user_name: 'x' }, { token: c.token }), 406);
    fails(await t.call('v2/user/company/set', { comp_id: c1, comp_name: 'x' }, { token: c.token }), 406);
    fails(await addUserAnswer(t, { user_id: 'into.c1', comp_id: c1 }, c.token), 406);
    // The tree scope sees the subsidiary's user.
    const aUsers = ok(await t.call<UserRowLite[]>('v2/user/account/list', { comp_id: a1 }, { token: a.token })).map((u) => u.user_id);
    expect(aUsers).toEqual(['a1.user']);
  });

  it('manages rows of its own subsidiaries', async () => {
    const row = ok(await t.call<UserRowLite>('v2/user/account/set', { id: a1User.id, user_name: 'Renamed by A' }, { token: a.token }));
    expect(row.user_name).toBe('Renamed by A');
    ok(await t.call('v2/user/company/set', { comp_id: a1, dk_limit: 10 }, { token: a.token }));
  });
});

describe('no escalation', () => {
  it('refuses to create or change a role with a menu the creator does not hold (513)', async () => {
    const [menuMenu, deviceMenu] = await menuIds(t, ['system/menu', 'product/device']);
    const [userMenu] = await menuIds(t, ['operate/user']);
    fails(
      await t.call('v2/user/role/add', { name: 'Too much', comp_id: a.compId, menu_ids: [userMenu, menuMenu] }, { token: a.token }),
      513,
    );
    fails(await t.call('v2/user/role/add', { name: 'Too much 2', comp_id: a1, menu_ids: [deviceMenu] }, { token: a.token }), 513);
    const roles = ok(await asAdmin<{ name: string }[]>('v2/user/role/list', { page_size: 1000 })).map((r) => r.name);
    expect(roles).not.toContain('Too much');
    expect(roles).not.toContain('Too much 2');
    // Within its own menus it may.
    const role = ok(
      await t.call<{ id: number }>('v2/user/role/add', { name: 'Fine', comp_id: a1, menu_ids: [userMenu] }, { token: a.token }),
    );
    fails(await t.call('v2/user/role/set', { id: role.id, menu_ids: [userMenu, menuMenu] }, { token: a.token }), 513);
    const after = ok(await asAdmin<{ menu_ids: number[] }>('v2/user/role/get', { id: role.id }));
    expect(after.menu_ids).toEqual([userMenu]);
  });

  it('refuses to give a user a role holding menus the creator lacks (513)', async () => {
    const bigRole = await addRole(t, { name: 'Big role in A', comp_id: a.compId, menuKeys: ['operate/user', 'system/menu'] });
    fails(await addUserAnswer(t, { user_id: 'gets.big', comp_id: a.compId, role_id: bigRole.id }, a.token), 513);
    fails(await t.call('v2/user/account/set', { id: a1User.id, role_id: bigRole.id }, { token: a.token }), 513);
    expect(ok(await asAdmin<UserRowLite[]>('v2/user/account/list', { user_id: 'gets.big' }))).toEqual([]);
    const [a1After] = ok(await asAdmin<UserRowLite[]>('v2/user/account/list', { user_id: 'a1.user' }));
    expect(a1After!.role_id).toBeNull();
  });

  it('refuses to give a role of a sibling company (406)', async () => {
    const answer = await addUserAnswer(t, { user_id: 'gets.b.role', comp_id: a.compId, role_id: bRole }, a.token);
    fails(answer, 406);
    expect(fieldsOf(answer.data)).toHaveProperty('role_id');
    fails(await t.call('v2/user/account/set', { id: a1User.id, role_id: bRole }, { token: a.token }), 406);
  });

  it('refuses to create or promote a super administrator (user_type 1) (513)', async () => {
    fails(await addUserAnswer(t, { user_id: 'wannabe', comp_id: a.compId, user_type: 1 }, a.token), 513);
    fails(await t.call('v2/user/account/set', { id: a1User.id, user_type: 1 }, { token: a.token }), 513);
    expect(ok(await asAdmin<UserRowLite[]>('v2/user/account/list', { user_id: 'wannabe' }))).toEqual([]);
  });

  it("refuses a company admin raising its own company's limits or changing its own state (513)", async () => {
    fails(await t.call('v2/user/company/set', { comp_id: a.compId, dk_limit: 1_000_000 }, { token: a.token }), 513);
    fails(await t.call('v2/user/company/set', { comp_id: a.compId, state: 2 }, { token: a.token }), 513);
    fails(await t.call('v2/user/company/set', { comp_id: a.compId, comp_type: 2 }, { token: a.token }), 513);
    const [row] = ok(
      await asAdmin<{ comp_id: number; dk_limit: number; state: number }[]>('v2/user/company/list', { comp_name: 'A', comp_parent_id: 1 }),
    );
    expect(row).toMatchObject({ comp_id: a.compId, dk_limit: 0, state: 1 });
    // Harmless fields of its own company it may change.
    ok(await t.call('v2/user/company/set', { comp_id: a.compId, comp_person: 'Alice' }, { token: a.token }));
  });

  it('refuses to change its own role', async () => {
    const [userMenu, menuMenu] = await menuIds(t, ['operate/user', 'system/menu']);
    fails(await t.call('v2/user/role/set', { id: a.roleId, menu_ids: [userMenu, menuMenu] }, { token: a.token }), 513);
    fails(await t.call('v2/user/role/set', { id: a.roleId, data_scope: 2, name: 'x' }, { token: a.token }), 513);
  });

  it('refuses an own-company-scope admin handing out a company-tree scope (513)', async () => {
    const [userMenu] = await menuIds(t, ['operate/user']);
    fails(
      await t.call('v2/user/role/add', { name: 'Wider', comp_id: c.compId, menu_ids: [userMenu], data_scope: 2 }, { token: c.token }),
      513,
    );
    const narrow = ok(
      await t.call<{ id: number }>(
        'v2/user/role/add',
        { name: 'Narrow', comp_id: c.compId, menu_ids: [userMenu], data_scope: 1 },
        { token: c.token },
      ),
    );
    fails(await t.call('v2/user/role/set', { id: narrow.id, data_scope: 2 }, { token: c.token }), 513);
    const wideByAdmin = await addRole(t, { name: 'Wide in C', comp_id: c.compId, menuKeys: ['operate/user'], data_scope: 2 });
    fails(await addUserAnswer(t, { user_id: 'gets.wide', comp_id: c.compId, role_id: wideByAdmin.id }, c.token), 513);
    ok(await addUserAnswer(t, { user_id: 'gets.narrow', comp_id: c.compId, role_id: narrow.id }, c.token));
  });
});

describe('disabled role', () => {
  it('ends the sessions of its holders on their next call, and keeps them out', async () => {
    const holder = await createCompanyAdmin(t, { name: 'Role holder Co', menuKeys: ['operate/user'], userId: 'role.holder' });
    ok(await t.call('v2/user/account/list', {}, { token: holder.token }));
    ok(await asAdmin('v2/user/role/set', { id: holder.roleId, state: 2 }));
    fails(await t.call('v2/user/account/list', {}, { token: holder.token }), 401);
    fails(await t.call('v2/user/account/get', {}, { token: holder.token }), 401);
    expect((await t.loginAnswer('role.holder', 'Passw0rd!')).code).not.toBe(200);
    ok(await asAdmin('v2/user/role/set', { id: holder.roleId, state: 1 }));
    ok(await t.loginAnswer('role.holder', 'Passw0rd!'));
  });

  it('takes a menu away on the next call when the role loses it', async () => {
    const holder = await createCompanyAdmin(t, {
      name: 'Shrinking Co',
      menuKeys: ['operate/user', 'operate/company'],
      userId: 'shrinking',
    });
    ok(await t.call('v2/user/account/list', {}, { token: holder.token }));
    ok(await asAdmin('v2/user/role/set', { id: holder.roleId, menu_ids: await menuIds(t, ['operate/company']) }));
    fails(await t.call('v2/user/account/list', {}, { token: holder.token }), 513);
  });
});
