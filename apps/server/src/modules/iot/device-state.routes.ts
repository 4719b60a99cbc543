import { API, DOWNLOADS, LIVE_STATE_EVENT, type LiveState } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../platform/context.js';
import { type Download, stream } from '../../platform/downloads.js';
import { notFound } from '../../platform/errors.js';
import { isCompanyVisible } from '../../platform/scope.js';
import { type Route, registerRoutes, route } from '../../platform/transport.js';
import { findDeviceInScope, listHistory, listStates, listWakeStates, type StateChange } from './device-state.repository.js';
import { createDeviceStateService, type DeviceStateService } from './device-state.service.js';

export const deviceStateRoutes = (state: DeviceStateService): Route[] => [
  route(API.ingestEvents, async (_ctx, input) => state.ingest(input.events)),
  route(API.devStateList, async (ctx, input) => listStates(ctx.conn, ctx.scope, input)),
  route(API.wolStateGet, async (ctx, input) => listWakeStates(ctx.conn, ctx.scope, input)),
  route(API.stateHistory, async (ctx, input) => {
    const device = await findDeviceInScope(ctx.conn, ctx.scope, input.uid);
    if (!device) throw notFound('device');
    return listHistory(ctx.conn, ctx.scope, input);
  }),
];

/**
 * `GET /api/v2/iot/live?token=…`: server-sent events of device state changes in the caller's
 * company scope (`event: state`, `data: LiveState[]`); token, access (the menus whose screens
 * show device state), keepalive and session re-checks are platform/downloads.ts's.
 */
export const liveStream = (state: DeviceStateService): Download =>
  stream(DOWNLOADS.live, (ctx, _input, sink) =>
    state.bus.subscribe((changes: StateChange[]) => {
      const visible: LiveState[] = [];
      for (const c of changes) {
        if (!isCompanyVisible(ctx.scope, c)) continue;
        const { comp_path: _path, ...live } = c;
        visible.push(live);
      }
      if (visible.length > 0) sink.send(LIVE_STATE_EVENT, visible);
    }),
  );

/**
 * Device state (issue 3): the POST routes, the heartbeat sweeper and the MQTT subscription,
 * with their lifecycle tied to the app's. The live stream is `liveStream(state)`.
 */
export const registerDeviceState = (app: FastifyInstance, services: Services): DeviceStateService => {
  const state = createDeviceStateService(services, app.log);
  registerRoutes(app, services, deviceStateRoutes(state));
  app.addHook('onReady', async () => state.start());
  app.addHook('onClose', async () => state.stop());
  return state;
};
