import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { addCompany, addUser, fails, ok } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  for (const id of ['sort-b', 'sort-c', 'sort-a']) await addUser(t, { user_id: id, comp_id: 1, role_id: null });
  for (const [name, sort] of [
    ['Zeta', 1],
    ['Alpha', null],
    ['Mid', 2],
  ] as const)
    await addCompany(t, { comp_name: name, sort });
});
afterAll(async () => {
  await t?.close();
});

describe('list sorting (order_by / order)', () => {
  it('sorts a whole list server-side, not just the page', async () => {
    const asc = ok(
      await t.call<{ user_id: string }[]>(
        'v2/user/account/list',
        { user_id: 'sort-', order_by: 'user_id', page_size: 2 },
        { token: t.adminToken },
      ),
    );
    expect(asc.map((u) => u.user_id)).toEqual(['sort-a', 'sort-b']);
    const desc = ok(
      await t.call<{ user_id: string }[]>(
        'v2/user/account/list',
        { user_id: 'sort-', order_by: 'user_id', order: 'desc', page_size: 2 },
        { token: t.adminToken },
      ),
    );
    expect(desc.map((u) => u.user_id)).toEqual(['sort-c', 'sort-b']);
  });

  it('keeps companies without a sort last in both directions', async () => {
    const names = async (order: 'asc' | 'desc') =>
      ok(
        await t.call<{ comp_name: string }[]>(
          'v2/user/company/list',
          { comp_parent_id: 1, order_by: 'sort', order },
          { token: t.adminToken },
        ),
      ).map((c) => c.comp_name);
    expect(await names('asc')).toEqual(['Zeta', 'Mid', 'Alpha']);
    expect(await names('desc')).toEqual(['Mid', 'Zeta', 'Alpha']);
  });

  it('refuses a field the list cannot sort by, naming the allowed ones', async () => {
    const answer = await t.call<{ fields: Record<string, string> }>(
      'v2/user/account/list',
      { order_by: 'password_hash' },
      { token: t.adminToken },
    );
    fails(answer, 406);
    expect(answer.data.fields.order_by).toMatch(/^one_of:.*user_id/);
  });
});
