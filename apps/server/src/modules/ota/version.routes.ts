import { API } from '@iot/contract';
import { type Route, route } from '../../platform/transport.js';
import { listUpgrades } from './upgrade.repository.js';
import { versions } from './version.repository.js';

/** Product firmware (OTA, issue 8): the versions (CRUD kit) and the devices' upgrades. */
export const versionRoutes: Route[] = [
  ...versions.routes,
  route(API.productVerDevices, (ctx, input) => listUpgrades(ctx.conn, ctx.scope, input)),
];
