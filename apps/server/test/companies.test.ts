import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompanyAdmin, encodePassword, startTestServer, type TestServer } from './harness.js';
import { addCompany, addUser, fails, ok } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

interface CompanyNode {
  comp_id: number;
  comp_name: string;
  comp_parent_id: number;
  comp_key: string;
  state: number;
  sort: number | null;
  dk_limit: number;
  children?: CompanyNode[];
}

const list = (body: Record<string, unknown>, token = t.adminToken) => t.call<CompanyNode[]>('v2/user/company/list', body, { token });
const set = (body: Record<string, unknown>, token = t.adminToken) => t.call<CompanyNode>('v2/user/company/set', body, { token });
const del = (body: Record<string, unknown>, token = t.adminToken) => t.call('v2/user/company/del', body, { token });
const getOne = async (compId: number) => ok(await list({ page_size: 1000 })).find((c) => c.comp_id === compId);

describe('company add/set/del', () => {
  it('adds a company under a parent and answers the row', async () => {
    const row = await addCompany(t, {
      comp_name: 'Acme',
      comp_short_name: 'AC',
      comp_person: 'Ann',
      comp_phone: '13800000000',
      dk_limit: 50,
    });
    expect(row).toMatchObject({ comp_name: 'Acme', comp_parent_id: 1, state: 1 });
    const listed = await getOne(row.comp_id);
    expect(listed).toMatchObject({ comp_name: 'Acme', dk_limit: 50 });
    expect(listed?.comp_key).toMatch(/\S{6,}/);
  });

  it('sets only the given fields', async () => {
    const row = await addCompany(t, { comp_name: 'Settable', comp_person: 'Bob', city: 'Paris' });
    const after = ok(await set({ comp_id: row.comp_id, city: 'Lyon' }));
    expect(after).toMatchObject({ comp_name: 'Settable', comp_person: 'Bob', city: 'Lyon' });
    fails(await set({ comp_id: 99999, city: 'x' }), 406);
  });

  it('answers 409 for a duplicate name under the same parent, but allows it under another', async () => {
    const a = await addCompany(t, { comp_name: 'Parent A' });
    const b = await addCompany(t, { comp_name: 'Parent B' });
    await addCompany(t, { comp_name: 'Twin', comp_parent_id: a.comp_id });
    fails(await t.call('v2/user/company/add', { comp_name: 'Twin', comp_parent_id: a.comp_id }, { token: t.adminToken }), 409);
    const other = await addCompany(t, { comp_name: 'Twin', comp_parent_id: b.comp_id });
    expect(other.comp_parent_id).toBe(b.comp_id);
    // Renaming onto a sibling's name is refused too; moving next to a namesake as well.
    const c = await addCompany(t, { comp_name: 'Not twin', comp_parent_id: a.comp_id });
    fails(await set({ comp_id: c.comp_id, comp_name: 'Twin' }), 409);
    fails(await set({ comp_id: other.comp_id, comp_parent_id: a.comp_id }), 409);
    expect((await getOne(other.comp_id))?.comp_parent_id).toBe(b.comp_id);
    expect(
      ok(await list({ comp_parent_id: a.comp_id }))
        .map((r) => r.comp_name)
        .sort(),
    ).toEqual(['Not twin', 'Twin']);
  });

  it('answers 409 to the loser of two simultaneous adds of one name', async () => {
    const add = () => t.call('v2/user/company/add', { comp_name: 'Racing Co', comp_parent_id: 1 }, { token: t.adminToken });
    const answers = await Promise.all([add(), add()]);
    expect(answers.map((a) => a.code).sort((x, y) => x - y)).toEqual([200, 409]);
  });

  it('deletes a company without children or users', async () => {
    const row = await addCompany(t, { comp_name: 'Short lived' });
    ok(await del({ comp_id: row.comp_id }));
    expect(await getOne(row.comp_id)).toBeUndefined();
    fails(await del({ comp_id: row.comp_id }), 406);
  });

  it('refuses to delete a company with children or users', async () => {
    const parent = await addCompany(t, { comp_name: 'Has child' });
    const child = await addCompany(t, { comp_name: 'The child', comp_parent_id: parent.comp_id });
    const withUser = await addCompany(t, { comp_name: 'Has user' });
    await addUser(t, { user_id: 'company.user', comp_id: withUser.comp_id });
    const r1 = await del({ comp_id: parent.comp_id });
    fails(r1, 406);
    expect((r1.data as { fields: Record<string, string> }).fields).toEqual({ comp_id: 'has_children' });
    const r2 = await del({ id: withUser.comp_id });
    fails(r2, 406);
    expect((r2.data as { fields: Record<string, string> }).fields).toEqual({ comp_id: 'has_users' });
    expect(await getOne(parent.comp_id)).toBeDefined();
    expect(await getOne(withUser.comp_id)).toBeDefined();
    // Child first, then the parent goes.
    ok(await del({ ids: [child.comp_id, parent.comp_id] }));
    expect(await getOne(parent.comp_id)).toBeUndefined();
  });

  it('refuses to delete the root company', async () => {
    fails(await del({ comp_id: 1 }), 513);
    expect(await getOne(1)).toBeDefined();
  });

  it('refuses to move a company under itself or its own subtree', async () => {
    const top = await addCompany(t, { comp_name: 'Mover top' });
    const mid = await addCompany(t, { comp_name: 'Mover mid', comp_parent_id: top.comp_id });
    const leaf = await addCompany(t, { comp_name: 'Mover leaf', comp_parent_id: mid.comp_id });
    for (const target of [top.comp_id, mid.comp_id, leaf.comp_id]) {
      const answer = await set({ comp_id: top.comp_id, comp_parent_id: target });
      fails(answer, 406);
      expect((answer.data as unknown as { fields: Record<string, string> }).fields).toEqual({ comp_parent_id: 'cycle' });
    }
    expect((await getOne(top.comp_id))?.comp_parent_id).toBe(1);
    // A legal move carries the subtree along: the leaf stays under mid, both now under the new parent.
    const elsewhere = await addCompany(t, { comp_name: 'Elsewhere' });
    ok(await set({ comp_id: mid.comp_id, comp_parent_id: elsewhere.comp_id }));
    const tree = ok(await list({ tree: 1 }));
    const root = tree.find((c) => c.comp_id === 1)!;
    const found = root.children?.find((c) => c.comp_id === elsewhere.comp_id);
    expect(found?.children?.map((c) => c.comp_id)).toEqual([mid.comp_id]);
    expect(found?.children?.[0]?.children?.map((c) => c.comp_id)).toEqual([leaf.comp_id]);
  });
});

describe('company tree', () => {
  it('nests children under parents with tree:1, sort ascending, empty sort last in its level', async () => {
    const group = await addCompany(t, { comp_name: 'Tree group', sort: 1 });
    const noSort = await addCompany(t, { comp_name: 'T no sort', comp_parent_id: group.comp_id });
    const second = await addCompany(t, { comp_name: 'T second', comp_parent_id: group.comp_id, sort: 20 });
    const first = await addCompany(t, { comp_name: 'T first', comp_parent_id: group.comp_id, sort: 10 });
    const grandchild = await addCompany(t, { comp_name: 'T grandchild', comp_parent_id: first.comp_id });
    const answer = await list({ tree: 1 });
    const roots = ok(answer);
    expect(roots.map((r) => r.comp_id)).toEqual([1]);
    const node = roots[0]!.children!.find((c) => c.comp_id === group.comp_id)!;
    expect(node.children!.map((c) => c.comp_id)).toEqual([first.comp_id, second.comp_id, noSort.comp_id]);
    expect(node.children![0]!.children!.map((c) => c.comp_id)).toEqual([grandchild.comp_id]);
    // Sorted companies come before unsorted ones among the root's children too.
    const level = roots[0]!.children!;
    const firstUnsorted = level.findIndex((c) => c.sort === null);
    expect(level.slice(firstUnsorted).every((c) => c.sort === null)).toBe(true);
    expect(level[0]!.comp_id).toBe(group.comp_id);
    // An emptied sort goes last.
    ok(await set({ comp_id: first.comp_id, sort: '' }));
    const again = ok(await list({ tree: 1 }))[0]!.children!.find((c) => c.comp_id === group.comp_id)!;
    expect(again.children!.map((c) => c.comp_id)).toEqual([second.comp_id, noSort.comp_id, first.comp_id]);
  });

  it("answers a company admin's own company as the root of its tree", async () => {
    const admin = await createCompanyAdmin(t, { name: 'Tree owner', menuKeys: ['operate/company'], userId: 'tree.owner' });
    const sub = await addCompany(t, { comp_name: 'Owner sub', comp_parent_id: admin.compId }, admin.token);
    const roots = ok(await list({ tree: 1 }, admin.token));
    expect(roots.map((r) => r.comp_id)).toEqual([admin.compId]);
    expect(roots[0]!.children!.map((c) => c.comp_id)).toEqual([sub.comp_id]);
  });
});

describe('self-registration', () => {
  it('creates a pending company and a disabled account; the parent approves; the account logs in', async () => {
    const parentAdmin = await createCompanyAdmin(t, {
      name: 'Distributor',
      menuKeys: ['operate/company', 'operate/user'],
      userId: 'distributor.admin',
    });
    const parent = (await getOne(parentAdmin.compId))!;
    const payload = {
      parent_comp_key: parent.comp_key,
      comp_name: 'Newcomer Ltd',
      comp_person: 'Nina',
      comp_phone: '13600000000',
      user_id: 'newcomer',
      user_password: encodePassword('newcomer', 'Newc0mer!'),
      user_email: 'nina@example.com',
    };
    // Public: no token needed.
    const reg = await t.call<CompanyNode>('v2/user/company/register', payload);
    const company = ok(reg);
    expect(company).toMatchObject({ comp_name: 'Newcomer Ltd', comp_parent_id: parentAdmin.compId, state: 3 });
    // The account exists but cannot log in yet.
    const login = await t.loginAnswer('newcomer', 'Newc0mer!');
    expect([516, 517]).toContain(login.code);
    // Registering again with the same names is refused.
    fails(await t.call('v2/user/company/register', payload), 409);
    fails(await t.call('v2/user/company/register', { ...payload, comp_name: 'Another Ltd' }), 1101);
    fails(await t.call('v2/user/company/register', { ...payload, parent_comp_key: 'no-such-key' }), 406);
    // The parent's admin sees it pending and approves it.
    const pending = ok(await list({ state: 3 }, parentAdmin.token));
    expect(pending.map((c) => c.comp_id)).toEqual([company.comp_id]);
    expect(ok(await set({ comp_id: company.comp_id, state: 1 }, parentAdmin.token)).state).toBe(1);
    ok(await t.loginAnswer('newcomer', 'Newc0mer!'));
  });

  it('cannot be approved by a company outside the parent tree', async () => {
    const root = ok(await t.call<{ company: { comp_key: string } }>('v2/user/account/get', {}, { token: t.adminToken })).company;
    const outsider = await createCompanyAdmin(t, { name: 'Outsider', menuKeys: ['operate/company'], userId: 'outsider.admin' });
    const company = ok(
      await t.call<CompanyNode>('v2/user/company/register', {
        parent_comp_key: root.comp_key,
        comp_name: 'Root applicant',
        comp_person: 'Rita',
        user_id: 'root.applicant',
        user_password: encodePassword('root.applicant', 'Appl1cant!'),
        user_email: 'rita@example.com',
      }),
    );
    fails(await set({ comp_id: company.comp_id, state: 1 }, outsider.token), 406);
    expect((await getOne(company.comp_id))?.state).toBe(3);
  });
});
