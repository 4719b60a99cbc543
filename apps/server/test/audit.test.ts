import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompanyAdmin, encodePassword, startTestServer, type TestServer } from './harness.js';
import { addCompany, addRole, addUser, dbOf, fails, nowSeconds, ok, type UserRowLite } from './helpers.js';

let t: TestServer;
let compId: number;
beforeAll(async () => {
  t = await startTestServer();
  compId = (await addCompany(t, { comp_name: 'Audited Co' })).comp_id;
});
afterAll(async () => {
  await t?.close();
});

interface AuditRow {
  id: number;
  user_id: string;
  comp_id: number;
  path: string;
  action: string;
  target_id: string;
  changes: Record<string, { before: unknown; after: unknown }>;
  ip: string;
  request_id: string;
  gmt_create: number;
}

const auditList = (body: Record<string, unknown>, token = t.adminToken) =>
  t.call<AuditRow[]>('v2/user/audit/list', { page_size: 1000, ...body }, { token });
const auditOf = async (path: string, targetId: number | string) =>
  ok(await auditList({ path, target_id: String(targetId) })).filter((r) => r.path === path);
const auditCount = async () =>
  Number(
    (
      await dbOf(t)
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('audit rows of commands', () => {
  it('records an add with who, where, what, and the request id', async () => {
    const answer = await t.call<UserRowLite>(
      'v2/user/account/add',
      { user_id: 'audited.user', user_password: encodePassword('audited.user', 'Pw-12345'), comp_id: compId, user_name: 'Aud' },
      { token: t.adminToken, headers: { 'x-request-id': 'audit-req-1' } },
    );
    const user = ok(answer);
    const [row, ...rest] = await auditOf('v2/user/account/add', user.id);
    expect(rest).toEqual([]);
    expect(row).toMatchObject({
      user_id: 'admin',
      comp_id: 1,
      path: 'v2/user/account/add',
      action: 'add',
      target_id: String(user.id),
      ip: '127.0.0.1',
      request_id: 'audit-req-1',
    });
    expect(Math.abs(row!.gmt_create - nowSeconds())).toBeLessThanOrEqual(5);
    expect(row!.changes.user_id).toEqual({ before: null, after: 'audited.user' });
    expect(row!.changes.user_name).toEqual({ before: null, after: 'Aud' });
    expect(JSON.stringify(row!.changes)).not.toMatch(/argon2|password_hash/);
  });

  it('records a set with only the changed fields, before and after', async () => {
    const user = await addUser(t, { user_id: 'set.audit', comp_id: compId, user_name: 'Old name', remark: 'same' });
    // In a later second, so that bookkeeping times would differ too.
    await new Promise((r) => setTimeout(r, 1100));
    ok(await t.call('v2/user/account/set', { id: user.id, user_name: 'New name', remark: 'same' }, { token: t.adminToken }));
    const [row, ...rest] = await auditOf('v2/user/account/set', user.id);
    expect(rest).toEqual([]);
    expect(row!.action).toBe('set');
    expect(row!.changes).toEqual({ user_name: { before: 'Old name', after: 'New name' } });
  });

  it('records a password change masked, and never the hash or the encoded password', async () => {
    const user = await addUser(t, { user_id: 'pw.audit', comp_id: compId, password: 'First-pw1' });
    const encoded = encodePassword('pw.audit', 'Second-pw1');
    ok(await t.call('v2/user/account/set', { id: user.id, user_password: encoded }, { token: t.adminToken }));
    const [row] = await auditOf('v2/user/account/set', user.id);
    expect(row!.changes).toEqual({ user_password: { before: '******', after: '******' } });
    const all = JSON.stringify(await dbOf(t).selectFrom('audit_log').selectAll().execute());
    expect(all).not.toMatch(/\$argon2|\$scrypt/);
    expect(all).not.toContain(encoded);
    expect(all).not.toContain(encodePassword('pw.audit', 'First-pw1'));
    expect(all).not.toContain(encodePassword('audited.user', 'Pw-12345'));
  });

  it('records a delete with the row as it was', async () => {
    const user = await addUser(t, { user_id: 'del.audit', comp_id: compId, user_name: 'Gone soon' });
    ok(await t.call('v2/user/account/del', { ids: [user.id] }, { token: t.adminToken }));
    const [row] = await auditOf('v2/user/account/del', user.id);
    expect(row!.action).toBe('del');
    expect(row!.changes.user_id).toEqual({ before: 'del.audit', after: null });
    expect(row!.changes.user_name).toEqual({ before: 'Gone soon', after: null });
  });

  it('records one row per deleted id', async () => {
    const x = await addCompany(t, { comp_name: 'Del X' });
    const y = await addCompany(t, { comp_name: 'Del Y' });
    ok(await t.call('v2/user/company/del', { ids: [x.comp_id, y.comp_id] }, { token: t.adminToken }));
    expect((await auditOf('v2/user/company/del', x.comp_id)).length).toBe(1);
    expect((await auditOf('v2/user/company/del', y.comp_id)).length).toBe(1);
  });

  it('records every kind of command: companies, roles, menus, resources, registration', async () => {
    const company = await addCompany(t, { comp_name: 'Every kind' });
    ok(await t.call('v2/user/company/set', { comp_id: company.comp_id, city: 'Rome' }, { token: t.adminToken }));
    const role = await addRole(t, { name: 'Audited role', comp_id: company.comp_id, menuKeys: ['operate/user'] });
    ok(await t.call('v2/user/role/set', { id: role.id, name: 'Renamed role' }, { token: t.adminToken }));
    ok(await t.call('v2/user/role/del', { id: role.id }, { token: t.adminToken }));
    const menu = ok(
      await t.call<{ menu_id: number }>('v2/user/menu/add', { menu_key: 'audit/menu', menu_name: 'M' }, { token: t.adminToken }),
    );
    ok(await t.call('v2/user/menu/set', { menu_id: menu.menu_id, menu_name: 'M2' }, { token: t.adminToken }));
    ok(await t.call('v2/user/menu/del', { menu_id: menu.menu_id }, { token: t.adminToken }));
    const res = ok(
      await t.call<{ id: number }>('v2/user/srv/resource/add', { res_type: 'sys', sys: 's1', name: 'n1' }, { token: t.adminToken }),
    );
    ok(await t.call('v2/user/srv/resource/set', { id: res.id, name: 'n2' }, { token: t.adminToken }));
    ok(await t.call('v2/user/srv/resource/del', { id: res.id }, { token: t.adminToken }));
    const root = ok(await t.call<{ company: { comp_key: string } }>('v2/user/account/get', {}, { token: t.adminToken })).company;
    const reg = ok(
      await t.call<{ comp_id: number }>('v2/user/company/register', {
        parent_comp_key: root.comp_key,
        comp_name: 'Registered for audit',
        comp_person: 'Reg',
        user_id: 'reg.audit',
        user_password: encodePassword('reg.audit', 'Reg-pw-1'),
        user_email: 'reg@example.com',
      }),
    );

    expect((await auditOf('v2/user/company/add', company.comp_id))[0]!.changes.comp_name).toEqual({ before: null, after: 'Every kind' });
    expect((await auditOf('v2/user/company/set', company.comp_id))[0]!.changes).toEqual({ city: { before: '', after: 'Rome' } });
    expect((await auditOf('v2/user/role/add', role.id)).length).toBe(1);
    expect((await auditOf('v2/user/role/set', role.id))[0]!.changes).toEqual({ name: { before: 'Audited role', after: 'Renamed role' } });
    expect((await auditOf('v2/user/role/del', role.id)).length).toBe(1);
    expect((await auditOf('v2/user/menu/add', menu.menu_id)).length).toBe(1);
    expect((await auditOf('v2/user/menu/set', menu.menu_id))[0]!.changes).toEqual({ menu_name: { before: 'M', after: 'M2' } });
    expect((await auditOf('v2/user/menu/del', menu.menu_id)).length).toBe(1);
    expect((await auditOf('v2/user/srv/resource/add', res.id)).length).toBe(1);
    expect((await auditOf('v2/user/srv/resource/set', res.id))[0]!.changes).toEqual({ name: { before: 'n1', after: 'n2' } });
    expect((await auditOf('v2/user/srv/resource/del', res.id)).length).toBe(1);
    const [regRow] = await auditOf('v2/user/company/register', reg.comp_id);
    expect(regRow).toMatchObject({ action: 'add', user_id: 'reg.audit', comp_id: reg.comp_id });
    expect(JSON.stringify(regRow)).not.toMatch(/argon2|Reg-pw-1/);
  });

  it('writes nothing for a read or a login', async () => {
    const before = await auditCount();
    ok(await t.call('v2/user/account/list', {}, { token: t.adminToken }));
    ok(await t.call('v2/user/company/list', { tree: 1 }, { token: t.adminToken }));
    await t.login('admin', 'Admin#12345');
    expect(await auditCount()).toBe(before);
  });
});

describe('failed commands write nothing and change nothing', () => {
  it('406 and 409 leave no audit row', async () => {
    await addUser(t, { user_id: 'taken.id', comp_id: compId });
    const before = await auditCount();
    fails(
      await t.call(
        'v2/user/account/add',
        { user_id: 'taken.id', user_password: encodePassword('taken.id', 'x'), comp_id: compId },
        { token: t.adminToken },
      ),
      1101,
    );
    fails(await t.call('v2/user/account/add', { user_id: '' }, { token: t.adminToken }), 406);
    fails(await t.call('v2/user/company/add', { comp_name: 'Audited Co', comp_parent_id: 1 }, { token: t.adminToken }), 409);
    fails(await t.call('v2/user/account/set', { id: 99999, user_name: 'x' }, { token: t.adminToken }), 406);
    expect(await auditCount()).toBe(before);
  });

  it('rolls back the rows a command changed before it failed', async () => {
    const keep = await addUser(t, { user_id: 'rollback.user', comp_id: compId });
    const empty = await addCompany(t, { comp_name: 'Rollback empty' });
    const parent = await addCompany(t, { comp_name: 'Rollback parent' });
    await addCompany(t, { comp_name: 'Rollback child', comp_parent_id: parent.comp_id });
    const before = await auditCount();
    // The first id is deleted, the second fails: the first must come back.
    fails(await t.call('v2/user/account/del', { ids: [keep.id, 99999] }, { token: t.adminToken }), 406);
    fails(await t.call('v2/user/company/del', { ids: [empty.comp_id, parent.comp_id] }, { token: t.adminToken }), 406);
    expect(await auditCount()).toBe(before);
    expect(ok(await t.call<UserRowLite[]>('v2/user/account/list', { user_id: 'rollback.user' }, { token: t.adminToken }))).toHaveLength(1);
    const companies = ok(await t.call<{ comp_id: number }[]>('v2/user/company/list', { comp_name: 'Rollback' }, { token: t.adminToken }));
    expect(companies.map((c) => c.comp_id)).toContain(empty.comp_id);
  });
});

describe('audit list', () => {
  let a: Awaited<ReturnType<typeof createCompanyAdmin>>;
  let a1Admin: Awaited<ReturnType<typeof createCompanyAdmin>>;
  let b: Awaited<ReturnType<typeof createCompanyAdmin>>;
  const MENUS = ['operate/company', 'operate/user', 'system/audit'];
  beforeAll(async () => {
    a = await createCompanyAdmin(t, { name: 'Audit A', menuKeys: MENUS, userId: 'audit.a' });
    a1Admin = await createCompanyAdmin(t, { name: 'Audit A1', parentId: a.compId, menuKeys: MENUS, userId: 'audit.a1' });
    b = await createCompanyAdmin(t, { name: 'Audit B', menuKeys: MENUS, userId: 'audit.b' });
    await addUser(t, { user_id: 'by.a', comp_id: a.compId }, a.token);
    await addUser(t, { user_id: 'by.a1', comp_id: a1Admin.compId }, a1Admin.token);
    await addUser(t, { user_id: 'by.b', comp_id: b.compId }, b.token);
  });

  it("shows a company admin only its tree's entries", async () => {
    const rows = ok(await auditList({}, a.token));
    const actors = [...new Set(rows.map((r) => r.user_id))].sort();
    expect(actors).toEqual(['audit.a', 'audit.a1']);
    expect(rows.every((r) => [a.compId, a1Admin.compId].includes(r.comp_id))).toBe(true);
    const fromA1 = ok(await auditList({}, a1Admin.token));
    expect([...new Set(fromA1.map((r) => r.user_id))]).toEqual(['audit.a1']);
    expect(ok(await auditList({ comp_id: b.compId }, a.token))).toEqual([]);
    // The super administrator sees everything.
    const all = ok(await auditList({}));
    expect(new Set(all.map((r) => r.user_id))).toEqual(new Set(['admin', 'audit.a', 'audit.a1', 'audit.b', 'reg.audit']));
  });

  it('answers newest first with a count', async () => {
    const res = await auditList({ page_size: 3 });
    const rows = ok(res);
    expect(rows).toHaveLength(3);
    expect(res.count).toBe(await auditCount());
    expect(rows.map((r) => r.id)).toEqual([...rows.map((r) => r.id)].sort((x, y) => y - x));
  });

  it('filters by action, path, user and time', async () => {
    const adds = ok(await auditList({ action: 'add' }));
    expect(adds.length).toBeGreaterThan(0);
    expect(adds.every((r) => r.action === 'add')).toBe(true);
    const dels = ok(await auditList({ action: 'del' }));
    expect(dels.every((r) => r.action === 'del')).toBe(true);
    fails(await auditList({ action: 'drop' }), 406);
    const byPath = ok(await auditList({ path: 'v2/user/role/' }));
    expect(byPath.length).toBeGreaterThan(0);
    expect(byPath.every((r) => r.path.startsWith('v2/user/role/'))).toBe(true);
    const byUser = ok(await auditList({ user_id: 'audit.b' }));
    expect(byUser.length).toBeGreaterThan(0);
    expect(byUser.every((r) => r.user_id === 'audit.b')).toBe(true);

    const newest = ok(await auditList({ page_size: 1 }))[0]!;
    const at = newest.gmt_create;
    expect(ok(await auditList({ gmt_start: at + 1 }))).toEqual([]);
    expect(ok(await auditList({ gmt_start: at })).map((r) => r.id)).toContain(newest.id);
    // The end is exclusive.
    expect(ok(await auditList({ gmt_end: at })).map((r) => r.id)).not.toContain(newest.id);
    expect(ok(await auditList({ gmt_start: at, gmt_end: at + 1 })).map((r) => r.id)).toContain(newest.id);
    const ranged = ok(await auditList({ gmt_start: at - 3600, gmt_end: at + 1 }));
    expect(ranged.every((r) => r.gmt_create >= at - 3600 && r.gmt_create < at + 1)).toBe(true);
  });

  it('needs system/audit', async () => {
    const noAudit = await createCompanyAdmin(t, { name: 'No audit', menuKeys: ['operate/user'], userId: 'no.audit' });
    fails(await auditList({}, noAudit.token), 513);
  });
});
