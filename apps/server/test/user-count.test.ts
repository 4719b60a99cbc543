import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { addCompany, addRole, addUser, dbOf, ok } from './helpers.js';

// An unfiltered user list counts its scope from company_user_count (kept by triggers, migration 0002);
// these checks hold it equal to counting the rows, through adds, moves, deletes and company scope.
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const listCount = async (token: string, body: Record<string, unknown> = {}) => {
  const res = await t.call<unknown[]>('v2/user/account/list', { page_size: 1, ...body }, { token });
  ok(res);
  return res.count;
};
const rowCount = async () => Number((await sql<{ n: number }>`select count(*)::int as n from app_user`.execute(dbOf(t))).rows[0]?.n);

describe('user list count', () => {
  it('matches the rows for the super administrator and for a company tree, through add, move and delete', async () => {
    const parent = await addCompany(t, { comp_name: 'Count Parent' });
    const child = await addCompany(t, { comp_name: 'Count Child', comp_parent_id: parent.comp_id });
    const other = await addCompany(t, { comp_name: 'Count Other' });
    const role = await addRole(t, { name: 'Counter', comp_id: parent.comp_id, menuKeys: ['operate/user'], data_scope: 2 });
    await addUser(t, { user_id: 'count.boss', comp_id: parent.comp_id, role_id: role.id, user_type: 2, password: 'Count-pw1' });
    const boss = await t.login('count.boss', 'Count-pw1');
    const a = await addUser(t, { user_id: 'count.a', comp_id: child.comp_id });
    await addUser(t, { user_id: 'count.b', comp_id: child.comp_id });
    await addUser(t, { user_id: 'count.c', comp_id: other.comp_id });

    expect(await listCount(t.adminToken)).toBe(await rowCount());
    expect(await listCount(boss)).toBe(3);
    // A filter counts the rows themselves: the same answer.
    expect(await listCount(boss, { user_id: 'count.' })).toBe(3);

    ok(await t.call('v2/user/account/set', { id: a.id, comp_id: other.comp_id }, { token: t.adminToken }));
    expect(await listCount(boss)).toBe(2);
    expect(await listCount(t.adminToken)).toBe(await rowCount());

    ok(await t.call('v2/user/account/del', { id: a.id }, { token: t.adminToken }));
    expect(await listCount(t.adminToken)).toBe(await rowCount());
    expect(await listCount(boss)).toBe(2);
  });
});
