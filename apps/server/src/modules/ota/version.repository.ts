import { API, type ProductVersionDetail, type ProductVersionRow, type Rollout } from '@iot/contract';
import { sql } from 'kysely';
import type { Scope } from '../../platform/context.js';
import type { Conn } from '../../platform/db/database.js';
import type { ProductVersionTable } from '../../platform/db/schema.js';
import { contains, defineList, eq, positive } from '../../platform/list.js';
import { productOwnedBy, productVisibleTo } from '../../platform/scope.js';

export type VersionValues = Omit<ProductVersionTable, 'id' | 'count' | 'details'> & { details: ProductVersionDetail[] };

/** Upgrades of the version by state, counted from the (version_id, state) index. */
const rolloutOf = sql<Rollout>`(select json_build_object(
    'offered', count(*) filter (where u.state = 'offered'),
    'upgrading', count(*) filter (where u.state = 'upgrading'),
    'succeeded', count(*) filter (where u.state = 'succeeded'),
    'failed', count(*) filter (where u.state = 'failed'),
    'superseded', count(*) filter (where u.state = 'superseded'))
  from ota_upgrade u where u.version_id = v.id)`;

const selectVersions = (conn: Conn) =>
  conn
    .selectFrom('product_version as v')
    .innerJoin('product as p', 'p.id', 'v.product_id')
    .leftJoin('company as c', 'c.comp_id', 'p.comp_id')
    .select([
      'v.id',
      'p.pk',
      'v.product_id',
      'p.name as product_name',
      'p.comp_id',
      'c.comp_name',
      'v.ver',
      'v.ver_num',
      'v.min_ver_num',
      'v.max_ver_num',
      'v.oem',
      'v.link_id',
      'v.link_type',
      'v.batch_id',
      'v.tag',
      'v.type',
      'v.level',
      'v.state',
      'v.limit',
      'v.count',
      'v.details',
      'v.gmt_create',
      'v.gmt_update',
    ])
    .select(rolloutOf.as('rollout'));

type Selected = Awaited<ReturnType<ReturnType<typeof selectVersions>['execute']>>[number];

const toVersionRow = (r: Selected): ProductVersionRow => ({
  ...r,
  id: Number(r.id),
  comp_name: r.comp_name ?? '',
  details: r.details.map((d) => ({ lang: d.lang, url: d.url, title: d.title, content: d.content, size: Number(d.size) })),
  rollout: {
    offered: Number(r.rollout.offered),
    upgrading: Number(r.rollout.upgrading),
    succeeded: Number(r.rollout.succeeded),
    failed: Number(r.rollout.failed),
    superseded: Number(r.rollout.superseded),
  },
});

/** Versions of products the caller's company owns; default order newest version first (`ver_num` descending). */
export const listVersions = defineList(API.productVerList, {
  from: (conn) => conn.selectFrom('product_version as v').innerJoin('product as p', 'p.id', 'v.product_id'),
  scope: (scope) => productOwnedBy(scope, 'p'),
  filters: {
    pk: eq('p.pk'),
    ver: contains('v.ver'),
    state: positive('v.state'),
    comp_id: eq('p.comp_id'),
  },
  sorts: {
    id: 'v.id',
    ver: 'v.ver',
    ver_num: 'v.ver_num',
    state: 'v.state',
    level: 'v.level',
    limit: 'v.limit',
    count: 'v.count',
    gmt_create: 'v.gmt_create',
    gmt_update: 'v.gmt_update',
  },
  defaultSort: { column: 'v.ver_num', direction: 'desc' },
  key: 'v.id',
  select: selectVersions,
  toRow: toVersionRow,
});

/** Rows by id whatever the scope (audit, answers). */
export const getVersions = async (conn: Conn, ids: number[]): Promise<ProductVersionRow[]> =>
  ids.length === 0 ? [] : (await selectVersions(conn).where('v.id', 'in', ids).orderBy('v.id').execute()).map(toVersionRow);

/** Versions among `ids` of products the caller owns. */
export const getOwnedVersions = async (conn: Conn, scope: Scope, ids: number[]): Promise<ProductVersionRow[]> =>
  ids.length === 0
    ? []
    : (await selectVersions(conn).where('v.id', 'in', ids).where(productOwnedBy(scope, 'p')).execute()).map(toVersionRow);

/** The product of a pk as the caller sees it: owned (may carry firmware), shared with it (read-only), or neither. */
export const productForFirmware = async (conn: Conn, scope: Scope, pk: string) => {
  const row = await conn
    .selectFrom('product as p')
    .select(['p.id', sql<boolean>`${productOwnedBy(scope, 'p')}`.as('owned')])
    .where('p.pk', '=', pk)
    .where(productVisibleTo(scope, 'p'))
    .executeTakeFirst();
  return row ? { id: row.id, owned: Boolean(row.owned) } : undefined;
};

/** Another version of the product already has this `ver` or this `ver_num`: which field. */
export const versionTaken = async (
  conn: Conn,
  productId: number,
  values: { ver?: string | undefined; ver_num?: number | undefined },
  exceptId?: number,
): Promise<'ver' | 'ver_num' | null> => {
  for (const field of ['ver_num', 'ver'] as const) {
    const value = values[field];
    if (value === undefined) continue;
    let q = conn.selectFrom('product_version').select('id').where('product_id', '=', productId).where(field, '=', value);
    if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
    if (await q.executeTakeFirst()) return field;
  }
  return null;
};

export const insertVersion = async (conn: Conn, values: VersionValues): Promise<number> =>
  Number(
    (
      await conn
        .insertInto('product_version')
        .values({ ...values, details: JSON.stringify(values.details) })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id,
  );

export const updateVersion = async (conn: Conn, id: number, values: Partial<VersionValues>) => {
  const { details, ...rest } = values;
  await conn
    .updateTable('product_version')
    .set({ ...rest, ...(details !== undefined ? { details: JSON.stringify(details) } : {}) })
    .where('id', '=', id)
    .execute();
};

export const deleteVersions = async (conn: Conn, ids: number[]) => {
  await conn.deleteFrom('product_version').where('id', 'in', ids).execute();
};
