import { API } from '@iot/contract';
import { badParams, notFound } from '../../platform/errors.js';
import { nowSeconds } from '../../platform/time.js';
import { type AuditEntity, type Route, route } from '../../platform/transport.js';
import {
  appDetails,
  appResources,
  apps,
  appUrls,
  appVersions,
  findAppId,
  getAppCfgs,
  listAppCfgs,
  newAppKey,
  replaceAppKey,
  updateAppCfg,
} from './app.repository.js';

const cfgEntity: AuditEntity = { idField: 'app_id', load: (conn, ids) => getAppCfgs(conn, { kind: 'all' }, ids) };

export const appRoutes: Route[] = [
  ...apps.routes,
  ...appDetails.routes,
  ...appVersions.routes,
  ...appUrls.routes,
  ...appResources.routes,

  route(
    API.appKeyRotate,
    async (ctx, input) => {
      const [app] = await apps.get(ctx.conn, ctx.scope, [input.id]);
      if (!app) throw notFound('app');
      const key = newAppKey();
      await replaceAppKey(ctx.conn, input.id, input.platform, key, nowSeconds());
      const [row] = await apps.get(ctx.conn, ctx.scope, [input.id]);
      // The new key in full, in this answer only.
      return { ...row, [`app_key_${input.platform}`]: key };
    },
    apps.entity,
  ),

  route(API.appIdGet, async (ctx, input) => {
    const found = await findAppId(ctx.conn, ctx.scope, input);
    if (!found) throw badParams({ [input.app_key ? 'app_key' : 'package_name']: 'not_found' }, 'No app has this key or package name');
    return found;
  }),

  route(API.appCfgList, (ctx, input) => listAppCfgs(ctx.conn, ctx.scope, input)),
  route(
    API.appCfgSet,
    async (ctx, input) => {
      const [current] = await getAppCfgs(ctx.conn, ctx.scope, [input.app_id]);
      if (!current) throw badParams({ app_id: 'not_found' }, 'app does not exist');
      const merged = input.dk_limit ? { ...current.dk_limit, ...input.dk_limit } : current.dk_limit;
      const limitsChanged = (['oem_prefix', 'pri_dk', 'pub_dk'] as const).some((k) => merged[k] !== current.dk_limit[k]);
      await updateAppCfg(
        ctx.conn,
        input.app_id,
        {
          ...(input.img !== undefined ? { img: input.img } : {}),
          // The limits' revision counts up only when they change (apps cache them by it).
          ...(limitsChanged ? { dk_limit: { ...merged, ver_num: current.dk_limit.ver_num + 1 } } : {}),
        },
        nowSeconds(),
      );
      return (await getAppCfgs(ctx.conn, ctx.scope, [input.app_id]))[0];
    },
    cfgEntity,
  ),
];
