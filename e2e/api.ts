import crypto from 'node:crypto';
import { type Envelope, loginPlaintext, passwordDigestInput } from '@iot/contract';
import { adminPassword, baseUrl } from './browser';

/**
 * Test data through the API (CONTRACT §4 login with node crypto), for tests
 * whose subject is not the screen that would create it.
 */

export const encodePassword = (userId: string, password: string) =>
  crypto.createHash('sha256').update(passwordDigestInput(userId, password)).digest('hex');

/** A name no other test file (or run) uses: `<prefix>-<time>-<random>`. */
export const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${crypto.randomBytes(3).toString('hex')}`;

/** POST /api/<path>; answers the envelope whatever its code. */
export const api = async <T = unknown>(path: string, body: object = {}, token?: string | null): Promise<Envelope<T>> => {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${baseUrl()}/api/${path.replace(/^\//, '')}`, { method: 'POST', headers, body: JSON.stringify(body) });
  return (await res.json()) as Envelope<T>;
};

/** Like `api` but throws unless the code is 200. */
export const apiOk = async <T = unknown>(path: string, body: object = {}, token?: string | null): Promise<Envelope<T>> => {
  const answer = await api<T>(path, body, token);
  if (answer.code !== 200) throw new Error(`${path}: ${answer.code} ${answer.msg ?? ''}`);
  return answer;
};

/** The whole login: key, RSA-OAEP cipher, login; answers the token. */
export const apiLogin = async (userId: string, password: string): Promise<string> => {
  const key = (await apiOk<{ key_id: string; public_key: string; server_time: number }>('v2/user/login/key')).data;
  const cipher = crypto
    .publicEncrypt(
      { key: key.public_key, padding: crypto.constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(loginPlaintext(userId, encodePassword(userId, password), key.server_time)),
    )
    .toString('base64');
  const answer = await apiOk<{ acc_token: string }>('v2/user/login', {
    device_system: 'web',
    device_model: 'e2e',
    user_id: userId,
    user_password: cipher,
    key_id: key.key_id,
  });
  return answer.data.acc_token;
};

let adminToken: string | null = null;
/** One admin token per test file. */
export const asAdmin = async () => {
  adminToken ??= await apiLogin('admin', adminPassword());
  return adminToken;
};

export interface CompanyInfo {
  comp_id: number;
  comp_name: string;
  comp_key: string;
  comp_parent_id: number;
  state: number;
}

/** The root company (the admin's): id and key. */
export const rootCompany = async (): Promise<CompanyInfo> => {
  const token = await asAdmin();
  const me = await apiOk<{ user: { comp_id: number } }>('v2/user/account/get', {}, token);
  const list = await apiOk<CompanyInfo[]>('v2/user/company/list', { page_size: 100 }, token);
  const root = list.data.find((c) => c.comp_id === me.data.user.comp_id);
  if (!root) throw new Error('root company not in the list');
  return root;
};

export const addCompany = async (name: string, parentId: number, extra: object = {}): Promise<CompanyInfo> =>
  (await apiOk<CompanyInfo>('v2/user/company/add', { comp_name: name, comp_parent_id: parentId, comp_type: 9, ...extra }, await asAdmin()))
    .data;

/**
 * A company with a role holding `menuKeys` and one user with it; answers the
 * login of that user.
 */
export const addUserWithMenus = async (opts: { prefix: string; menuKeys: string[]; password?: string }) => {
  const token = await asAdmin();
  const root = await rootCompany();
  const company = await addCompany(unique(`${opts.prefix}-co`), root.comp_id, { comp_type: 3 });
  const menus = await apiOk<{ menu_id: number; menu_key: string; sub_menus?: { menu_id: number; menu_key: string }[] }[]>(
    'v2/user/menu/list',
    {},
    token,
  );
  const flat = menus.data.flatMap((m) => [m, ...(m.sub_menus ?? [])]);
  const menuIds = flat.filter((m) => opts.menuKeys.includes(m.menu_key)).map((m) => m.menu_id);
  if (menuIds.length !== opts.menuKeys.length) throw new Error(`menus not found: ${opts.menuKeys.join(', ')}`);
  const role = await apiOk<{ id: number }>(
    'v2/user/role/add',
    { name: unique(`${opts.prefix}-role`), comp_id: company.comp_id, menu_ids: menuIds, data_scope: 2 },
    token,
  );
  const userId = unique(opts.prefix)
    .replace(/[^A-Za-z0-9_.@-]/g, '')
    .slice(0, 64);
  const password = opts.password ?? 'Passw0rd!e2e';
  await apiOk(
    'v2/user/account/add',
    { user_id: userId, user_password: encodePassword(userId, password), comp_id: company.comp_id, role_id: role.data.id, user_type: 2 },
    token,
  );
  return { userId, password, company };
};
