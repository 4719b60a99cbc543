import { API, OTA_OPEN_STATES, type OtaOffer, type OtaUpgradeRow, type ProductVersionDetail, VersionState } from '@iot/contract';
import { type SqlBool, sql } from 'kysely';
import type { Scope } from '../../platform/context.js';
import type { Conn } from '../../platform/db/database.js';
import { defineList, eq } from '../../platform/list.js';
import { inScope, productOwnedBy } from '../../platform/scope.js';

/**
 * The device side of OTA (issue 8): offers within a version's rollout limit, progress and
 * results; and the upgrade rows the console lists. Every function here runs in the caller's
 * transaction (one per ingestion event).
 */

/** The device an event names (by uid, any case) and its product key; undefined when it is not registered. */
export const findDevice = async (conn: Conn, uid: string) =>
  conn.selectFrom('device as d').select(['d.id as device_id', 'd.pk']).where(sql<SqlBool>`upper(d.uid) = upper(${uid})`).executeTakeFirst();

/**
 * Open upgrades the device has evidently finished: it reports a firmware at or above their
 * version (the result event was lost). They become `succeeded`.
 */
export const finishReachedUpgrades = async (conn: Conn, deviceId: number, verNum: number, now: number) => {
  await sql`
    update ota_upgrade u set state = 'succeeded', progress = 100, gmt_update = ${now}::bigint, gmt_finish = ${now}::bigint
    from product_version v
    where v.id = u.version_id and u.device_id = ${deviceId} and u.state in ('offered', 'upgrading') and v.ver_num <= ${verNum}
  `.execute(conn);
};

export interface OfferCandidate {
  id: number;
  /** The device was offered this version before: it gets it again without being counted again. */
  hasRow: boolean;
}

/**
 * Released versions of the product the device may take, newest first: above its firmware, with
 * its firmware inside [min_ver_num, max_ver_num] (max 0: no upper bound), and either room left in
 * the rollout or offered to this device already. A read only: the claim decides (`claimOffer`).
 */
export const offerCandidates = async (conn: Conn, pk: string, deviceId: number, verNum: number): Promise<OfferCandidate[]> => {
  const rows = await sql<{ id: number; has_row: boolean; has_room: boolean }>`
    select v.id, (v."limit" = 0 or v.count < v."limit") as has_room,
      exists (select 1 from ota_upgrade u where u.device_id = ${deviceId} and u.version_id = v.id) as has_row
    from product_version v
    where v.pk = ${pk} and v.state = ${VersionState.RELEASE} and v.ver_num > ${verNum}
      and v.min_ver_num <= ${verNum} and (v.max_ver_num = 0 or v.max_ver_num >= ${verNum})
    order by v.ver_num desc
  `.execute(conn);
  // Full versions stay out unless this device already holds a place in them.
  return rows.rows.filter((r) => r.has_row || r.has_room).map((r) => ({ id: Number(r.id), hasRow: Boolean(r.has_row) }));
};

/** The device's row for a version is (again) a fresh offer: asked again, e.g. after a failure or a restart. */
const reoffer = async (conn: Conn, deviceId: number, versionId: number, verNum: number, now: number) => {
  await conn
    .updateTable('ota_upgrade')
    .set({ state: 'offered', progress: 0, error: '', from_ver_num: verNum, gmt_offer: now, gmt_update: now, gmt_finish: null })
    .where('device_id', '=', deviceId)
    .where('version_id', '=', versionId)
    .execute();
};

/**
 * Claims a place in a version's rollout for a device, exactly: the device's row is inserted first
 * (unique per device and version, so two asks of one device queue on it and count once), then
 * `count` moves up by ONE conditional UPDATE (`count < limit`, still released): concurrent claims
 * queue on the version row and PostgreSQL re-checks the condition on the row they find, so no more
 * than `limit` ever succeed. A claim that finds the version full (or delisted) takes its row back.
 * Answers whether the device holds the offer.
 */
export const claimOffer = async (conn: Conn, deviceId: number, candidate: OfferCandidate, verNum: number, now: number) => {
  if (candidate.hasRow) {
    await reoffer(conn, deviceId, candidate.id, verNum, now);
    return true;
  }
  const inserted = await sql<{ id: number }>`
    insert into ota_upgrade (device_id, version_id, from_ver_num, state, gmt_offer, gmt_update)
    values (${deviceId}, ${candidate.id}, ${verNum}, 'offered', ${now}::bigint, ${now}::bigint)
    on conflict (device_id, version_id) do nothing
    returning id
  `.execute(conn);
  const row = inserted.rows[0];
  if (!row) {
    // Another ask of this device claimed it meanwhile (committed): the same offer, counted once.
    await reoffer(conn, deviceId, candidate.id, verNum, now);
    return true;
  }
  const counted = await sql<{ id: number }>`
    update product_version set count = count + 1
    where id = ${candidate.id} and state = ${VersionState.RELEASE} and ("limit" = 0 or count < "limit")
    returning id
  `.execute(conn);
  if (counted.rows.length > 0) return true;
  await conn.deleteFrom('ota_upgrade').where('id', '=', Number(row.id)).execute();
  return false;
};

/**
 * Open upgrades of the device other than `keepVersionId` (null: none kept): the device asked
 * again and was offered another version, or none; they are `superseded`.
 */
export const supersedeOpenUpgrades = async (conn: Conn, deviceId: number, keepVersionId: number | null, now: number) => {
  let q = conn
    .updateTable('ota_upgrade')
    .set({ state: 'superseded', gmt_update: now, gmt_finish: now })
    .where('device_id', '=', deviceId)
    .where('state', 'in', OTA_OPEN_STATES);
  if (keepVersionId !== null) q = q.where('version_id', '<>', keepVersionId);
  await q.execute();
};

/** The detail in the device's language: exact tag, then its primary language, then English, then the first. */
const detailFor = (details: ProductVersionDetail[], lang: string | undefined): ProductVersionDetail | undefined => {
  const want = (lang ?? '').toLowerCase();
  const primary = want.split('-')[0] ?? '';
  return (
    (want ? details.find((d) => d.lang.toLowerCase() === want) : undefined) ??
    (primary ? details.find((d) => d.lang.toLowerCase().split('-')[0] === primary) : undefined) ??
    details.find((d) => d.lang.toLowerCase().split('-')[0] === 'en') ??
    details[0]
  );
};

/** What the device is told about the version it is offered. */
export const offerOf = async (conn: Conn, versionId: number, lang: string | undefined): Promise<OtaOffer> => {
  const v = await conn
    .selectFrom('product_version')
    .select(['id', 'ver', 'ver_num', 'level', 'type', 'tag', 'details'])
    .where('id', '=', versionId)
    .executeTakeFirstOrThrow();
  const d = detailFor(v.details, lang);
  return {
    version_id: Number(v.id),
    ver: v.ver,
    ver_num: v.ver_num,
    level: v.level,
    type: v.type,
    tag: v.tag,
    lang: d?.lang ?? '',
    url: d?.url ?? '',
    title: d?.title ?? '',
    content: d?.content ?? '',
    size: d?.size ?? 0,
  };
};

/**
 * The device's newest open upgrade gets its progress (`upgrading`) or its outcome; answers
 * whether it had one.
 */
export const updateOpenUpgrade = async (
  conn: Conn,
  deviceId: number,
  change: { state: 'upgrading'; progress: number } | { state: 'succeeded' } | { state: 'failed'; error: string },
  now: number,
): Promise<boolean> => {
  const values =
    change.state === 'upgrading'
      ? { state: change.state, progress: change.progress, gmt_update: now }
      : change.state === 'succeeded'
        ? { state: change.state, progress: 100, gmt_update: now, gmt_finish: now }
        : { state: change.state, error: change.error, gmt_update: now, gmt_finish: now };
  const result = await conn
    .updateTable('ota_upgrade')
    .set(values)
    .where(
      'id',
      '=',
      conn
        .selectFrom('ota_upgrade')
        .select('id')
        .where('device_id', '=', deviceId)
        .where('state', 'in', OTA_OPEN_STATES)
        .orderBy('gmt_offer', 'desc')
        .orderBy('id', 'desc')
        .limit(1),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
};

/** Versions among `ids` some device has been offered (they are delisted, not deleted). */
export const versionsOffered = async (conn: Conn, ids: number[]): Promise<number[]> =>
  ids.length === 0
    ? []
    : (await conn.selectFrom('ota_upgrade').select('version_id').distinct().where('version_id', 'in', ids).execute()).map((r) =>
        Number(r.version_id),
      );

/**
 * Who sees an upgrade row: the owner of the device (its company in scope) and the owner of the
 * firmware (the version's product owned through the scope).
 */
const upgradeVisibleTo = (scope: Scope) =>
  scope.kind === 'all' ? sql<SqlBool>`true` : sql<SqlBool>`(${inScope(scope, 'd.comp_id')} or ${productOwnedBy(scope, 'p')})`;

const selectUpgrades = (conn: Conn) =>
  conn
    .selectFrom('ota_upgrade as u')
    .innerJoin('device as d', 'd.id', 'u.device_id')
    .innerJoin('product_version as v', 'v.id', 'u.version_id')
    .innerJoin('product as p', 'p.pk', 'v.pk')
    .leftJoin('company as c', 'c.comp_id', 'd.comp_id')
    .select([
      'u.id',
      'u.device_id',
      'd.uid',
      'd.comp_id',
      'c.comp_name',
      'u.version_id',
      'p.pk',
      'v.ver',
      'v.ver_num',
      'u.from_ver_num',
      'u.state',
      'u.progress',
      'u.error',
      'u.gmt_offer',
      'u.gmt_update',
      'u.gmt_finish',
    ]);

type UpgradeSelected = Awaited<ReturnType<ReturnType<typeof selectUpgrades>['execute']>>[number];

const toUpgradeRow = (r: UpgradeSelected): OtaUpgradeRow => ({
  ...r,
  id: Number(r.id),
  device_id: Number(r.device_id),
  version_id: Number(r.version_id),
  comp_name: r.comp_name ?? '',
});

/** Default order: newest offer first (`id` descending). */
export const listUpgrades = defineList(API.productVerDevices, {
  from: (conn) =>
    conn
      .selectFrom('ota_upgrade as u')
      .innerJoin('device as d', 'd.id', 'u.device_id')
      .innerJoin('product_version as v', 'v.id', 'u.version_id')
      .innerJoin('product as p', 'p.pk', 'v.pk'),
  scope: upgradeVisibleTo,
  filters: {
    version_id: eq('u.version_id'),
    uid: (v) => (v === '' ? null : sql<SqlBool>`upper(d.uid) = ${v.toUpperCase()}`),
    pk: eq('p.pk'),
    state: eq('u.state'),
  },
  sorts: {
    id: 'u.id',
    uid: 'd.uid',
    state: 'u.state',
    progress: 'u.progress',
    ver_num: 'v.ver_num',
    gmt_offer: 'u.gmt_offer',
    gmt_update: 'u.gmt_update',
    gmt_finish: { column: 'u.gmt_finish', nullable: true },
  },
  defaultSort: { column: 'u.id', direction: 'desc' },
  key: 'u.id',
  select: selectUpgrades,
  toRow: toUpgradeRow,
});
