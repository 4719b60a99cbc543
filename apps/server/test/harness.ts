import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Envelope, loginPlaintext, passwordDigestInput } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { type Config, loadConfig } from '../src/config.js';
import { ensureFirstAdmin } from '../src/platform/seed.js';
import { createTestDatabase, type TestDatabase } from './db.js';

export const ADMIN_PASSWORD = 'Admin#12345';

export const encodePassword = (userId: string, password: string) =>
  crypto.createHash('sha256').update(passwordDigestInput(userId, password)).digest('hex');

export interface CallOptions {
  token?: string | null;
  /** Send the token as `Authorization: <token>` (transport 2) instead of Bearer. */
  plainAuth?: boolean;
  headers?: Record<string, string>;
}

export interface Answer<T = unknown> extends Envelope<T> {
  status: number;
}

export interface TestServer {
  url: string;
  app: FastifyInstance;
  db: TestDatabase;
  config: Config;
  call<T = unknown>(path: string, body?: unknown, opts?: CallOptions): Promise<Answer<T>>;
  raw(path: string, init: RequestInit): Promise<Response>;
  /** The whole CONTRACT §4 login: key, RSA-OAEP cipher, login. */
  loginAnswer(userId: string, password: string, opts?: { timestamp?: number; cipher?: string }): Promise<Answer<LoginData>>;
  login(userId: string, password: string): Promise<string>;
  adminToken: string;
  close(): Promise<void>;
}

export interface LoginData {
  acc_token: string;
  expires_at: number;
  user: { id: number; user_id: string; comp_id: number };
  menus: { menu_key: string; sub_menus: { menu_key: string }[] }[];
}

export const makeCipher = (publicKey: string, userId: string, password: string, timestamp: number) =>
  crypto
    .publicEncrypt(
      { key: publicKey, padding: crypto.constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(loginPlaintext(userId, encodePassword(userId, password), timestamp)),
    )
    .toString('base64');

/** A real server on a random port over a fresh migrated database (PGlite or PostgreSQL). */
export const startTestServer = async (overrides: Partial<Config> = {}): Promise<TestServer> => {
  const db = await createTestDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'iot-data-'));
  const config: Config = {
    ...loadConfig({}),
    checkAnswers: true,
    dataDir,
    webDir: undefined,
    adminPassword: ADMIN_PASSWORD,
    secretKey: 'test-secret',
    loginMaxFailuresAccount: 1000,
    loginMaxFailuresAddress: 1000,
    ...overrides,
  };
  const app = await buildApp({ config, database: db.database, logger: false });
  await ensureFirstAdmin(db.database.db, config.adminPassword, app.log);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  const url = `http://127.0.0.1:${address.port}`;

  const raw = (p: string, init: RequestInit) => fetch(`${url}${p}`, init);
  const call = async <T>(p: string, body: unknown = {}, opts: CallOptions = {}): Promise<Answer<T>> => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...opts.headers };
    if (opts.token) headers.authorization = opts.plainAuth ? opts.token : `Bearer ${opts.token}`;
    const res = await raw(`/api/${p.replace(/^\//, '')}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const json = (await res.json()) as Envelope<T>;
    return { status: res.status, ...json };
  };
  const loginAnswer = async (userId: string, password: string, opts: { timestamp?: number; cipher?: string } = {}) => {
    const key = await call<{ key_id: string; public_key: string; server_time: number }>('v2/user/login/key');
    const cipher = opts.cipher ?? makeCipher(key.data.public_key, userId, password, opts.timestamp ?? key.data.server_time);
    return call<LoginData>('v2/user/login', {
      device_system: 'web',
      device_model: 'test',
      user_id: userId,
      user_password: cipher,
      key_id: key.data.key_id,
    });
  };
  const login = async (userId: string, password: string) => {
    const answer = await loginAnswer(userId, password);
    if (answer.code !== 200) throw new Error(`login ${userId} failed: ${answer.code} ${answer.msg}`);
    return answer.data.acc_token;
  };
  const adminToken = await login('admin', ADMIN_PASSWORD);
  return {
    url,
    app,
    db,
    config,
    call,
    raw,
    loginAnswer,
    login,
    adminToken,
    close: async () => {
      await app.close();
      await db.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

/** Builds a company → role → user chain as the admin; answers the new user's token. */
export const createCompanyAdmin = async (
  t: TestServer,
  opts: { name: string; parentId?: number; menuKeys: string[]; userId: string; password?: string; dataScope?: number; token?: string },
) => {
  const token = opts.token ?? t.adminToken;
  const password = opts.password ?? 'Passw0rd!';
  const company = await t.call<{ comp_id: number }>(
    'v2/user/company/add',
    { comp_name: opts.name, comp_parent_id: opts.parentId ?? 1, comp_type: 3 },
    { token },
  );
  if (company.code !== 200) throw new Error(`company add: ${company.code} ${company.msg}`);
  const menus = await t.call<{ menu_id: number; menu_key: string; sub_menus: { menu_id: number; menu_key: string }[] }[]>(
    'v2/user/menu/list',
    {},
    { token },
  );
  const flat = menus.data.flatMap((m) => [m, ...m.sub_menus]);
  const menuIds = flat.filter((m) => opts.menuKeys.includes(m.menu_key)).map((m) => m.menu_id);
  const role = await t.call<{ id: number }>(
    'v2/user/role/add',
    { name: `${opts.name} admin`, comp_id: company.data.comp_id, menu_ids: menuIds, data_scope: opts.dataScope ?? 2 },
    { token },
  );
  if (role.code !== 200) throw new Error(`role add: ${role.code} ${role.msg}`);
  const user = await t.call<{ id: number }>(
    'v2/user/account/add',
    {
      user_id: opts.userId,
      user_password: encodePassword(opts.userId, password),
      comp_id: company.data.comp_id,
      role_id: role.data.id,
      user_type: 2,
    },
    { token },
  );
  if (user.code !== 200) throw new Error(`user add: ${user.code} ${user.msg}`);
  return { compId: company.data.comp_id, roleId: role.data.id, userPk: user.data.id, token: await t.login(opts.userId, password) };
};
