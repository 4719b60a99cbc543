import { ALL_MENU_KEYS, API_LIST, type ApiDef, companyRefFieldsOf } from '@iot/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseOf, objectOf } from './contract-samples.js';
import { createCompanyAdmin, startTestServer, type TestServer } from './harness.js';
import { addUser, dbOf, fails, ok } from './helpers.js';

/**
 * The shared mechanisms of issue 7, tried over the whole registry: the list kit (filters
 * escaped, unknown sort columns refused), and declared company references (one answer for a
 * foreign company on every path that names one). Answers matching their row schemas is checked
 * on every call of every API test by the harness (CHECK_ANSWERS).
 */
let t: TestServer;
let admin: { token: string; compId: number };
let siblingId: number;

beforeAll(async () => {
  t = await startTestServer();
  // A company administrator holding every menu: only scope can refuse it.
  admin = await createCompanyAdmin(t, { name: 'Kit A', menuKeys: ALL_MENU_KEYS, userId: 'kit.admin' });
  siblingId = (await createCompanyAdmin(t, { name: 'Kit B', menuKeys: [], userId: 'kit.sibling' })).compId;
});
afterAll(async () => {
  await t?.close();
});

const fieldsOf = (answer: { data: unknown }) => (answer.data as { fields?: Record<string, string> } | null)?.fields;

describe('list kit', () => {
  it('matches % _ and \\ literally in "contains" filters', async () => {
    const names = ['100% sure', '100x sure', 'snake_case', 'snakeXcase', 'back\\slash', 'backslash'];
    for (const [i, name] of names.entries()) await addUser(t, { user_id: `kit.user${i}`, user_name: name, comp_id: admin.compId });
    const matching = async (user_name: string) =>
      ok(await t.call<{ user_name: string }[]>('v2/user/account/list', { user_name, page_size: 100 }, { token: admin.token }))
        .map((u) => u.user_name)
        .sort();
    expect(await matching('%')).toEqual(['100% sure']);
    expect(await matching('0% s')).toEqual(['100% sure']);
    expect(await matching('e_c')).toEqual(['snake_case']);
    expect(await matching('\\')).toEqual(['back\\slash']);
    expect(await matching('SNAKE')).toEqual(['snakeXcase', 'snake_case']);
  });

  it('refuses an unknown sort column on every list that takes order_by, naming the allowed ones', async () => {
    // Lists with paging and sorting (the menu tree has neither).
    const lists = API_LIST.filter((api) => api.kind === 'list' && objectOf(api.input)?.shape.order_by !== undefined);
    const checked: string[] = [];
    for (const api of lists) {
      const base = { ...baseOf(api.input), page_size: 1 };
      if (!api.input.safeParse({ ...base, order_by: 'no_such_column' }).success) continue;
      const answer = await t.call(api.path, { ...base, order_by: 'no_such_column' }, { token: t.adminToken });
      // A list whose own lookup fails first (an unknown device, product or role) says so with 406 too.
      expect(answer.code, `${api.path} answered ${answer.code}`).toBe(406);
      const fields = fieldsOf(answer) ?? {};
      if ('order_by' in fields) {
        expect(fields.order_by, api.path).toMatch(/^one_of:\w+/);
        checked.push(api.path);
      }
    }
    // Most lists are reached with a sample payload; each of those refused the column.
    expect(checked.length).toBeGreaterThanOrEqual(lists.length - 4);
  });
});

describe('declared company references', () => {
  const marked = API_LIST.filter((api) => api.kind !== 'list' && companyRefFieldsOf(api.input).length > 0);

  it('are declared on the commands that name a company', () => {
    const paths = marked.map((api) => api.path);
    for (const path of [
      'v2/user/account/add',
      'v2/user/account/set',
      'v2/user/role/add',
      'v2/user/company/add',
      'user/product/add',
      'v2/umh/admin/product/share/add',
      'v2/umh/admin/liccode/add',
      'v2/iot/web/uid/reg/add',
      'v2/iot/web/uid/reg/bulk',
      'iot/dev/file/update',
      'v2/iot/dev/statistics/get',
    ]) {
      expect(paths, path).toContain(path);
    }
  });

  it('refuse a company outside the caller’s scope, and an unknown one, with the same answer on every path, storing nothing', async () => {
    const count = async () =>
      Number(
        (
          await sql<{
            n: number;
          }>`select (select count(*) from audit_log) + (select count(*) from product) + (select count(*) from app_user) + (select count(*) from role) + (select count(*) from company) + (select count(*) from device) + (select count(*) from job) + (select count(*) from device_licence) as n`.execute(
            dbOf(t),
          )
        ).rows[0]?.n,
      );
    const before = await count();
    for (const api of marked) {
      for (const field of companyRefFieldsOf(api.input)) {
        for (const compId of [siblingId, 1_999_999_999]) {
          const payload = { ...sampleFor(api), [field]: compId };
          expect(api.input.safeParse(payload).success, `${api.path} sample`).toBe(true);
          const answer = await t.call(api.path, payload, { token: admin.token });
          fails(answer, 406);
          expect(fieldsOf(answer), `${api.path} ${field}`).toEqual({ [field]: 'not_found' });
          expect(answer.msg).toBe('company does not exist');
        }
      }
    }
    expect(await count()).toBe(before);
  });
});

/** A valid payload of a path (the bulk action needs its target company to be the action's). */
const sampleFor = (api: ApiDef): Record<string, unknown> => {
  const base = baseOf(api.input);
  if (api.path === 'v2/iot/web/uid/reg/bulk') return { ...base, action: 'assign_company', ids: [1] };
  return base;
};

describe("the benchmark's bare list", () => {
  it('is not registered unless the benchmark asks for it (it answers without a token)', async () => {
    const res = await t.raw('/api/bench/bare/account-list', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(404);
  });
});
