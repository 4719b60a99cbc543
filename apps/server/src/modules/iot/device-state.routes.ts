import type { ServerResponse } from 'node:http';
import { API, ErrorCode, errorMessages, LIVE_PATH, LIVE_STATE_EVENT, type LiveState } from '@iot/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Scope, Services, Session } from '../../platform/context.js';
import { notFound } from '../../platform/errors.js';
import { scopeOf } from '../../platform/scope.js';
import { type Route, registerRoutes, route } from '../../platform/transport.js';
import { findDeviceInScope, listHistory, listStates, listWakeStates, type StateChange } from './device-state.repository.js';
import { createDeviceStateService, type DeviceStateService } from './device-state.service.js';

/** Menus whose screens show device state: holding one of them opens the live stream. */
const LIVE_MENUS = ['product/device_state', 'product/device', 'product/awake', 'operate/device'];
const KEEPALIVE_MS = 25_000;
/** The stream re-checks its session this often: a revoked token or disabled user stops receiving. */
const RECHECK_MS = 30_000;
/** A client this far behind (bytes not yet sent) is dropped; EventSource reconnects. */
const MAX_BACKLOG = 1024 * 1024;

export const deviceStateRoutes = (state: DeviceStateService): Route[] => [
  route(API.ingestEvents, async (_ctx, input) => state.ingest(input.events)),
  route(API.devStateList, async (ctx, input) => listStates(ctx.conn, ctx.scope, input)),
  route(API.wolStateGet, async (ctx, input) => listWakeStates(ctx.conn, ctx.scope, input)),
  route(API.stateHistory, async (ctx, input) => {
    const device = await findDeviceInScope(ctx.conn, ctx.scope, input.uid);
    if (!device) throw notFound('device');
    return listHistory(ctx.conn, device.id, input);
  }),
];

const isVisible = (scope: Scope, change: StateChange): boolean => {
  switch (scope.kind) {
    case 'all':
      return true;
    case 'own':
      return change.comp_id === scope.compId;
    case 'tree':
      return change.comp_path.startsWith(scope.path);
    case 'none':
      return false;
  }
};

const mayWatch = (session: Session) => session.isSuper || LIVE_MENUS.some((key) => session.menuKeys.has(key));

const refuse = (reply: FastifyReply, status: number, code: 401 | 513) =>
  reply.status(status).send({ code, msg: errorMessages[code], data: null });

/**
 * `GET /api/v2/iot/live?token=…`: server-sent events of device state changes in the
 * caller's company scope (`event: state`, `data: LiveState[]`). EventSource cannot send
 * headers, so the token comes in the query (or, for other clients, the Authorization
 * header); the route logs only warnings so the query never reaches the request log.
 */
const registerLiveStream = (app: FastifyInstance, services: Services, state: DeviceStateService) => {
  const open = new Set<ServerResponse>();
  app.get(`/api/${LIVE_PATH}`, { logLevel: 'warn' }, async (request: FastifyRequest, reply: FastifyReply) => {
    const query = request.query as Record<string, unknown>;
    const header = request.headers.authorization?.replace(/^Bearer\s+/i, '').trim();
    const token = typeof query.token === 'string' && query.token ? query.token : header;
    const session = token ? await services.sessions.resolve(token) : null;
    if (!session) return refuse(reply, 401, ErrorCode.UNAUTHORIZED);
    if (!mayWatch(session)) return refuse(reply, 403, ErrorCode.NO_PERMISSION);
    const scope = scopeOf(session);

    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write('retry: 3000\n\n: connected\n\n');
    open.add(res);

    const send = (changes: StateChange[]) => {
      const visible: LiveState[] = [];
      for (const c of changes) {
        if (!isVisible(scope, c)) continue;
        const { comp_path: _path, ...live } = c;
        visible.push(live);
      }
      if (visible.length === 0) return;
      if (res.writableLength > MAX_BACKLOG) {
        res.end();
        return;
      }
      res.write(`event: ${LIVE_STATE_EVENT}\ndata: ${JSON.stringify(visible)}\n\n`);
    };
    const unsubscribe = state.bus.subscribe(send);
    const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
    const recheck = setInterval(() => {
      void services.sessions.resolve(token as string).then(
        (s) => {
          if (!s || !mayWatch(s)) res.end();
        },
        () => res.end(),
      );
    }, RECHECK_MS);
    const cleanup = () => {
      unsubscribe();
      clearInterval(keepalive);
      clearInterval(recheck);
      open.delete(res);
    };
    res.on('close', cleanup);
    res.on('error', cleanup);
  });
  // Open streams would keep close() waiting for ever: end them first.
  app.addHook('preClose', async () => {
    for (const res of open) res.end();
    open.clear();
  });
};

/**
 * Device state (issue 3): the POST routes, the live stream, the heartbeat sweeper and
 * the MQTT subscription, with their lifecycle tied to the app's.
 */
export const registerDeviceState = (app: FastifyInstance, services: Services): DeviceStateService => {
  const state = createDeviceStateService(services, app.log);
  registerRoutes(app, services, deviceStateRoutes(state));
  registerLiveStream(app, services, state);
  app.addHook('onReady', async () => state.start());
  app.addHook('onClose', async () => state.stop());
  return state;
};
