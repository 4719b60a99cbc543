import { API, type UserRow, UserState } from '@iot/contract';
import type { Scope } from '../../platform/context.js';
import type { Conn } from '../../platform/db/database.js';
import type { UserTable } from '../../platform/db/schema.js';
import { contains, defineList, eq, positive } from '../../platform/list.js';
import { inScope } from '../../platform/scope.js';

export type UserValues = Omit<UserTable, 'id'>;

const selectUsers = (conn: Conn) =>
  conn
    .selectFrom('app_user as u')
    .leftJoin('company as c', 'c.comp_id', 'u.comp_id')
    .leftJoin('role as r', 'r.id', 'u.role_id')
    .select([
      'u.id',
      'u.user_id',
      'u.user_name',
      'u.user_email',
      'u.user_phone',
      'u.user_phone_area',
      'u.validity_time',
      'u.remark',
      'u.comp_id',
      'c.comp_name',
      'u.state',
      'u.user_type',
      'u.role_id',
      'r.name as role_name',
      'u.gmt_create',
      'u.gmt_update',
    ]);

/** Default order: newest first (id descending); ties by id. */
export const listUsers = defineList(API.accountList, {
  from: (conn) => conn.selectFrom('app_user as u'),
  scope: 'u.comp_id',
  filters: {
    user_id: contains('u.user_id'),
    user_name: contains('u.user_name'),
    comp_id: eq('u.comp_id'),
    role_id: eq('u.role_id'),
    // 0 (or the client's -1) = any state; `user_state` is the older name of `state`.
    state: positive('u.state'),
    user_state: positive('u.state'),
  },
  sorts: {
    id: 'u.id',
    user_id: 'u.user_id',
    user_name: 'u.user_name',
    comp_id: 'u.comp_id',
    state: 'u.state',
    validity_time: 'u.validity_time',
    gmt_create: 'u.gmt_create',
  },
  defaultSort: { column: 'u.id', direction: 'desc' },
  key: 'u.id',
  select: selectUsers,
  toRow: (r) => r,
  // Without filters the count is the scope's users per company (kept by triggers), not a scan of every user.
  unfilteredCount: async (conn, scope) => {
    const total = await conn
      .selectFrom('company_user_count as n')
      .where(inScope(scope, 'n.comp_id'))
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n.users'), eb.lit(0)).as('n'))
      .executeTakeFirstOrThrow();
    return Number(total.n);
  },
});

export const getUsers = async (conn: Conn, ids: number[]): Promise<UserRow[]> =>
  ids.length === 0 ? [] : await selectUsers(conn).where('u.id', 'in', ids).execute();

export const getUserInScope = async (conn: Conn, scope: Scope, id: number): Promise<UserRow | undefined> =>
  selectUsers(conn).where('u.id', '=', id).where(inScope(scope, 'u.comp_id')).executeTakeFirst();

export const getUserByPk = async (conn: Conn, id: number): Promise<UserRow | undefined> => (await getUsers(conn, [id]))[0];

/** The login lookup: the stored hash beside the fields the login checks. */
export const findLoginUser = (conn: Conn, userId: string) =>
  conn
    .selectFrom('app_user')
    .select(['id', 'user_id', 'password_hash', 'state', 'validity_time', 'comp_id', 'role_id', 'user_type'])
    .where((eb) => eb(eb.fn('lower', ['user_id']), '=', userId.toLowerCase()))
    .executeTakeFirst();

export const getPasswordHash = async (conn: Conn, id: number) =>
  (await conn.selectFrom('app_user').select('password_hash').where('id', '=', id).executeTakeFirst())?.password_hash;

export const isUserIdTaken = async (conn: Conn, userId: string, exceptId?: number) => {
  let q = conn
    .selectFrom('app_user')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['user_id']), '=', userId.toLowerCase()));
  if (exceptId) q = q.where('id', '<>', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
};

export const isEmailTaken = async (conn: Conn, email: string, exceptId?: number) => {
  if (!email) return false;
  let q = conn
    .selectFrom('app_user')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['user_email']), '=', email.toLowerCase()));
  if (exceptId) q = q.where('id', '<>', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
};

export const isPhoneTaken = async (conn: Conn, area: string, phone: string, exceptId?: number) => {
  if (!phone) return false;
  let q = conn.selectFrom('app_user').select('id').where('user_phone_area', '=', area).where('user_phone', '=', phone);
  if (exceptId) q = q.where('id', '<>', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
};

export const insertUser = async (conn: Conn, values: UserValues): Promise<number> =>
  (await conn.insertInto('app_user').values(values).returning('id').executeTakeFirstOrThrow()).id;

export const updateUser = async (conn: Conn, id: number, values: Partial<UserValues>) => {
  if (Object.keys(values).length === 0) return;
  await conn.updateTable('app_user').set(values).where('id', '=', id).execute();
};

export const deleteUser = async (conn: Conn, id: number) => {
  await conn.deleteFrom('app_user').where('id', '=', id).execute();
};

export const enablePendingUsers = async (conn: Conn, compId: number) => {
  await conn
    .updateTable('app_user')
    .set({ state: UserState.ENABLED, pending_registration: false })
    .where('comp_id', '=', compId)
    .where('pending_registration', '=', true)
    .execute();
};
