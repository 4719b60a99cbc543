import { API } from '@iot/contract';
import { type Route, route } from '../../platform/transport.js';
import {
  eventCfgs,
  listPushRecords,
  msgPlatforms,
  msgTemplates,
  noticeTemplates,
  pushLinks,
  pushPlatforms,
  pushTemplates,
} from './push.repository.js';

export const pushRoutes: Route[] = [
  ...pushPlatforms.routes,
  ...msgPlatforms.routes,
  ...pushTemplates.routes,
  ...pushLinks.routes,
  ...noticeTemplates.routes,
  ...msgTemplates.routes,
  ...eventCfgs.routes,
  route(API.pushRecordList, (ctx, input) => listPushRecords(ctx.conn, ctx.scope, input)),
];
