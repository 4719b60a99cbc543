import { API, ErrorCode } from '@iot/contract';
import type { RequestContext } from '../../platform/context.js';
import { AppError, badParams, notFound } from '../../platform/errors.js';
import { changesOf } from '../../platform/list.js';
import { nowSeconds } from '../../platform/time.js';
import { type AuditEntity, type Route, route } from '../../platform/transport.js';
import {
  deleteProducts,
  deleteShare,
  getOwnedProducts,
  getProducts,
  getShare,
  getShareSets,
  getVisibleProduct,
  insertProduct,
  insertShare,
  isCategory,
  isProductKeyTaken,
  isProductNameTaken,
  listCategories,
  listProducts,
  listShares,
  newProductKey,
  productKeysNamedBy,
  updateProduct,
} from './product.repository.js';

export const productEntity: AuditEntity = { idField: 'id', load: getProducts };
/** Sharing is audited on the product: before/after of the companies it is shared with. */
export const productShareEntity: AuditEntity = { idField: 'product_id', load: getShareSets };

/**
 * The product the caller may change: owned through its scope. A product it sees only
 * because it is shared with it is read-only (513); one it cannot see is not found (406).
 */
const ownedProduct = async (ctx: RequestContext, id: number) => {
  const [owned] = await getOwnedProducts(ctx.conn, ctx.scope, [id]);
  if (owned) return owned;
  if (await getVisibleProduct(ctx.conn, ctx.scope, { id })) throw new AppError(ErrorCode.NO_PERMISSION, 'A shared product is read-only');
  throw notFound('product');
};

const assertCategory = async (ctx: RequestContext, category: number | null | undefined) => {
  if (category !== null && category !== undefined && !(await isCategory(ctx.conn, category)))
    throw badParams({ category: 'not_found' }, 'Category does not exist');
};

/** A fresh pk; the unique index is the final word, this only avoids a needless 409. */
const uniqueProductKey = async (ctx: RequestContext) => {
  for (let i = 0; i < 5; i++) {
    const pk = newProductKey();
    if (!(await isProductKeyTaken(ctx.conn, pk))) return pk;
  }
  throw new Error('could not generate a unique product key');
};

export const productRoutes: Route[] = [
  route(API.productList, (ctx, input) => listProducts(ctx.conn, ctx.scope, input)),

  route(API.productGet, async (ctx, input) => {
    const row = await getVisibleProduct(ctx.conn, ctx.scope, input);
    if (!row) throw notFound('product');
    return row;
  }),

  route(API.productCategoryGet, async (ctx) => listCategories(ctx.conn)),

  route(
    API.productAdd,
    async (ctx, input) => {
      await assertCategory(ctx, input.category);
      if (await isProductNameTaken(ctx.conn, input.comp_id, input.name))
        throw new AppError(ErrorCode.CONFLICT, 'A product of this company already has this name');
      const now = nowSeconds();
      const { category, ...values } = input;
      const id = await insertProduct(ctx.conn, {
        ...values,
        category_id: category,
        pk: await uniqueProductKey(ctx),
        create_time: now,
        update_time: now,
      });
      return (await getProducts(ctx.conn, [id]))[0];
    },
    productEntity,
  ),

  route(
    API.productSet,
    async (ctx, input) => {
      const product = await ownedProduct(ctx, input.id);
      await assertCategory(ctx, input.category);
      if (input.name !== undefined && (await isProductNameTaken(ctx.conn, product.comp_id, input.name, product.id)))
        throw new AppError(ErrorCode.CONFLICT, 'A product of this company already has this name');
      const { id, category, ...changes } = input;
      const defined = changesOf(changes);
      await updateProduct(ctx.conn, id, {
        ...defined,
        ...(category !== undefined ? { category_id: category } : {}),
        update_time: nowSeconds(),
      });
      return (await getProducts(ctx.conn, [id]))[0];
    },
    productEntity,
  ),

  route(
    API.productDelete,
    async (ctx, input) => {
      const ids = [...new Set([...(input.id ? [input.id] : []), ...(input.ids ?? [])])];
      const products = [];
      for (const id of ids) products.push(await ownedProduct(ctx, id));
      // Devices reference the pk: a product with registered devices stays (all or none are deleted).
      const pks = products.map((p) => p.pk);
      const inUse = await productKeysNamedBy(ctx.conn, 'device', pks);
      if (inUse.length > 0) throw badParams({ id: 'has_devices' }, `Devices are registered under ${inUse.join(', ')}`);
      const licensed = await productKeysNamedBy(ctx.conn, 'device_licence', pks);
      if (licensed.length > 0) throw badParams({ id: 'has_licences' }, `Licence codes name ${licensed.join(', ')}`);
      await deleteProducts(ctx.conn, ids);
      return { deleted: ids.length };
    },
    productEntity,
  ),

  route(API.productShareList, async (ctx, input) => {
    const product = await getVisibleProduct(ctx.conn, ctx.scope, { id: input.product_id });
    if (!product) throw notFound('product');
    // Whom a product is shared with is the owner's business.
    if (product.shared) throw new AppError(ErrorCode.NO_PERMISSION, 'A shared product is read-only');
    return listShares(ctx.conn, ctx.scope, input);
  }),

  route(
    API.productShareAdd,
    async (ctx, input) => {
      const product = await ownedProduct(ctx, input.product_id);
      // Shares go to companies the caller can see (CONTRACT §5; comp_id is a declared company reference).
      if (input.comp_id === product.comp_id) throw badParams({ comp_id: 'self' }, 'The owner company already has the product');
      if (await getShare(ctx.conn, input.product_id, input.comp_id))
        throw new AppError(ErrorCode.CONFLICT, 'The product is already shared with this company');
      await insertShare(ctx.conn, input.product_id, input.comp_id, nowSeconds());
      return getShare(ctx.conn, input.product_id, input.comp_id);
    },
    productShareEntity,
  ),

  route(
    API.productShareDelete,
    async (ctx, input) => {
      await ownedProduct(ctx, input.product_id);
      if ((await deleteShare(ctx.conn, input.product_id, input.comp_id)) === 0) throw notFound('share');
      return { deleted: 1 };
    },
    productShareEntity,
  ),
];
