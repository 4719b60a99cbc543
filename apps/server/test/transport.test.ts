import { API_LIST, type Envelope } from '@iot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompanyAdmin, encodePassword, startTestServer, type TestServer } from './harness.js';
import { addCompany, addUser, fails, menuIds, ok, startSibling, type UserRowLite } from './helpers.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const post = async (path: string, body: string, headers: Record<string, string> = {}) => {
  const res = await t.raw(`/api/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Envelope };
};

describe('request shapes (CONTRACT §1)', () => {
  it('accepts the legacy envelope with params and acc_token', async () => {
    const res = await post(
      'v2/user/account/list',
      JSON.stringify({
        language: 'en',
        app_key: 'web',
        acc_token: t.adminToken,
        api_ver: '1.0.1',
        auth_type: 1,
        tag: 'x',
        params: { user_id: 'admin' },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(200);
    expect((res.body.data as UserRowLite[]).map((u) => u.user_id)).toEqual(['admin']);
    expect(res.body.count).toBe(1);
  });

  it('accepts the legacy envelope with api_ver and the token in the header', async () => {
    const res = await post('v2/user/account/list', JSON.stringify({ api_ver: '1.0.1', params: { user_id: 'admin' } }), {
      authorization: `Bearer ${t.adminToken}`,
    });
    expect(res.body.code).toBe(200);
    expect(res.body.count).toBe(1);
  });

  it('treats `params` as a payload field when the body is not a legacy envelope', async () => {
    // No api_ver/acc_token: the body itself is the payload, so the user_id filter is absent.
    const res = await t.call('v2/user/account/list', { params: { user_id: 'nobody' } }, { token: t.adminToken });
    ok(res);
    expect(res.count).toBeGreaterThanOrEqual(1);
  });

  it('accepts a plain `Authorization: <token>` header', async () => {
    const res = await t.call('v2/user/account/get', {}, { token: t.adminToken, plainAuth: true });
    expect(ok(res)).toMatchObject({ user: { user_id: 'admin' } });
  });

  it('accepts `Authorization: Bearer <token>`', async () => {
    const res = await t.call('v2/user/account/get', {}, { token: t.adminToken });
    expect(ok(res)).toMatchObject({ user: { user_id: 'admin' } });
  });

  it('takes the token from the header before acc_token', async () => {
    const envelope = (accToken: string) => JSON.stringify({ api_ver: '1.0.1', acc_token: accToken, params: {} });
    const headerGood = await post('v2/user/account/get', envelope('garbage-token'), { authorization: t.adminToken });
    expect(headerGood.body.code).toBe(200);
    const headerBad = await post('v2/user/account/get', envelope(t.adminToken), { authorization: 'Bearer garbage-token' });
    expect(headerBad.body.code).toBe(401);
  });

  it('answers 401 without a token on a protected path', async () => {
    fails(await t.call('v2/user/account/get', {}), 401);
    fails(await t.call('v2/user/account/list', {}, { token: 'not-a-token' }), 401);
  });
});

describe('envelope and transport errors', () => {
  it('answers {code, data, count} on lists and {code, data} elsewhere', async () => {
    const list = await post('v2/user/account/list', '{}', { authorization: `Bearer ${t.adminToken}` });
    expect(list.status).toBe(200);
    expect(Object.keys(list.body).sort()).toEqual(['code', 'count', 'data']);
    expect(Array.isArray(list.body.data)).toBe(true);
    const get = await post('v2/user/account/get', '{}', { authorization: `Bearer ${t.adminToken}` });
    expect(get.body.code).toBe(200);
    expect(get.body.count).toBeUndefined();
  });

  it('answers errors with HTTP 200, a code and a message', async () => {
    const res = await post('v2/user/account/get', '{}');
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(401);
    expect(typeof res.body.msg).toBe('string');
    expect(res.body).toHaveProperty('data');
  });

  it('answers HTTP 400 with code 406 for malformed JSON', async () => {
    const res = await post('v2/user/account/list', '{"page_no": 1,', { authorization: `Bearer ${t.adminToken}` });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(406);
    expect(typeof res.body.msg).toBe('string');
  });

  it('answers HTTP 404 with code 404 for an unknown path', async () => {
    const res = await post('v2/user/no/such/path', '{}', { authorization: `Bearer ${t.adminToken}` });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(404);
    expect(res.body).toHaveProperty('data');
  });

  it('answers 406 for a JSON body that is not an object', async () => {
    for (const body of ['[1,2]', '"text"', '42', 'null']) {
      const res = await post('v2/user/account/list', body, { authorization: `Bearer ${t.adminToken}` });
      expect(res.body.code, body).toBe(406);
      expect(res.body.data, body).toBeNull();
    }
  });

  it('accepts JSON sent as text/plain', async () => {
    const res = await post('v2/user/account/list', JSON.stringify({ user_id: 'admin' }), {
      'content-type': 'text/plain',
      authorization: `Bearer ${t.adminToken}`,
    });
    expect(res.body.code).toBe(200);
    expect(res.body.count).toBe(1);
  });

  it('answers HTTP 413 with code 413 for a body over the limit', async () => {
    const small = await startSibling(t, { bodyLimit: 1024 });
    try {
      const res = await small.raw('/api/v2/user/account/list', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${t.adminToken}` },
        body: JSON.stringify({ user_name: 'x'.repeat(4096) }),
      });
      expect(res.status).toBe(413);
      const body = (await res.json()) as Envelope;
      expect(body.code).toBe(413);
      expect(body).toHaveProperty('data');
      // Under the limit the same server answers normally.
      expect((await small.call('v2/user/account/list', { user_id: 'admin' }, t.adminToken)).code).toBe(200);
    } finally {
      await small.close();
    }
  });

  it('echoes x-request-id, or makes one', async () => {
    const res = await post('v2/user/account/get', '{}', { authorization: `Bearer ${t.adminToken}`, 'x-request-id': 'req-abc-123' });
    expect(res.headers.get('x-request-id')).toBe('req-abc-123');
    const other = await post('v2/user/account/get', '{}', { authorization: `Bearer ${t.adminToken}` });
    expect(other.headers.get('x-request-id')).toMatch(/\S{8,}/);
    const errored = await post('v2/user/nothing', '{}', { 'x-request-id': 'req-404' });
    expect(errored.headers.get('x-request-id')).toBe('req-404');
  });
});

describe('validation (CONTRACT §3, SPEC §5)', () => {
  it('answers 406 naming each failing field with its rule', async () => {
    const res = await t.call<{ fields: Record<string, string> }>(
      'v2/user/account/add',
      { user_id: 'a b', user_phone: '12ab', user_type: 99, user_email: 'not-an-email' },
      { token: t.adminToken },
    );
    fails(res, 406);
    const fields = res.data.fields;
    expect(fields.user_id).toBe('format:user_id');
    expect(fields.user_password).toBe('required');
    expect(fields.comp_id).toBe('required');
    expect(fields.user_phone).toBe('format:phone');
    expect(fields.user_type).toMatch(/^one_of:1,2,3,4,5,6,7,8,9$/);
    expect(fields.user_email).toBe('format:email');
  });

  it('treats an empty string as a missing required field', async () => {
    const res = await t.call<{ fields: Record<string, string> }>(
      'v2/user/company/add',
      { comp_name: '  ', comp_parent_id: '' },
      { token: t.adminToken },
    );
    fails(res, 406);
    expect(res.data.fields).toMatchObject({ comp_name: 'required', comp_parent_id: 'required' });
  });

  it('coerces numeric strings to integers and numbers to text', async () => {
    const company = await addCompany(t, { comp_name: 'Coerce Co', comp_parent_id: '1' as unknown as number, sort: '5' });
    expect(company.comp_parent_id).toBe(1);
    const user = await addUser(t, {
      user_id: 'coerce1',
      comp_id: String(company.comp_id) as unknown as number,
      user_name: 12345,
      user_type: '3',
    });
    expect(user.comp_id).toBe(company.comp_id);
    expect(user.user_name).toBe('12345');
    expect(user.user_type).toBe(3);
    const list = await t.call<UserRowLite[]>(
      'v2/user/account/list',
      { comp_id: String(company.comp_id), page_size: '5' },
      { token: t.adminToken },
    );
    expect(ok(list).map((u) => u.user_id)).toEqual(['coerce1']);
  });

  it('refuses a non-numeric string in a numeric field', async () => {
    const res = await t.call<{ fields: Record<string, string> }>('v2/user/account/list', { comp_id: 'abc' }, { token: t.adminToken });
    fails(res, 406);
    expect(res.data.fields.comp_id).toMatch(/^type:number$/);
  });

  it('coerces id arrays from numeric strings and comma lists', async () => {
    const ids = await menuIds(t, ['system/role', 'operate/user']);
    const fromStrings = await t.call<{ menu_ids: number[] }>(
      'v2/user/role/add',
      { name: 'coerce-a', comp_id: 1, menu_ids: ids.map(String) },
      { token: t.adminToken },
    );
    expect(ok(fromStrings).menu_ids).toEqual([...ids].sort((a, b) => a - b));
    const fromList = await t.call<{ menu_ids: number[] }>(
      'v2/user/role/add',
      { name: 'coerce-b', comp_id: 1, menu_ids: ids.join(',') },
      { token: t.adminToken },
    );
    expect(ok(fromList).menu_ids).toEqual([...ids].sort((a, b) => a - b));
    const bad = await t.call<{ fields: Record<string, string> }>(
      'v2/user/role/add',
      { name: 'coerce-c', comp_id: 1, menu_ids: ['x'] },
      { token: t.adminToken },
    );
    fails(bad, 406);
    expect(Object.keys(bad.data.fields)[0]).toMatch(/^menu_ids/);
  });

  it('ignores unknown fields', async () => {
    const res = await t.call<UserRowLite[]>(
      'v2/user/account/list',
      { user_id: 'admin', no_such_filter: 'x', nested: { a: 1 } },
      { token: t.adminToken },
    );
    expect(ok(res).map((u) => u.user_id)).toEqual(['admin']);
    const added = await addUser(t, { user_id: 'unknownfield', comp_id: 1, favourite_colour: 'blue' });
    expect(added).not.toHaveProperty('favourite_colour');
  });
});

describe('lists and paging (CONTRACT §2)', () => {
  let compId: number;
  const created: number[] = [];
  beforeAll(async () => {
    compId = (await addCompany(t, { comp_name: 'Paging Co' })).comp_id;
    for (let i = 0; i < 12; i++) created.push((await addUser(t, { user_id: `pager${String(i).padStart(2, '0')}`, comp_id: compId })).id);
  });
  const page = (body: Record<string, unknown>) =>
    t.call<UserRowLite[]>('v2/user/account/list', { comp_id: compId, ...body }, { token: t.adminToken });

  it('defaults to page 1 of 10 rows and counts all matching rows', async () => {
    const res = await page({});
    expect(ok(res)).toHaveLength(10);
    expect(res.count).toBe(12);
  });

  it('pages with page_no or its alias page_index, in a stable default order (newest first)', async () => {
    const all = ok(await page({ page_size: 100 })).map((u) => u.id);
    expect(all).toEqual([...created].sort((a, b) => b - a));
    const p1 = ok(await page({ page_no: 1, page_size: 5 })).map((u) => u.id);
    const p2 = ok(await page({ page_no: 2, page_size: 5 })).map((u) => u.id);
    const p3 = await page({ page_index: 3, page_size: 5 });
    expect(p3.count).toBe(12);
    expect([...p1, ...p2, ...ok(p3).map((u) => u.id)]).toEqual(all);
    expect(ok(await page({ page_index: 2, page_size: 5 })).map((u) => u.id)).toEqual(p2);
    // The same query answers the same order every time.
    expect(ok(await page({ page_no: 2, page_size: 5 })).map((u) => u.id)).toEqual(p2);
    const beyond = await page({ page_no: 9, page_size: 5 });
    expect(ok(beyond)).toEqual([]);
    expect(beyond.count).toBe(12);
  });

  it('allows page_size up to 1000 and refuses more', async () => {
    expect(ok(await page({ page_size: 1000 }))).toHaveLength(12);
    const over = await page({ page_size: 1001 });
    fails(over, 406);
    expect((over.data as unknown as { fields: Record<string, string> }).fields).toHaveProperty('page_size');
    fails(await page({ page_size: 0 }), 406);
    fails(await page({ page_no: 0 }), 406);
  });

  it('counts with filters applied', async () => {
    const res = await page({ user_id: 'pager1', page_size: 1 });
    expect(ok(res)).toHaveLength(1);
    expect(res.count).toBe(2);
  });

  it('orders companies by sort, empty sort last, then id', async () => {
    const parent = await addCompany(t, { comp_name: 'Sorted parent' });
    const c = await addCompany(t, { comp_name: 'C none', comp_parent_id: parent.comp_id });
    const b = await addCompany(t, { comp_name: 'B two', comp_parent_id: parent.comp_id, sort: 2 });
    const a = await addCompany(t, { comp_name: 'A one', comp_parent_id: parent.comp_id, sort: 1 });
    const d = await addCompany(t, { comp_name: 'D none', comp_parent_id: parent.comp_id });
    const list = await t.call<{ comp_id: number }[]>('v2/user/company/list', { comp_parent_id: parent.comp_id }, { token: t.adminToken });
    expect(ok(list).map((r) => r.comp_id)).toEqual([a.comp_id, b.comp_id, c.comp_id, d.comp_id]);
  });
});

describe('service endpoints', () => {
  it('GET /api/health answers up', async () => {
    const res = await t.raw('/api/health', { method: 'GET' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ code: 200, data: { status: 'up' } });
  });

  it('GET /api/ready answers ready on a migrated database', async () => {
    const res = await t.raw('/api/ready', { method: 'GET' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ code: 200, data: { migrated: true } });
  });

  it('GET /api/openapi.json lists every API path of the contract', async () => {
    const res = await t.raw('/api/openapi.json', { method: 'GET' });
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, { post?: unknown }> };
    expect(doc.openapi).toMatch(/^3\./);
    for (const api of API_LIST) expect(doc.paths[`/api/${api.path}`]?.post, api.path).toBeDefined();
  });

  it('serves every registry path (none answers 404)', async () => {
    for (const api of API_LIST) {
      const res = await t.raw(`/api/${api.path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(res.status, api.path).not.toBe(404);
    }
  });
});

describe('permission check happens before validation', () => {
  it('answers 513 (not 406) to a caller without the menu, whatever the payload', async () => {
    const limited = await createCompanyAdmin(t, { name: 'Limited Co', menuKeys: ['operate/company'], userId: 'limited1' });
    fails(await t.call('v2/user/account/add', { user_id: '' }, { token: limited.token }), 513);
    const encoded = encodePassword('x1', 'pw');
    fails(
      await t.call('v2/user/account/add', { user_id: 'x1', user_password: encoded, comp_id: limited.compId }, { token: limited.token }),
      513,
    );
  });
});

describe('input rules every path shares (issue 7)', () => {
  type Fields = { fields: Record<string, string> };
  const call = <T = Fields>(path: string, body: Record<string, unknown>) => t.call<T>(path, body, { token: t.adminToken });
  const refused = async (path: string, body: Record<string, unknown>) => {
    const res = await call(path, body);
    fails(res, 406);
    return res.data.fields;
  };

  it('refuses control characters with format:control_char, on a list and on an add', async () => {
    expect(await refused('v2/user/account/list', { user_id: '\u0000' })).toEqual({ user_id: 'format:control_char' });
    expect(await refused('v2/user/company/list', { comp_name: 'a\u001bb' })).toEqual({ comp_name: 'format:control_char' });
    const fields = await refused('v2/user/company/add', { comp_name: 'Nul\u0000 Co', comp_parent_id: 1, comp_addr: 'x\u007f' });
    expect(fields).toEqual({ comp_name: 'format:control_char', comp_addr: 'format:control_char' });
    // Identifiers and secrets too: the rule comes before the field's own format.
    expect(await refused('v2/user/account/add', { user_id: 'ab\u0000', user_password: 'x\u0001', comp_id: 1 })).toMatchObject({
      user_id: 'format:control_char',
      user_password: 'format:control_char',
    });
    ok(await call('v2/user/company/list', { comp_name: 'Nul' }));
  });

  it('keeps TAB, LF and CR in text (multi-line remarks)', async () => {
    const user = await addUser(t, { user_id: 'multiline', comp_id: 1, remark: 'first line\r\nsecond\tline' });
    expect(user.remark).toBe('first line\r\nsecond\tline');
  });

  it('refuses a lone surrogate with format:unicode', async () => {
    expect(await refused('v2/user/company/add', { comp_name: 'Half \ud800 Co', comp_parent_id: 1 })).toEqual({
      comp_name: 'format:unicode',
    });
    // A whole surrogate pair is an ordinary character.
    expect((await addCompany(t, { comp_name: 'Emoji 😀 Co' })).comp_id).toBeGreaterThan(0);
  });

  it('checks keys and strings inside JSON input, and its depth', async () => {
    const product = { name: 'JSON checked', comp_id: 1 };
    expect(await refused('user/product/add', { ...product, attr: '{"k": "a\\u0000b"}' })).toEqual({ attr: 'format:control_char' });
    expect(await refused('user/product/add', { ...product, attr: { 'k\u0000': 'v' } })).toEqual({ attr: 'format:control_char' });
    let deep: unknown = 'v';
    for (let i = 0; i < 40; i++) deep = { k: deep };
    expect(await refused('user/product/add', { ...product, attr: deep })).toEqual({ attr: 'format:json_depth' });
    expect(await refused('user/product/add', { ...product, attr: JSON.stringify(deep) })).toEqual({ attr: 'format:json_depth' });
    const products = await call<unknown[]>('v2/umh/admin/product/list', { name: 'JSON checked' });
    expect(ok(products)).toEqual([]);
  });

  it('refuses booleans as ids, numbers, flags and text', async () => {
    expect(await refused('v2/user/role/get', { id: true })).toEqual({ id: 'type:number' });
    expect(await refused('v2/user/account/list', { comp_id: false })).toEqual({ comp_id: 'type:number' });
    expect(await refused('v2/user/menu/set', { menu_id: 1, is_show: true })).toEqual({ is_show: 'type:number' });
    expect(await refused('v2/user/company/add', { comp_name: true, comp_parent_id: 1 })).toEqual({ comp_name: 'type:string' });
    // A delete of `[true]` deletes nothing (it used to mean id 1).
    const role = ok(await call<{ id: number }>('v2/user/role/add', { name: 'Bool target', comp_id: 1 }));
    expect(await refused('v2/user/role/del', { ids: [true] })).toEqual({ 'ids.0': 'type:number' });
    expect(await refused('v2/user/role/del', { id: true })).toEqual({ id: 'type:number' });
    ok(await call('v2/user/role/get', { id: role.id }));
    ok(await call('v2/user/role/get', { id: 1 }));
    // Numeric strings stay ids (SPEC §5).
    expect(ok(await call<{ id: number }>('v2/user/role/get', { id: String(role.id) })).id).toBe(role.id);
  });

  it('holds +86 mobile numbers to 11 digits starting with 1, other areas to 5–15 digits', async () => {
    const user = (userId: string, extra: Record<string, unknown>) => ({
      user_id: userId,
      user_password: encodePassword(userId, 'Passw0rd!'),
      comp_id: 1,
      ...extra,
    });
    // The area defaults to +86.
    expect(await refused('v2/user/account/add', user('phone1', { user_phone: '12345' }))).toEqual({ user_phone: 'format:phone' });
    expect(await refused('v2/user/account/add', user('phone1', { user_phone: '23800138000', user_phone_area: '+86' }))).toEqual({
      user_phone: 'format:phone',
    });
    const cn = ok(await call<UserRowLite>('v2/user/account/add', user('phone1', { user_phone: '13800138000' })));
    ok(await call('v2/user/account/add', user('phone2', { user_phone: '12345', user_phone_area: '+1' })));
    // set: phone and area together are checked; a phone alone only against 5–15 digits.
    expect(await refused('v2/user/account/set', { id: cn.id, user_phone: '12345', user_phone_area: '+86' })).toEqual({
      user_phone: 'format:phone',
    });
    ok(await call('v2/user/account/set', { id: cn.id, user_phone: '15900000000' }));
    // Companies: add, set and registration.
    expect(await refused('v2/user/company/add', { comp_name: 'Phone Co', comp_parent_id: 1, comp_phone: '1380013800' })).toEqual({
      comp_phone: 'format:phone',
    });
    ok(await call('v2/user/company/add', { comp_name: 'Phone Co', comp_parent_id: 1, comp_phone: '1380013800', comp_phone_area: '+44' }));
    const reg = await t.call<Fields>('v2/user/company/register', {
      parent_comp_key: 'whatever',
      comp_name: 'Reg phone Co',
      comp_person: 'Pat',
      comp_phone: '1234567',
      user_id: 'reg.phone',
      user_password: encodePassword('reg.phone', 'Passw0rd!'),
      user_email: 'reg.phone@example.com',
    });
    fails(reg, 406);
    expect(reg.data.fields.comp_phone).toBe('format:phone');
  });
});
