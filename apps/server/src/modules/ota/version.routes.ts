import { API, ErrorCode, idsOf, versionRangeRules } from '@iot/contract';
import type { RequestContext } from '../../platform/context.js';
import { AppError, badParams, notFound } from '../../platform/errors.js';
import { changesOf } from '../../platform/list.js';
import { nowSeconds } from '../../platform/time.js';
import { type AuditEntity, type Route, route } from '../../platform/transport.js';
import { listUpgrades, versionsOffered } from './upgrade.repository.js';
import {
  deleteVersions,
  getOwnedVersions,
  getVersions,
  insertVersion,
  listVersions,
  productForFirmware,
  updateVersion,
  versionTaken,
} from './version.repository.js';

export const versionEntity: AuditEntity = { idField: 'id', load: getVersions };

const TAKEN_MESSAGES = {
  ver: 'A version of this product already has this version',
  ver_num: 'A version of this product already has this version number',
} as const;

/** 409 when another version of the product has the `ver` or `ver_num` (the `{field: "exists"}` names which). */
const assertFree = async (
  ctx: RequestContext,
  productId: number,
  values: { ver?: string | undefined; ver_num?: number | undefined },
  exceptId?: number,
) => {
  const taken = await versionTaken(ctx.conn, productId, values, exceptId);
  if (taken) throw new AppError(ErrorCode.CONFLICT, TAKEN_MESSAGES[taken], { fields: { [taken]: 'exists' } });
};

/** A version of a product the caller owns; any other is not found (CONTRACT §5). */
const ownedVersion = async (ctx: RequestContext, id: number) => {
  const [row] = await getOwnedVersions(ctx.conn, ctx.scope, [id]);
  if (!row) throw notFound('version');
  return row;
};

export const versionRoutes: Route[] = [
  route(API.productVerList, (ctx, input) => listVersions(ctx.conn, ctx.scope, input)),

  route(
    API.productVerAdd,
    async (ctx, input) => {
      const product = await productForFirmware(ctx.conn, ctx.scope, input.pk);
      if (!product) throw badParams({ pk: 'not_found' }, 'product does not exist');
      if (!product.owned) throw new AppError(ErrorCode.NO_PERMISSION, 'A shared product is read-only');
      await assertFree(ctx, product.id, input);
      const now = nowSeconds();
      const { pk: _pk, ...values } = input;
      const id = await insertVersion(ctx.conn, { ...values, product_id: product.id, gmt_create: now, gmt_update: now });
      return (await getVersions(ctx.conn, [id]))[0];
    },
    versionEntity,
  ),

  route(
    API.productVerSet,
    async (ctx, input) => {
      const current = await ownedVersion(ctx, input.id);
      const { id, ...changes } = input;
      const defined = changesOf(changes);
      // The range rules hold on what the version becomes, not only on the fields sent.
      const rules = versionRangeRules({ ...current, ...defined });
      if (Object.keys(rules).length > 0) throw badParams(rules);
      await assertFree(ctx, current.product_id, { ver: defined.ver, ver_num: defined.ver_num }, id);
      await updateVersion(ctx.conn, id, { ...defined, gmt_update: nowSeconds() });
      return (await getVersions(ctx.conn, [id]))[0];
    },
    versionEntity,
  ),

  route(
    API.productVerDel,
    async (ctx, input) => {
      const ids = idsOf(input);
      const owned = await getOwnedVersions(ctx.conn, ctx.scope, ids);
      if (owned.length !== ids.length) throw notFound('version');
      // Offered versions carry devices' upgrade history: they are delisted instead (all or none deleted).
      const offered = await versionsOffered(ctx.conn, ids);
      if (offered.length > 0)
        throw badParams({ id: 'in_use' }, `Devices have been offered version ${offered.join(', ')}: delist it instead`);
      await deleteVersions(ctx.conn, ids);
      return { deleted: ids.length };
    },
    versionEntity,
  ),

  route(API.productVerDevices, (ctx, input) => listUpgrades(ctx.conn, ctx.scope, input)),
];
