import {
  type AppEvent,
  DEVICE_EVENT_TYPES,
  type DeviceEvent,
  deviceEventSchema,
  INGEST_BATCH_MAX,
  type IngestEvent,
  type IngestOutput,
} from '@iot/contract';
import type { FastifyBaseLogger } from 'fastify';
import { connect, type MqttClient } from 'mqtt';
import type { Services } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { createLiveBus, type LiveBus } from '../../platform/live-bus.js';
import { nowSeconds } from '../../platform/time.js';
import { applyOtaEvents, isOtaEvent } from '../ota/upgrade.service.js';
import { ingestAppEvents } from '../umh/appdata-ingest.service.js';
import {
  applyEvents,
  createMissingStates,
  pruneEvents,
  type StateChange,
  sweepTimeouts,
  uidsOfDevices,
} from './device-state.repository.js';
import { bindLicence } from './licence.repository.js';

const LIVE_CHANNEL = 'iot-console:device-state';
const PRUNE_EVERY_MS = 60_000;
/** MQTT messages are gathered this long (or up to a full batch) and applied as one batch. */
const MQTT_FLUSH_MS = 100;

export interface DeviceStateService {
  /**
   * Applies a batch (the one ingestion path: HTTP and MQTT) and tells open consoles what changed;
   * the app side's kinds (users, bindings, alarms, logs) go to modules/umh.
   */
  ingest(events: IngestEvent[]): Promise<IngestOutput>;
  bus: LiveBus<StateChange[]>;
  /** One sweep now (the timer calls it every few seconds). */
  sweep(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

const uidKey = (uid: string) => uid.toUpperCase();

export const createDeviceStateService = (services: Services, log: FastifyBaseLogger): DeviceStateService => {
  const { config } = services;
  const db: Db = services.db;
  const bus = createLiveBus<StateChange[]>(LIVE_CHANNEL, config.redisUrl, (err) => log.warn({ err }, 'live bus'));

  /**
   * `licence` events: each binds its code to its device (one transaction each, the code row
   * locked), device-side rules: any company, the code's product, the owner's company tree.
   */
  const bindFromDevices = async (items: { e: DeviceEvent & { ts: number }; index: number }[]) => {
    const results: NonNullable<IngestOutput['licences']> = [];
    for (const { e, index } of items) {
      const out = await db
        .transaction()
        .execute((trx) => bindLicence(trx, { kind: 'all' }, { code: e.code ?? '', uid: e.uid, now: e.ts, sameDeviceIsBound: true }));
      results.push({ index, uid: e.uid, result: out.result === 'no_device' ? 'not_found' : out.result });
    }
    return results;
  };

  const isDeviceEvent = (e: IngestEvent): e is DeviceEvent => (DEVICE_EVENT_TYPES as readonly string[]).includes(e.type);

  /** Device state kinds and the app side's kinds of one batch, each answered at its position in the batch. */
  const ingest = async (all: IngestEvent[]): Promise<IngestOutput> => {
    const now = nowSeconds();
    const positions: number[] = [];
    const deviceEvents: DeviceEvent[] = [];
    const appItems: { index: number; e: AppEvent & { ts: number } }[] = [];
    all.forEach((e, index) => {
      if (isDeviceEvent(e)) {
        positions.push(index);
        deviceEvents.push(e);
      } else appItems.push({ index, e: { ...e, ts: e.ts ?? now } });
    });
    const out: IngestOutput = deviceEvents.length > 0 ? await ingestDeviceEvents(deviceEvents, now) : { accepted: 0, unknown: [] };
    // Positions within the device events → positions within the batch.
    const at = (i: number) => positions[i] ?? i;
    out.unknown = out.unknown.map((u) => ({ ...u, index: at(u.index) }));
    if (out.licences) out.licences = out.licences.map((l) => ({ ...l, index: at(l.index) }));
    return appItems.length > 0 ? { ...out, ...(await appOut(appItems, out)) } : out;
  };

  const appOut = async (items: { index: number; e: AppEvent & { ts: number } }[], out: IngestOutput): Promise<Partial<IngestOutput>> => {
    const app = await ingestAppEvents(db, items);
    const unknown = [...out.unknown, ...app.unknown].sort((a, b) => a.index - b.index);
    return {
      accepted: out.accepted + items.length - app.unknown.length - app.refused.length,
      unknown,
      ...(app.refused.length > 0 ? { refused: app.refused } : {}),
    };
  };

  const ingestDeviceEvents = async (events: DeviceEvent[], now: number): Promise<IngestOutput> => {
    const stamped = events.map((e) => ({ ...e, ts: e.ts ?? now }));
    const applied = await applyEvents(db, stamped);
    let changes = applied.changes;
    if (applied.missing.length > 0) {
      // Registered without a state row: create the rows, then apply just those devices' events.
      await createMissingStates(db, applied.missing);
      const uids = new Set((await uidsOfDevices(db, applied.missing)).map(uidKey));
      const again = await applyEvents(
        db,
        stamped.filter((e) => uids.has(uidKey(e.uid))),
      );
      changes = [...changes, ...again.changes];
    }
    if (changes.length > 0) bus.publish(changes);
    const out: IngestOutput = { accepted: events.length - applied.unknown.length, unknown: applied.unknown };
    const unknown = new Set(applied.unknown.map((u) => u.index));
    const licences = stamped.flatMap((e, index) => (e.type === 'licence' && !unknown.has(index) ? [{ e, index }] : []));
    if (licences.length > 0) out.licences = await bindFromDevices(licences);
    const ota = stamped.flatMap((e, index) => (isOtaEvent(e) && !unknown.has(index) ? [{ e, index }] : []));
    if (ota.length > 0) out.ota = await applyOtaEvents(db, ota);
    return out;
  };

  let sweeping: Promise<void> | null = null;
  let lastPrune = 0;
  const sweepOnce = async () => {
    const now = nowSeconds();
    for (;;) {
      const changed = await sweepTimeouts(db, now, config.heartbeatTimeoutSeconds);
      if (changed === null) return; // another process sweeps
      if (changed.length > 0) bus.publish(changed);
      if (changed.length < 20_000) break;
    }
    if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
      lastPrune = Date.now();
      await pruneEvents(db, now - config.deviceEventRetentionDays * 86_400);
    }
  };
  const sweep = async () => {
    if (sweeping) return sweeping;
    sweeping = sweepOnce()
      .catch((err: unknown) => log.error({ err }, 'heartbeat sweep failed'))
      .finally(() => {
        sweeping = null;
      });
    return sweeping;
  };

  let timer: NodeJS.Timeout | null = null;
  let client: MqttClient | null = null;
  let buffer: DeviceEvent[] = [];
  let flushTimer: NodeJS.Timeout | null = null;
  let flushing: Promise<void> = Promise.resolve();

  /** `devices/<uid>/ota` for the default `$share/iot-console/devices/+/events`: the event topic, shared prefix dropped, its last level `ota`. */
  const otaReplyTopic = (uid: string) =>
    config.mqttTopic
      .replace(/^\$share\/[^/]+\//, '')
      .replace('+', uid)
      .replace(/\/[^/]*$/, '/ota');

  const flush = () => {
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = null;
    if (buffer.length === 0) return;
    const batch = buffer;
    buffer = [];
    flushing = flushing
      .then(async () => {
        const out = await ingest(batch);
        if (out.unknown.length > 0) log.warn({ unknown: out.unknown.slice(0, 10), count: out.unknown.length }, 'mqtt: unknown uids');
        // A device on MQTT hears what became of its OTA events (its offer) on its own `…/<uid>/ota` topic.
        for (const { uid, result, offer } of out.ota ?? [])
          client?.publish(otaReplyTopic(uid), JSON.stringify(offer ? { uid, result, offer } : { uid, result }), { qos: 1 });
      })
      .catch((err: unknown) => log.error({ err }, 'mqtt ingestion failed'));
  };

  /** `devices/<uid>/events`: one event object, an array of them, or `{events: […]}`; `uid` defaults to the topic's. */
  const onMqttMessage = (topic: string, payload: Buffer) => {
    const topicUid = topic.split('/')[1] ?? '';
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload.toString('utf8'));
    } catch {
      log.warn({ topic }, 'mqtt: payload is not JSON');
      return;
    }
    const list = Array.isArray(parsed)
      ? parsed
      : parsed && typeof parsed === 'object' && Array.isArray((parsed as { events?: unknown }).events)
        ? (parsed as { events: unknown[] }).events
        : [parsed];
    for (const item of list) {
      const candidate = item && typeof item === 'object' ? { uid: topicUid, ...(item as Record<string, unknown>) } : item;
      const event = deviceEventSchema.safeParse(candidate);
      if (!event.success) {
        log.warn({ topic }, 'mqtt: malformed event');
        continue;
      }
      buffer.push(event.data);
    }
    if (buffer.length >= INGEST_BATCH_MAX) flush();
    else flushTimer ??= setTimeout(flush, MQTT_FLUSH_MS);
  };

  return {
    ingest,
    bus,
    sweep,
    start() {
      const every = Math.max(500, Math.min(5_000, (config.heartbeatTimeoutSeconds * 1000) / 3));
      timer = setInterval(() => void sweep(), every);
      timer.unref();
      if (config.mqttUrl) {
        client = connect(config.mqttUrl, { clientId: `iot-console-${process.pid}-${Math.random().toString(36).slice(2, 8)}` });
        client.on('connect', () => {
          client?.subscribe(config.mqttTopic, { qos: 1 }, (err) => {
            if (err) log.error({ err }, 'mqtt subscribe failed');
            else log.info({ topic: config.mqttTopic }, 'mqtt: ingesting device events');
          });
        });
        client.on('error', (err) => log.warn({ err }, 'mqtt'));
        client.on('message', onMqttMessage);
      }
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      if (client) await client.endAsync();
      client = null;
      flush();
      await flushing;
      await sweeping;
      await bus.close();
    },
  };
};
