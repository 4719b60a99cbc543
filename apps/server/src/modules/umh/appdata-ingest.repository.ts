import {
  type AlarmEvent,
  BindRole,
  type DeviceLogEvent,
  type ServiceLogEvent,
  type UserLoginEvent,
  type UserRegisterEvent,
} from '@iot/contract';
import { sql } from 'kysely';
import type { Conn } from '../../platform/db/database.js';

/**
 * Writes of the app side's events (issue 8), each kind one statement over the whole batch
 * (jsonb_to_recordset), except bindings, whose meaning depends on their order. Every event
 * carries its position in the batch (`i`) so refusals name it.
 */
export type Indexed<E> = E & { i: number; ts: number };
export interface UnknownUid {
  index: number;
  uid: string;
}

/** A recorded alarm, as `onAlarmRecorded` hooks receive it. */
export interface AlarmRecord {
  id: number;
  device_id: number;
  uid: string;
  pk: string;
  comp_id: number;
  alarm_type: number;
  text: string;
  ts: number;
}

const json = (rows: unknown[]) => JSON.stringify(rows);

/**
 * Registrations: new users of an app (one per app and upper-case user id; a user registered
 * again is left as it is) with their day's new and active counts and their country's count,
 * in the same statement. The user's company is the app's (`app.comp_id`), else — an app id the
 * platform has no app for — the event's `comp_id`. Answers the positions with neither
 * (`unknown_app`) and those whose company does not exist (`unknown_company`).
 */
export const recordRegistrations = async (
  conn: Conn,
  events: Indexed<UserRegisterEvent>[],
): Promise<{ unknownApp: number[]; unknownCompany: number[] }> => {
  const rows = events.map((e) => ({
    i: e.i,
    app_id: e.app_id,
    comp_id: e.comp_id ?? null,
    user_id: e.user_id,
    country: (e.country ?? '').toUpperCase(),
    lang: e.lang ?? '',
    email: e.email ?? '',
    phone: e.phone ?? '',
    ts: e.ts,
  }));
  const r = await sql<{ unknown_app: number[] | null; unknown_company: number[] | null }>`
    with x as (
      select * from jsonb_to_recordset(${json(rows)}::jsonb) as x(
        i int, app_id int, comp_id int, user_id text, country text, lang text, email text, phone text, ts bigint)
    ),
    e as (select x.i, x.app_id, coalesce(a.comp_id, x.comp_id) as comp_id, x.user_id, x.country, x.lang, x.email, x.phone, x.ts
      from x left join app a on a.id = x.app_id),
    known as (select e.* from e where exists (select 1 from company c where c.comp_id = e.comp_id)),
    first as (select distinct on (app_id, upper(user_id)) * from known order by app_id, upper(user_id), i),
    ins as (
      insert into umh_user (app_id, comp_id, user_id, user_key, country, lang, email, phone, gmt_register, gmt_login, active_day)
      select app_id, comp_id, user_id, upper(user_id), country, lang, email, phone, ts, null, (ts / 86400)::int
      from first order by app_id, upper(user_id)
      on conflict (app_id, user_key) do nothing
      returning comp_id, app_id, country, active_day
    ),
    daily as (
      insert into app_user_daily (comp_id, app_id, day, new_users, active_users)
      select comp_id, app_id, active_day, count(*), count(*) from ins group by 1, 2, 3 order by 1, 2, 3
      on conflict (comp_id, app_id, day) do update set new_users = app_user_daily.new_users + excluded.new_users,
        active_users = app_user_daily.active_users + excluded.active_users
    ),
    countries as (
      insert into app_user_country (comp_id, app_id, country, users)
      select comp_id, app_id, country, count(*) from ins where country <> '' group by 1, 2, 3 order by 1, 2, 3
      on conflict (comp_id, app_id, country) do update set users = app_user_country.users + excluded.users
    )
    select (select json_agg(e.i order by e.i) from e where e.comp_id is null) as unknown_app,
      (select json_agg(e.i order by e.i) from e where e.comp_id is not null and not exists (select 1 from known k where k.i = e.i)) as unknown_company
  `.execute(conn);
  return { unknownApp: r.rows[0]?.unknown_app ?? [], unknownCompany: r.rows[0]?.unknown_company ?? [] };
};

/**
 * Sign-ins: the user's last sign-in moves forward, and each UTC day after the last one it was
 * counted active on counts it active once more (distinct daily active users, kept in O(1) per
 * sign-in; a sign-in older than that day is not counted again). Answers the positions naming
 * no user of the app.
 */
export const recordLogins = async (conn: Conn, events: Indexed<UserLoginEvent>[]): Promise<number[]> => {
  const rows = events.map((e) => ({ i: e.i, app_id: e.app_id, user_id: e.user_id, ts: e.ts }));
  const r = await sql<{ unknown_user: number[] | null }>`
    with e as (
      select x.*, upper(x.user_id) as user_key, (x.ts / 86400)::int as day
      from jsonb_to_recordset(${json(rows)}::jsonb) as x(i int, app_id int, user_id text, ts bigint)
    ),
    u as (
      select u.id, u.comp_id, u.app_id, u.user_key, u.active_day from umh_user u
      where (u.app_id, u.user_key) in (select app_id, user_key from e) order by u.id for update
    ),
    days as (
      select distinct u.id, u.comp_id, u.app_id, e.day from e join u on u.app_id = e.app_id and u.user_key = e.user_key
      where e.day > u.active_day
    ),
    upd as (
      update umh_user t set gmt_login = greatest(coalesce(t.gmt_login, 0), m.ts), active_day = greatest(t.active_day, m.day)
      from (select u.id, max(e.ts) as ts, max(e.day) as day from e join u on u.app_id = e.app_id and u.user_key = e.user_key group by u.id) m
      where t.id = m.id
    ),
    daily as (
      insert into app_user_daily (comp_id, app_id, day, new_users, active_users)
      select comp_id, app_id, day, 0, count(*) from days group by 1, 2, 3 order by 1, 2, 3
      on conflict (comp_id, app_id, day) do update set active_users = app_user_daily.active_users + excluded.active_users
    )
    select (select json_agg(e.i order by e.i) from e
      where not exists (select 1 from u where u.app_id = e.app_id and u.user_key = e.user_key)) as unknown_user
  `.execute(conn);
  return r.rows[0]?.unknown_user ?? [];
};

/**
 * The push tokens sign-ins name, for users that exist: the newest per user and provider (a
 * batch naming one twice keeps its latest; an older sign-in arriving late changes nothing).
 */
export const recordPushTokens = async (conn: Conn, events: Indexed<UserLoginEvent>[]): Promise<void> => {
  const rows = events.flatMap((e) =>
    e.push_provider && e.push_token
      ? [{ i: e.i, app_id: e.app_id, user_id: e.user_id, provider: e.push_provider, token: e.push_token, ts: e.ts }]
      : [],
  );
  if (rows.length === 0) return;
  await sql`
    insert into umh_push_token (app_id, user_key, provider, token, gmt_update)
    select distinct on (e.app_id, upper(e.user_id), e.provider) e.app_id, upper(e.user_id), e.provider, e.token, e.ts
    from jsonb_to_recordset(${json(rows)}::jsonb) as e(i int, app_id int, user_id text, provider text, token text, ts bigint)
    where exists (select 1 from umh_user u where u.app_id = e.app_id and u.user_key = upper(e.user_id))
    order by e.app_id, upper(e.user_id), e.provider, e.ts desc, e.i desc
    on conflict (app_id, user_key, provider) do update set token = excluded.token, gmt_update = excluded.gmt_update
      where excluded.gmt_update >= umh_push_token.gmt_update
  `.execute(conn);
};

/**
 * The device of a binding event, its row locked (FOR NO KEY UPDATE: foreign-key checks and state
 * ingestion go on) so concurrent batches binding the same device take turns.
 */
const deviceByUid = (conn: Conn, uid: string) =>
  conn
    .selectFrom('device')
    .select(['id', 'comp_id'])
    .where(sql<boolean>`upper(uid) = ${uid.toUpperCase()}`)
    .forNoKeyUpdate()
    .executeTakeFirst();

const userExists = async (conn: Conn, appId: number, userId: string) =>
  (await conn
    .selectFrom('umh_user')
    .select('id')
    .where('app_id', '=', appId)
    .where('user_key', '=', userId.toUpperCase())
    .executeTakeFirst()) !== undefined;

const ownerOf = (conn: Conn, deviceId: number) =>
  conn
    .selectFrom('umh_devbind')
    .select(['app_id', 'user_key', 'user_id'])
    .where('device_id', '=', deviceId)
    .where('role', '=', BindRole.OWNER)
    .forUpdate()
    .executeTakeFirst();

export type BindOutcome = 'ok' | 'unknown_uid' | 'unknown_user' | 'not_owner';

/**
 * One binding event. `bind`: the user becomes the device's only owner (a previous owner's
 * binding and every share go; the same owner again changes nothing). `unbind`: the owner lets
 * go, its shares with it. `share`/`unshare`: by the owner only, with a user of the same app.
 */
export const applyBinding = async (
  conn: Conn,
  e: Indexed<{ type: 'bind' | 'unbind' | 'share' | 'unshare'; uid: string; app_id: number; user_id: string; to_user_id?: string }>,
): Promise<BindOutcome> => {
  const device = await deviceByUid(conn, e.uid);
  if (!device) return 'unknown_uid';
  if (!(await userExists(conn, e.app_id, e.user_id))) return 'unknown_user';
  const owner = await ownerOf(conn, device.id);
  const isOwner = owner !== undefined && owner.app_id === e.app_id && owner.user_key === e.user_id.toUpperCase();
  const deviceId = device.id;
  switch (e.type) {
    case 'bind':
      if (isOwner) return 'ok';
      await conn.deleteFrom('umh_devbind').where('device_id', '=', deviceId).execute();
      await conn
        .insertInto('umh_devbind')
        .values({
          app_id: e.app_id,
          comp_id: device.comp_id,
          device_id: deviceId,
          user_id: e.user_id,
          user_key: e.user_id.toUpperCase(),
          role: BindRole.OWNER,
          owner_user_id: e.user_id,
          gmt_create: e.ts,
        })
        .execute();
      return 'ok';
    case 'unbind':
      if (!isOwner) return 'not_owner';
      await conn.deleteFrom('umh_devbind').where('device_id', '=', deviceId).execute();
      return 'ok';
    case 'share':
    case 'unshare': {
      if (!isOwner) return 'not_owner';
      const to = e.to_user_id ?? '';
      if (!(await userExists(conn, e.app_id, to))) return 'unknown_user';
      if (to.toUpperCase() === e.user_id.toUpperCase()) return 'ok';
      if (e.type === 'unshare') {
        await conn
          .deleteFrom('umh_devbind')
          .where('device_id', '=', deviceId)
          .where('app_id', '=', e.app_id)
          .where('user_key', '=', to.toUpperCase())
          .where('role', '=', BindRole.SHARED)
          .execute();
        return 'ok';
      }
      await conn
        .insertInto('umh_devbind')
        .values({
          app_id: e.app_id,
          comp_id: device.comp_id,
          device_id: deviceId,
          user_id: to,
          user_key: to.toUpperCase(),
          role: BindRole.SHARED,
          owner_user_id: owner?.user_id ?? e.user_id,
          gmt_create: e.ts,
        })
        .onConflict((oc) => oc.columns(['device_id', 'app_id', 'user_key']).doNothing())
        .execute();
      return 'ok';
    }
  }
};

/** Alarms of registered devices (company and product from the device); answers unknown uids and the rows written. */
export const recordAlarms = async (
  conn: Conn,
  events: Indexed<AlarmEvent>[],
): Promise<{ unknown: UnknownUid[]; alarms: AlarmRecord[] }> => {
  const rows = events.map((e) => ({ i: e.i, uid: e.uid, alarm_type: e.alarm_type, text: e.text ?? '', ts: e.ts }));
  const r = await sql<{ unknown: UnknownUid[] | null; alarms: AlarmRecord[] | null }>`
    with e as (
      select * from jsonb_to_recordset(${json(rows)}::jsonb) as x(i int, uid text, alarm_type int, text text, ts bigint)
    ),
    d as (select e.*, dev.id as device_id, dev.uid as device_uid, dev.pk, dev.comp_id from e join device dev on upper(dev.uid) = upper(e.uid)),
    ins as (
      insert into alarm_log (device_id, uid, pk, comp_id, alarm_type, text, ts)
      select device_id, device_uid, pk, comp_id, alarm_type, text, ts from d order by i
      returning id, device_id, uid, pk, comp_id, alarm_type, text, ts
    )
    select
      (select json_agg(json_build_object('index', e.i, 'uid', e.uid) order by e.i) from e where not exists (select 1 from d where d.i = e.i)) as unknown,
      (select json_agg(row_to_json(ins) order by ins.id) from ins) as alarms
  `.execute(conn);
  const row = r.rows[0];
  return {
    unknown: row?.unknown ?? [],
    alarms: (row?.alarms ?? []).map((a) => ({ ...a, id: Number(a.id), device_id: Number(a.device_id), ts: Number(a.ts) })),
  };
};

/** Device log lines of registered devices; answers unknown uids. */
export const recordDeviceLogs = async (conn: Conn, events: Indexed<DeviceLogEvent>[]): Promise<UnknownUid[]> => {
  const rows = events.map((e) => ({ i: e.i, uid: e.uid, level: e.level, text: e.text, ts: e.ts }));
  const r = await sql<{ unknown: UnknownUid[] | null }>`
    with e as (
      select * from jsonb_to_recordset(${json(rows)}::jsonb) as x(i int, uid text, level int, text text, ts bigint)
    ),
    d as (select e.*, dev.id as device_id, dev.uid as device_uid, dev.comp_id from e join device dev on upper(dev.uid) = upper(e.uid)),
    ins as (
      insert into device_log (device_id, uid, comp_id, level, text, ts)
      select device_id, device_uid, comp_id, level, text, ts from d order by i
    )
    select (select json_agg(json_build_object('index', e.i, 'uid', e.uid) order by e.i) from e
      where not exists (select 1 from d where d.i = e.i)) as unknown
  `.execute(conn);
  return r.rows[0]?.unknown ?? [];
};

export const recordServiceLogs = async (conn: Conn, events: Indexed<ServiceLogEvent>[]): Promise<void> => {
  if (events.length === 0) return;
  await conn
    .insertInto('service_log')
    .values(events.map((e) => ({ service_id: e.service_id, level: e.level, node: e.node ?? '', text: e.text, ts: e.ts })))
    .execute();
};
