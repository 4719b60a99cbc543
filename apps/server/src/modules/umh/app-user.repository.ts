import { API, type AppPushProvider, type AppUserDetail, maskEmail, maskPhone } from '@iot/contract';
import { type SqlBool, sql } from 'kysely';
import type { Scope } from '../../platform/context.js';
import type { Conn } from '../../platform/db/database.js';
import { atLeast, below, contains, defineList, eq } from '../../platform/list.js';
import { inScope } from '../../platform/scope.js';

const USER_COLUMNS = [
  'u.id',
  'u.app_id',
  'ap.name as app_name',
  'u.comp_id',
  'c.comp_name',
  'u.user_id',
  'u.country',
  'u.lang',
  'u.email',
  'u.phone',
  'u.gmt_register',
  'u.gmt_login',
] as const;

const selectUsers = (conn: Conn) =>
  conn
    .selectFrom('umh_user as u')
    .leftJoin('company as c', 'c.comp_id', 'u.comp_id')
    .leftJoin('app as ap', 'ap.id', 'u.app_id')
    .select(USER_COLUMNS);

/** App users (applist/user) of companies in scope, newest registration first; email and phone masked. */
export const listAppUsers = defineList(API.appUserList, {
  from: (conn) => conn.selectFrom('umh_user as u'),
  scope: 'u.comp_id',
  filters: {
    app_id: eq('u.app_id'),
    comp_id: eq('u.comp_id'),
    country: (v) => (v === '' ? null : sql<SqlBool>`u.country = ${v.toUpperCase()}`),
    gmt_start: atLeast('u.gmt_register'),
    gmt_end: below('u.gmt_register'),
    user_id: contains('u.user_id'),
    email: contains('u.email'),
  },
  sorts: { id: 'u.id', gmt_register: 'u.gmt_register', gmt_login: { column: 'u.gmt_login', nullable: true }, user_id: 'u.user_id' },
  defaultSort: { column: 'u.gmt_register', direction: 'desc' },
  key: 'u.id',
  select: selectUsers,
  toRow: (r) => ({ ...r, id: Number(r.id), email: maskEmail(r.email), phone: maskPhone(r.phone) }),
});

/** One app user in scope, whole, with its bound and shared device counts. */
export const getAppUser = async (conn: Conn, scope: Scope, id: number): Promise<AppUserDetail | undefined> => {
  const r = await selectUsers(conn)
    .select((eb) => [
      eb
        .selectFrom('umh_devbind as b')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('b.app_id', '=', 'u.app_id')
        .whereRef('b.user_key', '=', 'u.user_key')
        .where('b.role', '=', 1)
        .as('owned'),
      eb
        .selectFrom('umh_devbind as b')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('b.app_id', '=', 'u.app_id')
        .whereRef('b.user_key', '=', 'u.user_key')
        .where('b.role', '=', 2)
        .as('shared'),
      eb
        .selectFrom('umh_push_token as k')
        .select(sql<AppPushProvider[]>`coalesce(array_agg(k.provider order by k.provider), '{}')`.as('p'))
        .whereRef('k.app_id', '=', 'u.app_id')
        .whereRef('k.user_key', '=', 'u.user_key')
        .as('push_providers'),
    ])
    .where('u.id', '=', id)
    .where(inScope(scope, 'u.comp_id'))
    .executeTakeFirst();
  if (!r) return undefined;
  return { ...r, id: Number(r.id), owned: Number(r.owned ?? 0), shared: Number(r.shared ?? 0), push_providers: r.push_providers ?? [] };
};

/** Device bindings and shares (applist/dev) of devices in scope, newest first. */
export const listDevBinds = defineList(API.devBindList, {
  from: (conn) => conn.selectFrom('umh_devbind as b'),
  scope: 'b.comp_id',
  filters: {
    app_id: eq('b.app_id'),
    comp_id: eq('b.comp_id'),
    uid: (v) => (v === '' ? null : sql<SqlBool>`b.device_id = (select bd.id from device bd where upper(bd.uid) = ${v.toUpperCase()})`),
    user_id: (v) => (v === '' ? null : sql<SqlBool>`(b.user_key = ${v.toUpperCase()} or upper(b.owner_user_id) = ${v.toUpperCase()})`),
    role: eq('b.role'),
  },
  sorts: { id: 'b.id', gmt_create: 'b.gmt_create' },
  defaultSort: { column: 'b.id', direction: 'desc' },
  key: 'b.id',
  select: (conn: Conn) =>
    conn
      .selectFrom('umh_devbind as b')
      .innerJoin('device as d', 'd.id', 'b.device_id')
      .leftJoin('company as c', 'c.comp_id', 'b.comp_id')
      .leftJoin('app as ap', 'ap.id', 'b.app_id')
      .select([
        'b.id',
        'b.app_id',
        'ap.name as app_name',
        'b.comp_id',
        'c.comp_name',
        'd.uid',
        'b.user_id',
        'b.role',
        'b.owner_user_id',
        'b.gmt_create',
      ]),
  toRow: (r) => ({ ...r, id: Number(r.id) }),
});

/** The app users a device is bound to or shared with, with what reaching them needs (alarm pushes). */
export const boundUsersOf = async (conn: Conn, deviceId: number) =>
  conn
    .selectFrom('umh_devbind as b')
    .leftJoin('umh_user as u', (j) => j.onRef('u.app_id', '=', 'b.app_id').onRef('u.user_key', '=', 'b.user_key'))
    .innerJoin('device as d', 'd.id', 'b.device_id')
    .leftJoin('product as p', 'p.pk', 'd.pk')
    .select(['b.app_id', 'b.user_id', 'b.role', 'u.email', 'u.phone', 'u.lang', 'p.id as product_id'])
    .select((eb) =>
      eb
        .selectFrom('umh_push_token as k')
        .select(
          sql<
            { provider: string; token: string }[]
          >`coalesce(json_agg(json_build_object('provider', k.provider, 'token', k.token) order by k.provider), '[]')`.as('t'),
        )
        .whereRef('k.app_id', '=', 'b.app_id')
        .whereRef('k.user_key', '=', 'b.user_key')
        .as('push_tokens'),
    )
    .where('b.device_id', '=', deviceId)
    .execute();

/** A push token the provider says is gone for good (an uninstalled app): no alarm is sent to it again. */
export const forgetPushToken = async (conn: Conn, provider: string, token: string): Promise<void> => {
  await conn.deleteFrom('umh_push_token').where('provider', '=', provider).where('token', '=', token).execute();
};
