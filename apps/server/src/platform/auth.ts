import crypto from 'node:crypto';
import { CompanyState, DataScope, RoleState, UserState, UserType } from '@iot/contract';
import { sql } from 'kysely';
import type { Session } from './context.js';
import type { Conn } from './db/database.js';
import { MAX_SCOPE_IDS, subtreeIdsOf } from './scope.js';
import { nowSeconds } from './time.js';

/** Larger company trees are matched by path prefix instead of an id list. */

export const hashToken = (token: string): string => crypto.createHash('sha256').update(token).digest('hex');

/** Opaque 256-bit token; only its hash is stored (CONTRACT §4). */
export const issueToken = async (
  conn: Conn,
  userPk: number,
  ttlSeconds: number,
  meta: { deviceSystem: string; deviceModel: string; ip: string },
): Promise<{ token: string; expiresAt: number }> => {
  const token = crypto.randomBytes(32).toString('base64url');
  const now = nowSeconds();
  const expiresAt = now + ttlSeconds;
  await conn
    .insertInto('user_token')
    .values({
      token_hash: hashToken(token),
      user_pk: userPk,
      expires_at: expiresAt,
      revoked_at: null,
      device_system: meta.deviceSystem,
      device_model: meta.deviceModel,
      ip: meta.ip,
      gmt_create: now,
    })
    .execute();
  return { token, expiresAt };
};

/**
 * One query resolves a token to its session: user, company path, role state and
 * menu keys. A token stops working when revoked or expired, or when its user,
 * role or company is disabled, expired or gone.
 */
export const resolveSession = async (conn: Conn, token: string): Promise<Session | null> => {
  const tokenHash = hashToken(token);
  const now = nowSeconds();
  const row = await conn
    .selectFrom('user_token as t')
    .innerJoin('app_user as u', 'u.id', 't.user_pk')
    .innerJoin('company as c', 'c.comp_id', 'u.comp_id')
    .leftJoin('role as r', 'r.id', 'u.role_id')
    .select([
      'u.id as user_pk',
      'u.user_id',
      'u.user_type',
      'u.comp_id',
      'u.role_id',
      'u.state as user_state',
      'u.validity_time',
      't.expires_at',
      'c.comp_path',
      'c.state as comp_state',
      'r.state as role_state',
      'r.data_scope',
      sql<string[]>`array(select m.menu_key from role_menu rm join menu m on m.menu_id = rm.menu_id where rm.role_id = u.role_id)`.as(
        'menu_keys',
      ),
      // A company-tree scope as a list of ids, resolved once per session: lists then filter with
      // `= any(ids)`, which a prepared statement's generic plan serves from an index.
      sql<number[] | null>`case when r.data_scope = ${DataScope.COMPANY_TREE} and u.user_type <> ${UserType.SUPER_ADMIN}
        then ${subtreeIdsOf(sql.ref('c.comp_path'))} end`.as('tree_ids'),
    ])
    .where('t.token_hash', '=', tokenHash)
    .where('t.revoked_at', 'is', null)
    .where('t.expires_at', '>', now)
    .executeTakeFirst();
  if (!row) return null;
  if (row.user_state !== UserState.ENABLED) return null;
  if (row.validity_time > 0 && row.validity_time <= now) return null;
  if (row.comp_state !== CompanyState.ACTIVE) return null;
  if (row.role_state !== null && row.role_state !== RoleState.OPEN) return null;
  const isSuper = row.user_type === UserType.SUPER_ADMIN;
  return {
    tokenHash,
    userPk: row.user_pk,
    userId: row.user_id,
    userType: row.user_type,
    compId: row.comp_id,
    compPath: row.comp_path,
    roleId: row.role_id,
    dataScope: row.data_scope ?? 1,
    menuKeys: new Set(row.menu_keys ?? []),
    isSuper,
    treeCompIds: row.tree_ids && row.tree_ids.length <= MAX_SCOPE_IDS ? row.tree_ids : null,
    validUntil: row.validity_time > 0 ? Math.min(row.validity_time, row.expires_at) : row.expires_at,
  };
};

export const revokeToken = async (conn: Conn, tokenHash: string): Promise<void> => {
  await conn.updateTable('user_token').set({ revoked_at: nowSeconds() }).where('token_hash', '=', tokenHash).execute();
};

/** Revokes every token of a user, except optionally the one making the call. */
export const revokeUserTokens = async (conn: Conn, userPk: number, exceptTokenHash?: string): Promise<void> => {
  let q = conn.updateTable('user_token').set({ revoked_at: nowSeconds() }).where('user_pk', '=', userPk).where('revoked_at', 'is', null);
  if (exceptTokenHash) q = q.where('token_hash', '<>', exceptTokenHash);
  await q.execute();
};
