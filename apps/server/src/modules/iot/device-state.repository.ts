import { API, type DeviceEvent, type DeviceStateListInput, type DeviceStateRow, type LiveState, resolvePaging } from '@iot/contract';
import { type SqlBool, sql } from 'kysely';
import type { Scope } from '../../platform/context.js';
import type { Conn, Db } from '../../platform/db/database.js';
import { atLeast, below, defineList, eq, upperPrefix } from '../../platform/list.js';
import { inScope } from '../../platform/scope.js';
import { orderTerm, sortOf } from '../../platform/sorting.js';
import type { ListResult } from '../../platform/transport.js';
import { PREFIX_SORT_MAX } from './device.repository.js';

/** A device's state after a change, with what the live stream needs to scope it. */
export interface StateChange extends LiveState {
  /** The owning company's materialised path (scope `tree` checks a prefix of it). */
  comp_path: string;
}

export interface AppliedBatch {
  unknown: { index: number; uid: string }[];
  /** Devices whose visible state changed (heartbeats alone only move last_seen). */
  changes: StateChange[];
  /** Registered devices that have no device_state row yet (created, then the batch is applied again for them). */
  missing: number[];
}

const CHANGE_FIELDS = sql`u.device_id, dev.uid, dev.comp_id, c.comp_path, u.online, u.active, u.gmt_active, u.network_type,
  u.vendor, u.protocol, u.last_online, u.last_offline, u.last_seen, u.offline_reason, u.wake_state, u.country`;

/**
 * Applies a batch of events in ONE statement: the events arrive as one JSON array
 * (jsonb_to_recordset), are matched to devices by uid (the upper(uid) index), folded per
 * device in batch order (last presence event decides online; last value of each field
 * wins; properties merge key by key), written with one UPDATE … FROM, appended to the
 * history (every event except heartbeats), and the statement answers unknown uids and
 * the devices whose visible state changed.
 */
export const applyEvents = async (conn: Conn, events: (DeviceEvent & { ts: number })[]): Promise<AppliedBatch> => {
  if (!conn.isTransaction) return conn.transaction().execute((trx) => applyEvents(trx, events));
  // The statement runs as a named prepared statement; after five executions PostgreSQL may pick a
  // generic plan, which cannot see the batch (jsonb parameter) and costs 400–700 ms per batch
  // instead of ~50 ms. Custom plans, as the statistics reads do.
  await sql`set local plan_cache_mode = force_custom_plan`.execute(conn);
  const rows = events.map((e, i) => ({
    i,
    uid: e.uid,
    type: e.type,
    ts: e.ts,
    network_type: e.network_type ?? null,
    vendor: e.vendor ?? null,
    protocol: e.protocol ?? null,
    properties: e.properties ?? null,
    wake_state: e.wake_state ?? null,
    country: e.country ?? null,
    code: e.code ?? null,
    ver_num: e.ver_num ?? null,
    progress: e.progress ?? null,
    success: e.success ?? null,
    error: e.error ?? null,
  }));
  const result = await sql<{ unknown: AppliedBatch['unknown'] | null; changes: StateChange[] | null; missing: number[] | null }>`
    with e as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(
        i int, uid text, type text, ts bigint, network_type smallint, vendor text, protocol text,
        properties jsonb, wake_state smallint, country text, code text, ver_num int, progress int, success int, error text)
    ),
    d as (
      select e.*, dev.id as device_id,
        max(case when e.type = 'offline' then e.i end) over (partition by dev.id) as off_i
      from e join device dev on upper(dev.uid) = upper(e.uid)
    ),
    props as (
      select device_id, jsonb_object_agg(key, value) as p from (
        select distinct on (d.device_id, kv.key) d.device_id, kv.key, kv.value
        from d cross join lateral jsonb_each(d.properties) kv
        where jsonb_typeof(d.properties) = 'object'
        order by d.device_id, kv.key, d.i desc
      ) last_values group by device_id
    ),
    agg as (
      select device_id,
        (array_agg(type order by i desc))[1] as last_type,
        max(off_i) as off_i,
        max(ts) filter (where type = 'online') as on_ts,
        max(ts) filter (where type = 'offline') as off_ts,
        min(ts) filter (where type <> 'offline') as alive_ts,
        min(ts) filter (where type <> 'offline' and i > coalesce(off_i, -1)) as back_ts,
        max(ts) as seen_ts,
        (array_agg(network_type order by i desc) filter (where network_type is not null))[1] as network_type,
        (array_agg(vendor order by i desc) filter (where vendor is not null))[1] as vendor,
        (array_agg(protocol order by i desc) filter (where protocol is not null))[1] as protocol,
        (array_agg(wake_state order by i desc) filter (where wake_state is not null))[1] as wake_state,
        (array_agg(country order by i desc) filter (where country is not null))[1] as country
      from d group by device_id
    ),
    -- Row locks taken in device_id order: concurrent batches touching the same devices queue, never deadlock.
    locked as (
      select o.* from device_state o where o.device_id in (select device_id from agg) order by o.device_id for update
    ),
    src as (
      select a.*, p.p, o.online as o_online, o.active as o_active, o.network_type as o_network_type, o.vendor as o_vendor,
        o.protocol as o_protocol, o.wake_state as o_wake_state, o.country as o_country, o.properties as o_properties
      from agg a join locked o on o.device_id = a.device_id left join props p on p.device_id = a.device_id
    ),
    upd as (
      update device_state s set
        online = case when a.last_type = 'offline' then 0 else 1 end,
        active = case when a.alive_ts is not null then 1 else s.active end,
        gmt_active = coalesce(s.gmt_active, a.alive_ts),
        -- When it (last) came online: an offline in the batch → the first event after it;
        -- offline before the batch → the batch's first sign of life; a reconnect → its online event.
        last_online = case
          when a.last_type = 'offline' then greatest(s.last_online, a.on_ts)
          when a.off_i is not null then greatest(s.last_online, a.back_ts)
          when s.online = 0 then greatest(s.last_online, a.alive_ts)
          else greatest(s.last_online, a.on_ts) end,
        last_offline = greatest(s.last_offline, a.off_ts),
        last_seen = greatest(s.last_seen, a.seen_ts),
        -- Only when the device comes online (that update is not HOT anyway): heartbeats leave every
        -- indexed column alone, so PostgreSQL updates the row in place (HOT), no index entries.
        seen_mark = case when s.online = 0 and a.last_type <> 'offline' then greatest(s.last_seen, a.seen_ts) else s.seen_mark end,
        offline_reason = case when a.last_type = 'offline' then 1 else s.offline_reason end,
        network_type = coalesce(a.network_type, s.network_type),
        vendor = coalesce(a.vendor, s.vendor),
        protocol = coalesce(a.protocol, s.protocol),
        wake_state = coalesce(a.wake_state, s.wake_state),
        country = coalesce(a.country, s.country),
        properties = case when a.p is null then s.properties else s.properties || a.p end
      from src a
      where s.device_id = a.device_id
      returning s.*, (s.online is distinct from a.o_online or s.active is distinct from a.o_active
        or s.network_type is distinct from a.o_network_type or s.vendor is distinct from a.o_vendor
        or s.protocol is distinct from a.o_protocol or s.wake_state is distinct from a.o_wake_state
        or s.country is distinct from a.o_country or s.properties is distinct from a.o_properties) as changed
    ),
    hist as (
      insert into device_event (device_id, type, detail, ts)
      select d.device_id, d.type, jsonb_strip_nulls(jsonb_build_object('network_type', d.network_type, 'vendor', d.vendor,
        'protocol', d.protocol, 'properties', d.properties, 'wake_state', d.wake_state, 'country', d.country, 'code', d.code,
        'ver_num', d.ver_num, 'progress', d.progress, 'success', d.success, 'error', d.error)), d.ts
      from d join locked o on o.device_id = d.device_id
      where d.type <> 'heartbeat'
    )
    select
      (select json_agg(json_build_object('index', e.i, 'uid', e.uid) order by e.i)
         from e left join d on d.i = e.i where d.i is null) as unknown,
      (select json_agg(json_build_object(
         'device_id', u.device_id, 'uid', dev.uid, 'comp_id', dev.comp_id, 'comp_path', c.comp_path, 'online', u.online,
         'active', u.active, 'gmt_active', u.gmt_active, 'network_type', u.network_type, 'vendor', u.vendor,
         'protocol', u.protocol, 'last_online', u.last_online, 'last_offline', u.last_offline, 'last_seen', u.last_seen,
         'offline_reason', u.offline_reason, 'wake_state', u.wake_state, 'country', u.country))
         from upd u join device dev on dev.id = u.device_id join company c on c.comp_id = dev.comp_id where u.changed) as changes,
      (select json_agg(a.device_id) from agg a where not exists (select 1 from src where src.device_id = a.device_id)) as missing
  `.execute(conn);
  const row = result.rows[0];
  return {
    unknown: row?.unknown ?? [],
    changes: (row?.changes ?? []).map(toNumbers),
    missing: (row?.missing ?? []).map(Number),
  };
};

/** json_build_object answers bigint columns as JSON numbers on both drivers; keep the types honest anyway. */
const toNumbers = (c: StateChange): StateChange => ({ ...c, device_id: Number(c.device_id) });

/** Registered devices without a state row (registration normally creates it): create default rows. */
/** The UIDs of devices by id. */
export const uidsOfDevices = async (conn: Conn, ids: number[]): Promise<string[]> =>
  ids.length === 0 ? [] : (await conn.selectFrom('device').select('uid').where('id', 'in', ids).execute()).map((r) => r.uid);

export const createMissingStates = async (conn: Conn, deviceIds: number[]): Promise<void> => {
  if (deviceIds.length === 0) return;
  await sql`
    insert into device_state (device_id) select unnest(${deviceIds}::bigint[]) on conflict (device_id) do nothing
  `.execute(conn);
};

const SWEEP_LOCK = 7_346_221_903;
const SWEEP_LIMIT = 20_000;

/**
 * Marks devices silent for `timeoutSeconds` offline (reason 2, heartbeat timeout) in bulk,
 * with a `timeout` history row each. Only one process sweeps at a time: the transaction
 * takes a PostgreSQL advisory lock or skips. Answers the changed devices (null: another
 * process holds the lock).
 */
export const sweepTimeouts = async (db: Db, now: number, timeoutSeconds: number): Promise<StateChange[] | null> =>
  db.transaction().execute(async (trx) => {
    const lock = await sql<{ ok: boolean }>`select pg_try_advisory_xact_lock(${SWEEP_LOCK}::bigint) as ok`.execute(trx);
    if (!lock.rows[0]?.ok) return null;
    const cutoff = now - timeoutSeconds;
    // Alive devices whose mark fell behind the cutoff: the mark moves up to last_seen (0013), so
    // the index below only answers devices that may have timed out. Rows a batch holds are
    // skipped (never waited on: no lock-order cycle with ingestion), they come next sweep.
    for (;;) {
      const moved = await sql`
        update device_state s set seen_mark = s.last_seen
        where s.device_id in (
          select device_id from device_state where online = 1 and seen_mark < ${cutoff}::bigint and last_seen >= ${cutoff}::bigint
          order by device_id limit ${SWEEP_LIMIT} for update skip locked
        )
        and s.online = 1 and s.seen_mark < ${cutoff}::bigint and s.last_seen >= ${cutoff}::bigint
      `.execute(trx);
      if (Number(moved.numAffectedRows ?? 0) < SWEEP_LIMIT) break;
    }
    const result = await sql<StateChange>`
      with t as (
        update device_state s set online = 0, offline_reason = 2, last_offline = least(${now}::bigint, s.last_seen + ${timeoutSeconds}::bigint)
        where s.device_id in (
          select device_id from device_state
          where online = 1 and (seen_mark < ${cutoff}::bigint or seen_mark is null) and last_seen < ${cutoff}::bigint
          limit ${SWEEP_LIMIT}
        )
        -- Re-checked on the row's latest version: a heartbeat committed meanwhile keeps it online.
        and s.online = 1 and s.last_seen < ${cutoff}::bigint
        returning s.*
      ),
      h as (
        insert into device_event (device_id, type, detail, ts)
        select device_id, 'timeout', jsonb_build_object('last_seen', last_seen), last_offline from t
      )
      select ${CHANGE_FIELDS} from t u join device dev on dev.id = u.device_id join company c on c.comp_id = dev.comp_id
    `.execute(trx);
    return result.rows.map(toNumbers);
  });

/** Drops history older than the retention, a bounded slice per call. */
export const pruneEvents = async (db: Db, before: number): Promise<number> => {
  const result = await sql`
    delete from device_event where id in (select id from device_event where ts < ${before}::bigint limit 10000)
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
};

const stateBase = (conn: Conn, scope: Scope) =>
  conn.selectFrom('device as d').innerJoin('device_state as s', 's.device_id', 'd.id').where(inScope(scope, 'd.comp_id'));

const STATE_COLUMNS = [
  's.device_id',
  'd.uid',
  'd.mac',
  'd.pk',
  'd.comp_id',
  'c.comp_name',
  's.online',
  's.active',
  's.gmt_active',
  's.network_type',
  's.vendor',
  's.protocol',
  's.last_online',
  's.last_offline',
  's.last_seen',
  's.offline_reason',
  's.wake_state',
  's.country',
  's.properties',
] as const;

const STATE_SORT = {
  uid: 'd.uid',
  device_id: 's.device_id',
  last_seen: { column: 's.last_seen', nullable: true },
  last_online: { column: 's.last_online', nullable: true },
  last_offline: { column: 's.last_offline', nullable: true },
} as const;

/** The state list (product/device_state), newest registration first. */
export const listStates = async (conn: Conn, scope: Scope, f: DeviceStateListInput): Promise<ListResult<DeviceStateRow>> => {
  const { offset, pageSize } = resolvePaging(f);
  const sort = sortOf(f, STATE_SORT, { column: 's.device_id', direction: 'desc' });
  let q = stateBase(conn, scope);
  const uidPrefix = f.uid ? upperPrefix('d.uid')(f.uid) : null;
  if (uidPrefix) q = q.where(uidPrefix);
  if (f.pk) q = q.where('d.pk', '=', f.pk);
  if (f.comp_id) q = q.where('d.comp_id', '=', f.comp_id);
  if (f.online !== undefined) q = q.where('s.online', '=', f.online);
  if (f.active !== undefined) q = q.where('s.active', '=', f.active);
  if (f.network_type !== undefined) q = q.where('s.network_type', '=', f.network_type);
  if (f.offline_reason !== undefined) q = q.where('s.online', '=', 0).where('s.offline_reason', '=', f.offline_reason);
  const counted = () => q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  // A UID prefix in the default order: as in the device list (listDevices), count first and sort a
  // short match list rather than walk the id index past every older device.
  const prefixTotal = f.uid && sort.column === 's.device_id' ? await counted() : undefined;
  const byMatches = prefixTotal !== undefined && Number(prefixTotal.n) <= PREFIX_SORT_MAX;
  const [rows, total] = await Promise.all([
    q
      .leftJoin('company as c', 'c.comp_id', 'd.comp_id')
      .select(STATE_COLUMNS)
      .$if(byMatches, (x) => x.orderBy(sql`s.device_id + 0`, sort.direction))
      .$if(!byMatches, (x) => x.orderBy(orderTerm(sort)).orderBy('s.device_id', sort.direction))
      .limit(pageSize)
      .offset(offset)
      .execute(),
    prefixTotal ?? counted(),
  ]);
  return { rows, count: Number(total.n) };
};

const selectStates = (conn: Conn) =>
  conn
    .selectFrom('device as d')
    .innerJoin('device_state as s', 's.device_id', 'd.id')
    .leftJoin('company as c', 'c.comp_id', 'd.comp_id')
    .select(STATE_COLUMNS);

/** Low-power devices (those that reported a wake state), or one device by uid; newest first. */
export const listWakeStates = defineList(API.wolStateGet, {
  from: (conn) => conn.selectFrom('device as d').innerJoin('device_state as s', 's.device_id', 'd.id').where('s.wake_state', '<>', 0),
  scope: 'd.comp_id',
  filters: {
    uid: (v) => (v === '' ? null : sql<SqlBool>`upper(d.uid) = ${v.toUpperCase()}`),
    pk: eq('d.pk'),
    comp_id: eq('d.comp_id'),
    wake_state: eq('s.wake_state'),
  },
  sorts: { device_id: 's.device_id', uid: 'd.uid', last_seen: { column: 's.last_seen', nullable: true } },
  defaultSort: { column: 's.device_id', direction: 'desc' },
  key: 's.device_id',
  select: selectStates,
  toRow: (r) => r,
});

/** The device of a uid, if the caller's scope holds it. */
export const findDeviceInScope = async (conn: Conn, scope: Scope, uid: string) =>
  conn
    .selectFrom('device as d')
    .select(['d.id', 'd.uid', 'd.comp_id'])
    .where(sql<boolean>`upper(d.uid) = ${uid.toUpperCase()}`)
    .where(inScope(scope, 'd.comp_id'))
    .executeTakeFirst();

/** A device's state history (the caller checked the device is in its scope); newest first. */
export const listHistory = defineList(API.stateHistory, {
  from: (conn) => conn.selectFrom('device_event as e'),
  filters: {
    uid: (v) => sql<SqlBool>`e.device_id = (select hd.id from device hd where upper(hd.uid) = ${v.toUpperCase()})`,
    type: eq('e.type'),
    gmt_start: atLeast('e.ts'),
    gmt_end: below('e.ts'),
  },
  sorts: { id: 'e.id', ts: 'e.ts' },
  defaultSort: { column: 'e.id', direction: 'desc' },
  key: 'e.id',
  select: (conn: Conn) => conn.selectFrom('device_event as e').select(['e.id', 'e.type', 'e.detail', 'e.ts']),
  toRow: (r) => r,
});
