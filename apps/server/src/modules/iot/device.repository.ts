import {
  type DeviceFilter,
  type DeviceInfo,
  type DeviceListInput,
  type DeviceRow,
  macFilterPrefix,
  normalizeMac,
  SECRET_MASK,
} from '@iot/contract';
import { type Expression, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { Scope } from '../../platform/context.js';
import type { Conn } from '../../platform/db/database.js';
import type { DB, DeviceTable } from '../../platform/db/schema.js';
import { badParams } from '../../platform/errors.js';
import { escapeLike } from '../../platform/list.js';
import { inScope, productVisibleTo } from '../../platform/scope.js';
import { orderTerm, type SortSpec, sortOf } from '../../platform/sorting.js';

/** Ids per block of `device_block` (migration 0006): `id >> 16`. */
const BLOCK_SHIFT = 16;
/** A UID/MAC-prefixed list with at most this many matches sorts them instead of walking the id index. */
export const PREFIX_SORT_MAX = 20_000;
/** Below this offset a plain OFFSET on the narrow index is already fast. */
const DEEP_OFFSET = 2_000;

const selectDevices = (conn: Conn) =>
  conn
    .selectFrom('device as d')
    .leftJoin('device_state as s', 's.device_id', 'd.id')
    .leftJoin('product as p', 'p.pk', 'd.pk')
    .leftJoin('company as c', 'c.comp_id', 'd.comp_id')
    .select([
      'd.id',
      'd.uid',
      'd.mac',
      'd.pk',
      'p.name as product_name',
      'd.comp_id',
      'c.comp_name',
      'd.import_id',
      'd.gmt_create',
      sql<number>`coalesce(s.online, 0)`.as('online'),
      sql<number>`coalesce(s.active, 0)`.as('active'),
      sql<number>`coalesce(s.network_type, 0)`.as('network_type'),
      sql<string>`coalesce(s.vendor, '')`.as('vendor'),
      sql<string>`coalesce(s.protocol, '')`.as('protocol'),
      's.last_online',
      's.last_offline',
      's.last_seen',
      sql<number>`coalesce(s.offline_reason, 0)`.as('offline_reason'),
    ]);

const DEVICE_SORTS = {
  id: 'd.id',
  uid: 'd.uid',
  mac: 'd.mac',
  pk: 'd.pk',
  comp_id: 'd.comp_id',
  gmt_create: 'd.gmt_create',
};

type DeviceQuery = SelectQueryBuilder<DB & { d: DeviceTable }, 'd', object>;

const usesState = (f: DeviceFilter) =>
  (f.online !== undefined && f.online >= 0) ||
  (f.active !== undefined && f.active >= 0) ||
  (f.network_type !== undefined && f.network_type >= 0) ||
  Boolean(f.vendor) ||
  f.online_start !== undefined ||
  f.online_end !== undefined;

/** Filters beyond the scope and one company: the fast paths do not apply. */
const isNarrowed = (f: DeviceFilter) =>
  usesState(f) || Boolean(f.uid || f.mac || f.pk) || f.gmt_start !== undefined || f.gmt_end !== undefined;

/**
 * The only filter beyond the scope, one company and one product is `online = 1`: the count is a
 * sum of the online counters of migration 0012, not a count of rows.
 */
const isOnlineOnly = (f: DeviceFilter) =>
  f.online === 1 &&
  !(f.active !== undefined && f.active >= 0) &&
  !(f.network_type !== undefined && f.network_type >= 0) &&
  !f.vendor &&
  f.online_start === undefined &&
  f.online_end === undefined &&
  !f.uid &&
  !f.mac &&
  f.gmt_start === undefined &&
  f.gmt_end === undefined;

/**
 * Online devices in scope (and company, and product) from `device_online_now` plus the deltas
 * not folded yet: one statement sees each delta in exactly one of the two tables (the fold moves
 * them in one transaction), so this equals counting rows without taking the fold's lock. The
 * every-company row when the scope is everything, else one row per company in scope.
 */
const countOnline = async (conn: Conn, scope: Scope, f: DeviceFilter): Promise<number> => {
  const pk = f.pk ?? '';
  const company = f.comp_id ? sql`and comp_id = ${f.comp_id}::int` : sql``;
  const folded =
    scope.kind === 'all' && !f.comp_id
      ? sql`select online from device_online_now where comp_id = 0 and pk = ${pk}`
      : sql`select online from device_online_now where comp_id <> 0 and ${inScope(scope, 'comp_id')} ${company} and pk = ${pk}`;
  const pending = sql`select online from device_online_pending where ${inScope(scope, 'comp_id')} ${company} ${pk ? sql`and pk = ${pk}` : sql``}`;
  const r = await sql<{ n: number }>`select coalesce(sum(online), 0)::int as n from (${folded} union all ${pending}) x`.execute(conn);
  return Number(r.rows[0]?.n ?? 0);
};

/**
 * Devices in scope matching the filters (the list's, a bulk action's, an export's).
 * State filters read `device_state` through EXISTS, so the device index still drives.
 */
export const filteredDevices = (conn: Conn, scope: Scope, f: DeviceFilter): DeviceQuery => {
  let q = conn.selectFrom('device as d').where(inScope(scope, 'd.comp_id'));
  if (f.comp_id) q = q.where('d.comp_id', '=', f.comp_id);
  // upper(…): the unique text_pattern_ops indexes (migration 0014) serve the prefixes.
  if (f.uid) q = q.where(sql`upper(d.uid)`, 'like', `${escapeLike(f.uid.toUpperCase())}%`);
  if (f.mac) {
    const prefix = macFilterPrefix(f.mac);
    q = prefix ? q.where(sql`upper(d.mac)`, 'like', `${escapeLike(prefix)}%`).where('d.mac', '<>', '') : q;
  }
  if (f.pk) q = q.where('d.pk', '=', f.pk);
  if (f.gmt_start !== undefined) q = q.where('d.gmt_create', '>=', f.gmt_start);
  if (f.gmt_end !== undefined) q = q.where('d.gmt_create', '<', f.gmt_end);
  if (usesState(f)) {
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('device_state as fs')
          .select(sql`1`.as('one'))
          .whereRef('fs.device_id', '=', 'd.id')
          .where((sb) => {
            const terms: Expression<SqlBool>[] = [];
            if (f.online !== undefined && f.online >= 0) terms.push(sb('fs.online', '=', f.online));
            if (f.active !== undefined && f.active >= 0) terms.push(sb('fs.active', '=', f.active));
            if (f.network_type !== undefined && f.network_type >= 0) terms.push(sb('fs.network_type', '=', f.network_type));
            if (f.vendor) terms.push(sb('fs.vendor', 'ilike', `%${escapeLike(f.vendor)}%`));
            if (f.online_start !== undefined) terms.push(sb('fs.last_online', '>=', f.online_start));
            if (f.online_end !== undefined) terms.push(sb('fs.last_online', '<', f.online_end));
            return sb.and(terms);
          }),
      ),
    );
  }
  return q;
};

/**
 * The offset-th device of an unfiltered scope in id-descending order, without walking
 * `offset` index entries: per-block counters locate the block, then at most one block is
 * walked. Answers the id bound to start below and how many rows to skip under it.
 */
const locateDeep = async (conn: Conn, scope: Scope, compId: number | undefined, offset: number) => {
  let q = conn
    .selectFrom('device_block as b')
    .where(inScope(scope, 'b.comp_id'))
    .select(['b.block', (eb) => eb.fn.sum<number>('b.n').as('n')])
    .groupBy('b.block')
    .orderBy('b.block', 'desc');
  if (compId) q = q.where('b.comp_id', '=', compId);
  const blocks = await q.execute();
  let before = 0;
  for (const b of blocks) {
    const n = Number(b.n);
    if (before + n > offset) return { below: (b.block + 1) * 2 ** BLOCK_SHIFT, skip: offset - before };
    before += n;
  }
  return null;
};

export interface DevicePage {
  offset: number;
  limit: number;
}

/** Default order: newest first (`id` descending), ties by id. */
export const listDevices = async (conn: Conn, scope: Scope, f: DeviceListInput, page: DevicePage) => {
  const sort: SortSpec = sortOf(f, DEVICE_SORTS, { column: 'd.id', direction: 'desc' });
  const byId = sort.column === 'd.id';
  if (f.cursor !== undefined && !byId) throw badParams({ cursor: 'id_order_only' }, 'Cursor paging follows the id order');
  const narrowed = isNarrowed(f);
  const count = async (): Promise<number> => {
    if (isOnlineOnly(f)) return countOnline(conn, scope, f);
    if (narrowed)
      return Number(
        (
          await filteredDevices(conn, scope, f)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    // Unfiltered: the scope's companies' `dk`, kept exact by triggers (migration 0006).
    let c = conn
      .selectFrom('company as c')
      .where(inScope(scope, 'c.comp_id'))
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('c.dk'), eb.lit(0)).as('n'));
    if (f.comp_id) c = c.where('c.comp_id', '=', f.comp_id);
    return Number((await c.executeTakeFirstOrThrow()).n);
  };
  let ids = filteredDevices(conn, scope, f).select('d.id');
  // A UID/MAC prefix in the id order: the planner walks the id index hoping to meet matches soon,
  // and when they are old devices it reads most of the table (0.6–0.8 s at a million devices).
  // The count (from the prefix index) comes first, and a short match list is sorted instead.
  const prefixTotal = (f.uid || f.mac) && byId && f.cursor === undefined ? await count() : undefined;
  let reverse = false;
  if (f.cursor !== undefined) {
    // Keyset: the rows after (or before) the cursor in the list order, from the index.
    const next = (f.cursor_dir ?? 'next') === 'next';
    const below = next === (sort.direction === 'desc');
    ids = ids.where('d.id', below ? '<' : '>', f.cursor).orderBy('d.id', below ? 'desc' : 'asc');
    reverse = !next;
    ids = ids.limit(page.limit);
  } else if (byId && sort.direction === 'desc' && !narrowed && page.offset >= DEEP_OFFSET) {
    const at = await locateDeep(conn, scope, f.comp_id, page.offset);
    ids = at ? ids.where('d.id', '<', at.below).orderBy('d.id', 'desc').offset(at.skip).limit(page.limit) : ids.where(sql<SqlBool>`false`);
  } else if (prefixTotal !== undefined && prefixTotal <= PREFIX_SORT_MAX) {
    // Few matches: sort the matches themselves (`id + 0` is not the id index's order).
    ids = ids.orderBy(sql`d.id + 0`, sort.direction).offset(page.offset).limit(page.limit);
  } else {
    ids = ids.orderBy(orderTerm(sort));
    if (!byId) ids = ids.orderBy('d.id', sort.direction);
    ids = ids.offset(page.offset).limit(page.limit);
  }
  const idList = (await ids.execute()).map((r) => Number(r.id));
  const [rows, total] = await Promise.all([getDevices(conn, idList), prefixTotal ?? count()]);
  const byIdMap = new Map(rows.map((r) => [r.id, r]));
  const ordered = idList.map((i) => byIdMap.get(i)).filter((r): r is DeviceRow => r !== undefined);
  if (reverse) ordered.reverse();
  return { rows: ordered, count: total };
};

export const getDevices = async (conn: Conn, ids: number[]): Promise<DeviceRow[]> =>
  ids.length === 0 ? [] : await selectDevices(conn).where('d.id', 'in', ids).execute();

/** One device in depth, in scope: by id, UID or MAC. */
export const getDeviceInfo = async (
  conn: Conn,
  scope: Scope,
  by: { id?: number | undefined; uid?: string | undefined; mac?: string | undefined },
): Promise<DeviceInfo | undefined> => {
  let q = conn
    .selectFrom('device as d')
    .leftJoin('device_state as s', 's.device_id', 'd.id')
    .leftJoin('product as p', 'p.pk', 'd.pk')
    .leftJoin('company as c', 'c.comp_id', 'd.comp_id')
    .where(inScope(scope, 'd.comp_id'))
    .selectAll('d')
    .select([
      'p.id as product_id',
      'p.name as product_name',
      'p.node_type',
      'p.comp_id as product_comp_id',
      'c.comp_name',
      'c.dk',
      'c.dk_limit',
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
    ]);
  if (by.id !== undefined) q = q.where('d.id', '=', by.id);
  else if (by.uid) q = q.where(sql`upper(d.uid)`, '=', by.uid.trim().toUpperCase());
  else if (by.mac) {
    const mac = normalizeMac(by.mac);
    if (!mac) return undefined;
    q = q.where(sql`upper(d.mac)`, '=', mac).where('d.mac', '<>', '');
  } else return undefined;
  const r = await q.executeTakeFirst();
  if (!r) return undefined;
  return {
    id: Number(r.id),
    uid: r.uid,
    mac: r.mac,
    pk: r.pk,
    product_name: r.product_name,
    comp_id: r.comp_id,
    comp_name: r.comp_name,
    import_id: r.import_id === null ? null : Number(r.import_id),
    gmt_create: r.gmt_create,
    gmt_update: r.gmt_update,
    dev_key: r.dev_key ? SECRET_MASK : '',
    online: r.online ?? 0,
    active: r.active ?? 0,
    gmt_active: r.gmt_active,
    network_type: r.network_type ?? 0,
    vendor: r.vendor ?? '',
    protocol: r.protocol ?? '',
    last_online: r.last_online,
    last_offline: r.last_offline,
    last_seen: r.last_seen,
    offline_reason: r.offline_reason ?? 0,
    wake_state: r.wake_state ?? 0,
    country: r.country ?? '',
    product:
      r.product_id === null
        ? null
        : { id: r.product_id, pk: r.pk, name: r.product_name ?? '', node_type: r.node_type ?? 0, comp_id: r.product_comp_id ?? 0 },
    company: r.comp_name === null ? null : { comp_id: r.comp_id, comp_name: r.comp_name, dk: r.dk ?? 0, dk_limit: r.dk_limit ?? 0 },
  };
};

export const getDeviceProperties = async (conn: Conn, deviceId: number): Promise<Record<string, unknown>> =>
  (await conn.selectFrom('device_state').select('properties').where('device_id', '=', deviceId).executeTakeFirst())?.properties ?? {};

/** Product keys among `pks` the caller may register devices under: own scope, or shared into it. */
export const visibleProductPks = async (conn: Conn, scope: Scope, pks: string[]): Promise<Set<string>> => {
  if (pks.length === 0) return new Set();
  const rows = await conn.selectFrom('product as p').select('p.pk').where('p.pk', 'in', pks).where(productVisibleTo(scope)).execute();
  return new Set(rows.map((r) => r.pk));
};

/** Registered devices holding any of these (upper-case) UIDs or canonical MACs. */
export const findExisting = async (conn: Conn, uids: string[], macs: string[]) => {
  const [byUid, byMac] = await Promise.all([
    uids.length === 0
      ? []
      : conn
          .selectFrom('device')
          .select(['id', sql<string>`upper(uid)`.as('key')])
          .where(sql`upper(uid)`, 'in', uids)
          .execute(),
    macs.length === 0
      ? []
      : conn
          .selectFrom('device')
          .select(['id', sql<string>`upper(mac)`.as('key')])
          .where(sql`upper(mac)`, 'in', macs)
          .where('mac', '<>', '')
          .execute(),
  ]);
  return {
    uid: new Map(byUid.map((r) => [r.key, Number(r.id)])),
    mac: new Map(byMac.map((r) => [r.key, Number(r.id)])),
  };
};

/** Locks the company row for the rest of the transaction: dk checks and updates serialise per company. */
export const lockCompanyKeys = (conn: Conn, compId: number) =>
  conn.selectFrom('company').select(['comp_id', 'dk', 'dk_limit']).where('comp_id', '=', compId).forUpdate().executeTakeFirst();

export interface NewDevice {
  uid: string;
  mac: string;
  pk: string;
  comp_id: number;
  dev_key: string;
  import_id: number | null;
  gmt_create: number;
  gmt_update: number;
}

/**
 * The rows, given as column arrays (`unnest`: eight parameters whatever the number of rows, one
 * prepared statement), and their state rows, in one statement. Rows a concurrent registration won
 * (unique UID/MAC) are skipped, not failed. The caller has already left out the UIDs and MACs it
 * found registered, so inside a transaction a plain INSERT is tried first under a savepoint;
 * only a race (unique violation) falls back to `ON CONFLICT DO NOTHING`, whose speculative
 * insertion probes every unique index per row (a fifth of a bulk import's engine time on PGlite).
 */
export const insertDevices = async (conn: Conn, rows: NewDevice[]): Promise<{ id: number; uid: string }[]> => {
  if (rows.length === 0) return [];
  const column = <K extends keyof NewDevice>(key: K) => rows.map((r) => r[key]);
  const statement = (onConflict: boolean) => sql<{ id: string | number; uid: string }>`
    with ins as (
      insert into device (uid, mac, pk, comp_id, dev_key, import_id, gmt_create, gmt_update)
      select * from unnest(
        ${column('uid')}::text[], ${column('mac')}::text[], ${column('pk')}::text[], ${column('comp_id')}::int[],
        ${column('dev_key')}::text[], ${column('import_id')}::bigint[], ${column('gmt_create')}::bigint[], ${column('gmt_update')}::bigint[]
      )
      ${onConflict ? sql`on conflict do nothing` : sql``}
      returning id, uid
    ), state as (
      -- Every other state column has its default (never seen, offline); ingestion fills them.
      insert into device_state (device_id) select id from ins
    )
    select id, uid from ins`;
  let inserted: { id: string | number; uid: string }[] | null = null;
  if (conn.isTransaction) {
    await sql`savepoint insert_devices`.execute(conn);
    try {
      inserted = (await statement(false).execute(conn)).rows;
      await sql`release savepoint insert_devices`.execute(conn);
    } catch (err) {
      if ((err as { code?: unknown } | null)?.code !== '23505') throw err;
      await sql`rollback to savepoint insert_devices`.execute(conn);
      await sql`release savepoint insert_devices`.execute(conn);
    }
  }
  inserted ??= (await statement(true).execute(conn)).rows;
  return inserted.map((r) => ({ id: Number(r.id), uid: r.uid }));
};

/** How many of the selected devices are not already in this company. */
export const countMovingInto = async (selected: DeviceQuery, compId: number) =>
  Number(
    (
      await selected
        .where('d.comp_id', '<>', compId)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

export const moveDevices = async (conn: Conn, selected: DeviceQuery, compId: number, now: number) => {
  const r = await conn
    .updateTable('device')
    .set({ comp_id: compId, gmt_update: now })
    .where('id', 'in', selected.where('d.comp_id', '<>', compId).select('d.id'))
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
};

export const changeDevicesProduct = async (conn: Conn, selected: DeviceQuery, pk: string, now: number) => {
  const r = await conn
    .updateTable('device')
    .set({ pk, gmt_update: now })
    .where('id', 'in', selected.where('d.pk', '<>', pk).select('d.id'))
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
};

export const deleteDevices = async (conn: Conn, selected: DeviceQuery) => {
  const r = await conn.deleteFrom('device').where('id', 'in', selected.select('d.id')).executeTakeFirst();
  return Number(r.numDeletedRows);
};

/** A device as the device and state exports write it. */
export interface ExportRow {
  id: number;
  uid: string;
  mac: string;
  pk: string;
  comp_id: number;
  comp_name: string | null;
  gmt_create: number;
  online: number | null;
  active: number | null;
  network_type: number | null;
  vendor: string | null;
  protocol: string | null;
  last_online: number | null;
  last_offline: number | null;
  last_seen: number | null;
  offline_reason: number | null;
  country: string | null;
}

export const countFilteredDevices = async (conn: Conn, scope: Scope, f: DeviceFilter): Promise<number> =>
  Number(
    (
      await filteredDevices(conn, scope, f)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/**
 * One batch of an export, after `after` in registration order. Keyset on (registration time, id), the
 * order of device_created_idx: every export has a registration window, so each batch is one range scan
 * of that index inside the window, and the state and company rows are joined per device. (An id keyset
 * walked every older device before the window and made a merge join re-read device_state from its first
 * row on each batch.)
 */
export const exportBatch = async (
  conn: Conn,
  scope: Scope,
  f: DeviceFilter,
  after: { time: number; id: number } | null,
  limit: number,
): Promise<ExportRow[]> =>
  filteredDevices(conn, scope, f)
    .$if(after !== null, (q) => q.where(sql<boolean>`(d.gmt_create, d.id) > (${after?.time}::bigint, ${after?.id}::bigint)`))
    .leftJoin('device_state as s', 's.device_id', 'd.id')
    .leftJoin('company as c', 'c.comp_id', 'd.comp_id')
    .select([
      'd.id',
      'd.uid',
      'd.mac',
      'd.pk',
      'd.comp_id',
      'c.comp_name',
      'd.gmt_create',
      's.online',
      's.active',
      's.network_type',
      's.vendor',
      's.protocol',
      's.last_online',
      's.last_offline',
      's.last_seen',
      's.offline_reason',
      's.country',
    ])
    .orderBy('d.gmt_create')
    .orderBy('d.id')
    .limit(limit)
    .execute();
