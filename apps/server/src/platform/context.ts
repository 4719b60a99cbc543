import type { Language } from '@iot/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Conn, Db } from './db/database.js';
import type { InFlight } from './inflight.js';
import type { LoginKeys } from './login-keys.js';
import type { SecretBox } from './secrets.js';
import type { SessionCache } from './session-cache.js';
import type { Storage } from './storage.js';
import type { Throttle } from './throttle.js';

/** What a signed-in caller is, resolved once per request from the token. */
export interface Session {
  tokenHash: string;
  userPk: number;
  userId: string;
  userType: number;
  compId: number;
  compPath: string;
  roleId: number | null;
  dataScope: number;
  menuKeys: ReadonlySet<string>;
  isSuper: boolean;
  /** The companies of a company-tree scope (null: not a tree scope, or too many to list). */
  treeCompIds: number[] | null;
  /** Unix seconds after which the session ends (token expiry or account validity). */
  validUntil: number;
}

/** Which companies' rows the caller may see (CONTRACT §5). */
export type Scope =
  | { kind: 'all' }
  | { kind: 'tree'; compId: number; path: string; compIds: number[] | null }
  | { kind: 'own'; compId: number }
  | { kind: 'none' };

/** Process-wide services handed to every handler. */
export interface Services {
  config: Config;
  db: Db;
  secrets: SecretBox;
  loginKeys: LoginKeys;
  throttle: Throttle;
  sessions: SessionCache;
  inFlight: InFlight;
  storage: Storage;
}

export interface RequestContext {
  /** The connection, or the transaction every command runs in. */
  conn: Conn;
  session: Session | null;
  scope: Scope;
  ip: string;
  requestId: string;
  /** The caller's language for what the server writes (exports, reports): `lang`, else Accept-Language. */
  lang: Language;
  log: FastifyBaseLogger;
  services: Services;
}

/** For handlers on authenticated paths: the session is always there. */
export const sessionOf = (ctx: RequestContext): Session => {
  if (!ctx.session) throw new Error('handler on an authenticated path ran without a session');
  return ctx.session;
};
