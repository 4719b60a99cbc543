import crypto from 'node:crypto';
import { API, fileUrlOf, type ProductCategory, type ProductRow, type ProductShareRow } from '@iot/contract';
import { type SqlBool, sql } from 'kysely';
import type { Scope } from '../../platform/context.js';
import type { Conn } from '../../platform/db/database.js';
import type { ProductTable } from '../../platform/db/schema.js';
import { contains, defineList, eq, nonNegative, positive } from '../../platform/list.js';
import { productOwnedBy, productVisibleTo } from '../../platform/scope.js';

export type ProductValues = Omit<ProductTable, 'id'>;

/**
 * A product key: 12 characters of base62 from 72 random bits. URL-safe, short enough to
 * type on a device, not guessable; uniqueness is still checked by the table's unique index.
 */
const PK_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const newProductKey = (): string => {
  const bytes = crypto.randomBytes(16);
  let out = '';
  // 62 * 4 = 248: bytes ≥ 248 are skipped so every character is equally likely.
  for (const b of bytes) {
    if (b < 248) out += PK_ALPHABET[b % 62];
    if (out.length === 12) return out;
  }
  return out.length === 12 ? out : newProductKey();
};

const selectProducts = (conn: Conn, scope: Scope) =>
  conn
    .selectFrom('product as p')
    .leftJoin('company as c', 'c.comp_id', 'p.comp_id')
    .leftJoin('product_category as pc', 'pc.id', 'p.category_id')
    .select([
      'p.id',
      'p.pk',
      'p.name',
      'p.comp_id',
      'c.comp_name',
      'p.node_type',
      'p.category_id',
      'pc.name as category_name',
      'pc.cn_name as category_cn_name',
      'p.img',
      'p.remark',
      'p.sys',
      'p.attr',
      'p.oem',
      'p.link_id',
      'p.link_type',
      'p.batch_id',
      'p.create_time',
      'p.update_time',
    ])
    .select(sql<boolean>`not (${productOwnedBy(scope)})`.as('shared'));

type Selected = Awaited<ReturnType<ReturnType<typeof selectProducts>['execute']>>[number];

export const toProductRow = (r: Selected): ProductRow => ({
  id: r.id,
  pk: r.pk,
  name: r.name,
  comp_id: r.comp_id,
  comp_name: r.comp_name ?? '',
  node_type: r.node_type,
  category: r.category_id,
  category_name: r.category_name ?? '',
  category_cn_name: r.category_cn_name ?? '',
  img: r.img,
  img_url: fileUrlOf(r.img),
  remark: r.remark,
  sys: r.sys,
  attr: r.attr,
  oem: r.oem,
  link_id: r.link_id,
  link_type: r.link_type,
  batch_id: r.batch_id,
  shared: Boolean(r.shared),
  create_time: r.create_time,
  update_time: r.update_time,
});

/** Default order: newest first (id descending); ties by id. */
export const listProducts = defineList(API.productList, {
  from: (conn) => conn.selectFrom('product as p'),
  scope: productVisibleTo,
  filters: {
    name: contains('p.name'),
    pk: eq('p.pk'),
    comp_id: eq('p.comp_id'),
    category_id: eq('p.category_id'),
    node_type: positive('p.node_type'),
    oem: nonNegative('p.oem'),
  },
  sorts: {
    id: 'p.id',
    name: 'p.name',
    pk: 'p.pk',
    comp_id: 'p.comp_id',
    node_type: 'p.node_type',
    category_id: { column: 'p.category_id', nullable: true },
    oem: 'p.oem',
    create_time: 'p.create_time',
    update_time: 'p.update_time',
  },
  defaultSort: { column: 'p.id', direction: 'desc' },
  key: 'p.id',
  select: selectProducts,
  toRow: toProductRow,
});

/** Rows by id whatever the scope (audit). */
export const getProducts = async (conn: Conn, ids: number[]): Promise<ProductRow[]> =>
  ids.length === 0 ? [] : (await selectProducts(conn, { kind: 'all' }).where('p.id', 'in', ids).execute()).map(toProductRow);

/** One product the caller may see (own or shared), by id or pk. */
export const getVisibleProduct = async (conn: Conn, scope: Scope, by: { id?: number | undefined; pk?: string | undefined }) => {
  let q = selectProducts(conn, scope).where(productVisibleTo(scope));
  if (by.id !== undefined) q = q.where('p.id', '=', by.id);
  if (by.pk) q = q.where('p.pk', '=', by.pk);
  const row = await q.executeTakeFirst();
  return row ? toProductRow(row) : undefined;
};

/** Products the caller owns through its scope (shared ones excluded): the ones it may change. */
export const getOwnedProducts = async (conn: Conn, scope: Scope, ids: number[]): Promise<ProductRow[]> =>
  ids.length === 0
    ? []
    : (await selectProducts(conn, scope).where('p.id', 'in', ids).where(productOwnedBy(scope)).execute()).map(toProductRow);

export const isProductNameTaken = async (conn: Conn, compId: number, name: string, exceptId?: number) => {
  let q = conn.selectFrom('product').select('id').where('comp_id', '=', compId).where('name', '=', name);
  if (exceptId) q = q.where('id', '<>', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
};

export const isProductKeyTaken = async (conn: Conn, pk: string) =>
  (await conn.selectFrom('product').select('id').where('pk', '=', pk).executeTakeFirst()) !== undefined;

export const insertProduct = async (conn: Conn, values: ProductValues): Promise<number> =>
  (await conn.insertInto('product').values(values).returning('id').executeTakeFirstOrThrow()).id;

export const updateProduct = async (conn: Conn, id: number, values: Partial<ProductValues>) => {
  if (Object.keys(values).length === 0) return;
  await conn.updateTable('product').set(values).where('id', '=', id).execute();
};

/**
 * Products among `pks` that rows of another table name by `pk`: registered devices, or licence
 * codes (codes keep their product: deleting it would leave them dangling).
 */
export const productKeysNamedBy = async (conn: Conn, table: 'device' | 'device_licence', pks: string[]): Promise<string[]> =>
  pks.length === 0
    ? []
    : (
        await conn
          .selectFrom('product as p')
          .select('p.pk')
          .where('p.pk', 'in', pks)
          .where(sql<SqlBool>`exists (select 1 from ${sql.table(table)} x where x.pk = p.pk)`)
          .execute()
      ).map((r) => r.pk);

export const deleteProducts = async (conn: Conn, ids: number[]) => {
  await conn.deleteFrom('product').where('id', 'in', ids).execute();
};

export const listCategories = async (conn: Conn): Promise<ProductCategory[]> =>
  conn.selectFrom('product_category').select(['id', 'name', 'cn_name', 'sort']).orderBy('sort').orderBy('id').execute();

export const isCategory = async (conn: Conn, id: number) =>
  (await conn.selectFrom('product_category').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;

const selectShares = (conn: Conn) =>
  conn
    .selectFrom('product_share as s')
    .innerJoin('company as c', 'c.comp_id', 's.comp_id')
    .select(['s.product_id', 's.comp_id', 'c.comp_name', 's.gmt_create']);

/** The companies a product is shared with (the caller checked it owns the product); oldest share first. */
export const listShares = defineList(API.productShareList, {
  from: (conn) => conn.selectFrom('product_share as s'),
  filters: { product_id: eq('s.product_id') },
  sorts: { gmt_create: 's.gmt_create', comp_id: 's.comp_id' },
  defaultSort: { column: 's.gmt_create', direction: 'asc' },
  key: ['s.product_id', 's.comp_id'],
  select: selectShares,
  toRow: (r) => r,
});

export const getShare = async (conn: Conn, productId: number, compId: number): Promise<ProductShareRow | undefined> =>
  (await selectShares(conn).where('s.product_id', '=', productId).where('s.comp_id', '=', compId).executeTakeFirst()) as
    | ProductShareRow
    | undefined;

/** The sharing state of products, as the audit log records it: the companies each is shared with. */
export const getShareSets = async (conn: Conn, productIds: number[]) => {
  if (productIds.length === 0) return [];
  const rows = await conn
    .selectFrom('product_share')
    .select(['product_id', 'comp_id'])
    .where('product_id', 'in', productIds)
    .orderBy('comp_id')
    .execute();
  const existing = await conn.selectFrom('product').select('id').where('id', 'in', productIds).execute();
  return existing.map(({ id }) => ({ product_id: id, shared_with: rows.filter((r) => r.product_id === id).map((r) => r.comp_id) }));
};

export const insertShare = async (conn: Conn, productId: number, compId: number, now: number) => {
  await conn.insertInto('product_share').values({ product_id: productId, comp_id: compId, gmt_create: now }).execute();
};

export const deleteShare = async (conn: Conn, productId: number, compId: number) =>
  Number(
    (await conn.deleteFrom('product_share').where('product_id', '=', productId).where('comp_id', '=', compId).executeTakeFirst())
      .numDeletedRows,
  );
