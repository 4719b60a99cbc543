import { API } from '@iot/contract';
import { type Route, route } from '../../platform/transport.js';
import { listAudit } from './audit.repository.js';

export const auditRoutes: Route[] = [route(API.auditList, (ctx, input) => listAudit(ctx.conn, ctx.scope, input))];
