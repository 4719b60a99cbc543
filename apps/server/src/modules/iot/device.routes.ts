import { API, resolvePaging } from '@iot/contract';
import { notFound } from '../../platform/errors.js';
import { type AuditEntity, type Route, route } from '../../platform/transport.js';
import { getDeviceInfo, getDeviceProperties, getDevices, listDevices } from './device.repository.js';
import { bulkDevices, registerOne } from './device.service.js';

export const deviceEntity: AuditEntity = { idField: 'id', load: (conn, ids) => getDevices(conn, ids) };

export const deviceRoutes: Route[] = [
  route(API.deviceList, async (ctx, input) => {
    const { offset, pageSize } = resolvePaging(input);
    return listDevices(ctx.conn, ctx.scope, input, { offset, limit: pageSize });
  }),

  route(API.deviceQuery, async (ctx, input) => {
    const info = await getDeviceInfo(ctx.conn, ctx.scope, { uid: input.uid, mac: input.mac });
    if (!info) throw notFound('device');
    return info;
  }),

  route(API.deviceAdd, async (ctx, input) => registerOne(ctx.conn, ctx.scope, input, ctx.services.db), deviceEntity),

  // Runs in its own transaction; one audit row records the action, its selection and how many changed.
  route(API.deviceBulk, async (ctx, input) =>
    ctx.services.db.transaction().execute(async (trx) => bulkDevices({ ...ctx, conn: trx }, input)),
  ),

  route(API.deviceInfo, async (ctx, input) => {
    const info = await getDeviceInfo(ctx.conn, ctx.scope, { id: input.id, uid: input.uid });
    if (!info) throw notFound('device');
    return info;
  }),

  route(API.deviceProperties, async (ctx, input) => {
    const info = await getDeviceInfo(ctx.conn, ctx.scope, { id: input.id, uid: input.uid });
    if (!info) throw notFound('device');
    return { id: info.id, uid: info.uid, properties: await getDeviceProperties(ctx.conn, info.id) };
  }),
];
