import type { Envelope } from '@iot/contract';
import { expect } from 'vitest';
import { buildApp } from '../src/app.js';
import type { Config } from '../src/config.js';
import { type Answer, encodePassword, type TestServer } from './harness.js';

/** Asserts success and shows the server's message when it is not. */
export const ok = <T>(answer: Answer<T>): T => {
  expect(answer.code, `${answer.code} ${answer.msg ?? ''} ${JSON.stringify(answer.data)}`).toBe(200);
  expect(answer.status).toBe(200);
  return answer.data;
};

/** Asserts an application error (HTTP 200, code in the body). */
export const fails = (answer: Answer, code: number) => {
  expect(answer.code, `expected ${code}, got ${answer.code} ${answer.msg ?? ''}`).toBe(code);
  expect(answer.status).toBe(200);
};

export const nowSeconds = () => Math.floor(Date.now() / 1000);

export interface MenuNodeLite {
  menu_id: number;
  menu_key: string;
  sub_menus: MenuNodeLite[];
}

export const flattenMenus = (tree: MenuNodeLite[]): MenuNodeLite[] => tree.flatMap((m) => [m, ...flattenMenus(m.sub_menus)]);

/** menu_key → menu_id, read as the super administrator. */
export const menuIds = async (t: TestServer, keys: string[]): Promise<number[]> => {
  const tree = ok(await t.call<MenuNodeLite[]>('v2/user/menu/list', {}, { token: t.adminToken }));
  const byKey = new Map(flattenMenus(tree).map((m) => [m.menu_key, m.menu_id]));
  return keys.map((k) => {
    const id = byKey.get(k);
    if (id === undefined) throw new Error(`no menu ${k}`);
    return id;
  });
};

export interface UserRowLite {
  id: number;
  user_id: string;
  comp_id: number;
  role_id: number | null;
  state: number;
  user_type: number;
  user_phone_area: string;
  [k: string]: unknown;
}

/** account/add with an encoded password; answers the raw answer. */
export const addUserAnswer = (
  t: TestServer,
  fields: { user_id: string; comp_id: number; password?: string; [k: string]: unknown },
  token: string = t.adminToken,
) => {
  const { password = 'Passw0rd!', ...rest } = fields;
  return t.call<UserRowLite>('v2/user/account/add', { user_password: encodePassword(fields.user_id, password), ...rest }, { token });
};

export const addUser = async (
  t: TestServer,
  fields: { user_id: string; comp_id: number; password?: string; [k: string]: unknown },
  token?: string,
) => ok(await addUserAnswer(t, fields, token));

export const addCompany = async (
  t: TestServer,
  fields: { comp_name: string; comp_parent_id?: number; [k: string]: unknown },
  token?: string,
) =>
  ok(
    await t.call<{ comp_id: number; comp_key: string; comp_parent_id: number; state: number }>(
      'v2/user/company/add',
      { comp_parent_id: 1, comp_type: 3, ...fields },
      { token: token ?? t.adminToken },
    ),
  );

export const addRole = async (
  t: TestServer,
  fields: { name: string; comp_id: number; menuKeys: string[]; data_scope?: number; [k: string]: unknown },
  token?: string,
) => {
  const { menuKeys, ...rest } = fields;
  return ok(
    await t.call<{ id: number; menu_ids: number[] }>(
      'v2/user/role/add',
      { ...rest, menu_ids: await menuIds(t, menuKeys) },
      { token: token ?? t.adminToken },
    ),
  );
};

/** The kysely handle of the test database, for checks a user cannot make over the API. */
export const dbOf = (t: TestServer) => t.db.database.db;

/**
 * A product written straight into the table (the product screen is another module's);
 * `shareWith` also shares it with that company.
 */
export const addProduct = async (t: TestServer, pk: string, compId: number, shareWith?: number) => {
  const now = nowSeconds();
  const p = await dbOf(t)
    .insertInto('product')
    .values({
      pk,
      name: `Product ${pk}`,
      comp_id: compId,
      node_type: 1,
      category_id: null,
      img: '',
      remark: '',
      sys: '',
      attr: '{}',
      oem: 0,
      link_id: '',
      link_type: 0,
      batch_id: '',
      create_time: now,
      update_time: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (shareWith) await dbOf(t).insertInto('product_share').values({ product_id: p.id, comp_id: shareWith, gmt_create: now }).execute();
  return Number(p.id);
};

/**
 * A second server process over the same test database (another buildApp), as after a
 * restart or behind a load balancer; `overrides` changes its configuration.
 */
export const startSibling = async (t: TestServer, overrides: Partial<Config> = {}) => {
  const app = await buildApp({ config: { ...t.config, ...overrides }, database: t.db.database, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  const url = `http://127.0.0.1:${address.port}`;
  const raw = (p: string, init: RequestInit) => fetch(`${url}${p}`, init);
  const call = async <T>(p: string, body: unknown = {}, token?: string): Promise<Answer<T>> => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await raw(`/api/${p}`, { method: 'POST', headers, body: JSON.stringify(body) });
    return { status: res.status, ...((await res.json()) as Envelope<T>) };
  };
  return { url, raw, call, close: () => app.close() };
};
