import crypto from 'node:crypto';
import {
  type DeviceStateRow,
  INGEST_BATCH_MAX,
  type IngestOutput,
  type LicenceRow,
  type StateHistoryRow,
  type StatsOutput,
} from '@iot/contract';
import { sql } from 'kysely';
import { connectAsync } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyEvents } from '../src/modules/iot/device-state.repository.js';
import { foldDeviceStats } from '../src/modules/iot/stats.repository.js';
import { createCompanyAdmin, startTestServer, type TestServer } from './harness.js';
import { dbOf, fails, nowSeconds, ok, startSibling } from './helpers.js';

/**
 * Device state: ingestion with a service key, online/offline derivation (explicit and
 * heartbeat timeout), the state list's scope, the live stream (SSE) in-process and
 * across processes through Redis, and the MQTT path.
 */
const KEY = 'test-ingest-key';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const MQTT_URL = process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';
const TIMEOUT = 5;
const run = crypto.randomBytes(3).toString('hex');
const mqttTopic = `iot-test-${run}/+/events`;

let t: TestServer;
let a: { compId: number; token: string };
let b: { compId: number; token: string };

/** A product and devices (with their state rows) written directly: registration is another module's. */
const addDevices = async (compId: number, uids: string[]) => {
  const db = dbOf(t);
  const now = nowSeconds();
  const pk = `pk${crypto.randomBytes(4).toString('hex')}`;
  await db
    .insertInto('product')
    .values({ pk, name: `p-${pk}`, comp_id: compId, create_time: now, update_time: now } as never)
    .execute();
  const rows = await db
    .insertInto('device')
    .values(uids.map((uid) => ({ uid, mac: '', dev_key: '', pk, comp_id: compId, gmt_create: now, gmt_update: now })))
    .returning('id')
    .execute();
  for (const r of rows)
    await db
      .insertInto('device_state')
      .values({ device_id: r.id } as never)
      .execute();
  return pk;
};

const ingest = (events: unknown[], key: string | null = KEY, server: { url: string } = t) =>
  fetch(`${server.url}/api/v2/iot/ingest/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key !== null ? { 'x-service-key': key } : {}) },
    body: JSON.stringify({ events }),
  }).then(async (res) => ({ status: res.status, ...((await res.json()) as { code: number; data: IngestOutput; msg?: string }) }));

const stateOf = async (uid: string, token = t.adminToken) => {
  const rows = ok(await t.call<DeviceStateRow[]>('v2/umh/admin/dev/state/list', { uid }, { token }));
  const row = rows.find((r) => r.uid === uid);
  if (!row) throw new Error(`${uid} not in the state list`);
  return row;
};

/** Collects `state` events of an SSE stream until `until` says stop (or the time runs out). */
const watch = (url: string, token: string) => {
  const controller = new AbortController();
  const received: { uid: string; online: number }[] = [];
  let status = 0;
  const ready = fetch(`${url}/api/v2/iot/live?token=${encodeURIComponent(token)}`, { signal: controller.signal }).then(async (res) => {
    // A refusal is the JSON envelope (as on every path): its code; a stream: the HTTP status.
    const isRefusal = res.headers.get('content-type')?.includes('application/json');
    status = isRefusal ? ((await res.json()) as { code: number }).code : res.status;
    if (isRefusal || !res.ok || !res.body) return;
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          buffer += decoder.decode(value, { stream: true });
          let end = buffer.indexOf('\n\n');
          while (end >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = frame
              .split('\n')
              .filter((l) => l.startsWith('data: '))
              .map((l) => l.slice(6))
              .join('');
            if (frame.includes('event: state') && data) received.push(...(JSON.parse(data) as { uid: string; online: number }[]));
            end = buffer.indexOf('\n\n');
          }
        }
      } catch {
        // aborted
      }
    })();
  });
  return {
    ready: ready.then(() => status),
    received,
    close: () => controller.abort(),
  };
};

const waitFor = async (check: () => boolean | Promise<boolean>, ms = 5000) => {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
};

/** `device_online_now` (migration 0012, detail and roll-up rows) against a direct count of online devices. */
const expectOnlineNowExact = async () => {
  await foldDeviceStats(dbOf(t));
  const toMap = (rows: { k: string; n: number }[]) => new Map(rows.filter((r) => Number(r.n) !== 0).map((r) => [r.k, Number(r.n)]));
  const kept = await sql<{ k: string; n: number }>`select comp_id || '|' || pk as k, online as n from device_online_now`.execute(dbOf(t));
  const direct = await sql<{ k: string; n: number }>`
    select coalesce(d.comp_id, 0) || '|' || coalesce(d.pk, '') as k, count(*)::int as n
    from device d join device_state s on s.device_id = d.id where s.online = 1
    group by grouping sets ((d.comp_id, d.pk), (d.comp_id), (d.pk), ())`.execute(dbOf(t));
  expect(toMap(kept.rows)).toEqual(toMap(direct.rows));
};
const onlineCount = async (compId?: number) =>
  Number(
    (
      await sql<{ n: number }>`select count(*)::int as n from device_state s join device d on d.id = s.device_id
        where s.online = 1 ${compId ? sql`and d.comp_id = ${compId}::int` : sql``}`.execute(dbOf(t))
    ).rows[0]?.n,
  );
const statsNow = async (compId?: number) => {
  const today = Math.floor(nowSeconds() / 86_400) * 86_400;
  const body = { gmt_start: today - 6 * 86_400, gmt_end: today + 86_400, ...(compId ? { comp_id: compId } : {}) };
  return ok(await t.call<StatsOutput>('v2/iot/dev/statistics/get', body, { token: t.adminToken })).totals;
};

beforeAll(async () => {
  t = await startTestServer({
    ingestServiceKey: KEY,
    heartbeatTimeoutSeconds: TIMEOUT,
    redisUrl: REDIS_URL,
    mqttUrl: MQTT_URL,
    mqttTopic,
  });
  const menuKeys = ['product/device_state', 'product/awake', 'product/lic_list', 'operate/device'];
  a = await createCompanyAdmin(t, { name: `State A ${run}`, menuKeys, userId: `state-a-${run}` });
  b = await createCompanyAdmin(t, { name: `State B ${run}`, menuKeys, userId: `state-b-${run}` });
  await addDevices(a.compId, ['A-1', 'A-2', 'A-3', 'a-lower', 'A-SILENT']);
  await addDevices(b.compId, ['B-1']);
});
afterAll(async () => {
  await t?.close();
});

describe('ingestion service key', () => {
  it('refuses a batch without the key, with a wrong key, and a user token instead of the key', async () => {
    const events = [{ uid: 'A-1', type: 'online' }];
    expect((await ingest(events, null)).code).toBe(401);
    expect((await ingest(events, 'wrong')).code).toBe(401);
    fails(await t.call('v2/iot/ingest/events', { events }, { token: t.adminToken }), 401);
    expect((await stateOf('A-1')).online).toBe(0);
  });

  it('refuses everything when no key is configured', async () => {
    const sibling = await startSibling(t, { ingestServiceKey: undefined, redisUrl: undefined, mqttUrl: undefined });
    try {
      expect((await ingest([{ uid: 'A-1', type: 'online' }], KEY, sibling)).code).toBe(401);
      expect((await ingest([{ uid: 'A-1', type: 'online' }], '', sibling)).code).toBe(401);
    } finally {
      await sibling.close();
    }
  });

  it('limits the batch size and validates events', async () => {
    const big = Array.from({ length: INGEST_BATCH_MAX + 1 }, () => ({ uid: 'X', type: 'heartbeat' }));
    const answer = await ingest(big);
    expect([406, 413]).toContain(answer.code);
    const bad = await ingest([{ uid: 'A-1', type: 'explode' }]);
    expect(bad.code).toBe(406);
    expect(JSON.stringify(bad.data)).toContain('events.0.type');
    expect((await ingest([{ uid: 'A-1', type: 'network', network_type: 9 }])).code).toBe(406);
    expect((await ingest([])).code).toBe(406);
  });
});

describe('state derivation', () => {
  it('online with NAT type, vendor, protocol; then explicit offline (reason 1)', async () => {
    const ts = nowSeconds() - 1;
    const out = await ingest([{ uid: 'A-1', type: 'online', ts, network_type: 3, vendor: 'acme', protocol: 'p2p', country: 'CN' }]);
    expect(out.code).toBe(200);
    expect(out.data).toEqual({ accepted: 1, unknown: [] });
    let row = await stateOf('A-1');
    expect(row).toMatchObject({ online: 1, active: 1, gmt_active: ts, last_online: ts, last_seen: ts, network_type: 3 });
    expect(row).toMatchObject({ vendor: 'acme', protocol: 'p2p', country: 'CN' });

    ok(await ingest([{ uid: 'A-1', type: 'offline', ts: ts + 1 }]));
    row = await stateOf('A-1');
    expect(row).toMatchObject({ online: 0, offline_reason: 1, last_offline: ts + 1, last_online: ts, active: 1, gmt_active: ts });

    // Vendor and protocol also arrive as events of their own (like every event, they show the device is up).
    ok(
      await ingest([
        { uid: 'A-1', type: 'vendor', ts: ts + 2, vendor: 'hikam' },
        { uid: 'A-1', type: 'protocol', ts: ts + 2, protocol: 'onvif' },
      ]),
    );
    row = await stateOf('A-1');
    expect(row).toMatchObject({ vendor: 'hikam', protocol: 'onvif', online: 1, last_seen: ts + 2 });
  });

  it('applies events of one batch in order; a heartbeat after offline brings the device back', async () => {
    const ts = nowSeconds();
    ok(
      await ingest([
        { uid: 'A-2', type: 'online', ts: ts - 3 },
        { uid: 'A-2', type: 'network', ts: ts - 3, network_type: 2 },
        { uid: 'A-2', type: 'network', ts: ts - 2, network_type: 5 },
        { uid: 'A-2', type: 'offline', ts: ts - 2 },
        { uid: 'A-2', type: 'heartbeat', ts: ts - 1 },
      ]),
    );
    const row = await stateOf('A-2');
    expect(row).toMatchObject({ online: 1, network_type: 5, last_offline: ts - 2, last_online: ts - 1, last_seen: ts - 1 });
  });

  it('merges properties key by key and records wake state; matches uids case-insensitively', async () => {
    ok(await ingest([{ uid: 'a-3', type: 'properties', properties: { fw: '1.0', battery: 80 } }]));
    ok(await ingest([{ uid: 'A-3', type: 'properties', properties: { battery: 75, signal: -60 } }]));
    ok(await ingest([{ uid: 'A-LOWER', type: 'wake', wake_state: 2 }]));
    const row = await stateOf('A-3');
    expect(row.properties).toEqual({ fw: '1.0', battery: 75, signal: -60 });
    const wake = ok(await t.call<DeviceStateRow[]>('iot/wol/state/get', {}, { token: a.token }));
    expect(wake.map((r) => r.uid)).toEqual(['a-lower']);
    expect(wake[0]?.wake_state).toBe(2);
    const one = ok(await t.call<DeviceStateRow[]>('iot/wol/state/get', { uid: 'A-LOWER' }, { token: a.token }));
    expect(one).toHaveLength(1);
    ok(await ingest([{ uid: 'a-lower', type: 'wake', wake_state: 1 }]));
    const asleep = ok(await t.call<DeviceStateRow[]>('iot/wol/state/get', { wake_state: 1 }, { token: a.token }));
    expect(asleep.map((r) => r.uid)).toEqual(['a-lower']);
  });

  it('reports unknown uids per event and applies the rest', async () => {
    const out = await ingest([
      { uid: 'nobody-1', type: 'online' },
      { uid: 'A-3', type: 'heartbeat' },
      { uid: 'nobody-2', type: 'offline' },
    ]);
    expect(out.code).toBe(200);
    expect(out.data).toEqual({
      accepted: 1,
      unknown: [
        { index: 0, uid: 'nobody-1' },
        { index: 2, uid: 'nobody-2' },
      ],
    });
    expect((await stateOf('A-3')).online).toBe(1);
  });

  it('creates a missing state row instead of dropping the events', async () => {
    const db = dbOf(t);
    const now = nowSeconds();
    const product = await db.selectFrom('product').select('pk').where('comp_id', '=', a.compId).executeTakeFirstOrThrow();
    await db
      .insertInto('device')
      .values({ uid: 'A-NOSTATE', mac: '', dev_key: '', pk: product.pk, comp_id: a.compId, gmt_create: now, gmt_update: now })
      .execute();
    ok(await ingest([{ uid: 'A-NOSTATE', type: 'online', network_type: 1 }]));
    expect(await stateOf('A-NOSTATE')).toMatchObject({ online: 1, network_type: 1 });
  });

  it('marks silent devices offline with reason 2 (heartbeat timeout) and writes the history', async () => {
    const seen = nowSeconds() - TIMEOUT - 5;
    ok(await ingest([{ uid: 'A-SILENT', type: 'online', ts: seen }]));
    expect(await waitFor(async () => (await stateOf('A-SILENT')).online === 0, 8000)).toBe(true);
    const row = await stateOf('A-SILENT');
    expect(row).toMatchObject({ offline_reason: 2, last_seen: seen, last_offline: seen + TIMEOUT });
    const history = ok(await t.call<StateHistoryRow[]>('v2/iot/web/uid/state/history', { uid: 'A-SILENT' }, { token: a.token }));
    expect(history.map((h) => h.type)).toEqual(['timeout', 'online']);
    expect(history[0]?.detail).toEqual({ last_seen: seen });
    // Heartbeats are not history.
    const beats = ok(
      await t.call<StateHistoryRow[]>('v2/iot/web/uid/state/history', { uid: 'A-3', type: 'heartbeat' }, { token: a.token }),
    );
    expect(beats).toHaveLength(0);
    const byReason = ok(await t.call<DeviceStateRow[]>('v2/umh/admin/dev/state/list', { offline_reason: 2 }, { token: a.token }));
    expect(byReason.map((r) => r.uid)).toContain('A-SILENT');
    await expectOnlineNowExact();
  });
});

describe('online now (counters of migration 0012)', () => {
  it('statistics say how many devices are online right after ingestion, without waiting for a sample', async () => {
    const ts = nowSeconds();
    ok(
      await ingest([
        { uid: 'A-1', type: 'online', ts },
        { uid: 'A-2', type: 'online', ts },
        { uid: 'A-3', type: 'heartbeat', ts },
        { uid: 'B-1', type: 'online', ts },
      ]),
    );
    const all = await onlineCount();
    expect(all).toBeGreaterThanOrEqual(3);
    const totals = await statsNow();
    expect(totals.online).toBe(all);
    expect(totals.online_share).toBeCloseTo(all / totals.devices, 6);
    expect((await statsNow(a.compId)).online).toBe(await onlineCount(a.compId));
    expect((await statsNow(b.compId)).online).toBe(await onlineCount(b.compId));
    await expectOnlineNowExact();
    ok(await ingest([{ uid: 'B-1', type: 'offline', ts: ts + 1 }]));
    expect((await statsNow(b.compId)).online).toBe(0);
    expect((await statsNow()).online).toBe(all - 1);
    await expectOnlineNowExact();
  });

  it('heartbeats of online devices add no delta; an online change adds one row per company and product', async () => {
    const ts = nowSeconds();
    ok(await ingest([{ uid: 'A-3', type: 'online', ts }]));
    // A transaction of its own (repeatable read): the sweeper's commits meanwhile stay invisible.
    await dbOf(t)
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        const pending = async () =>
          Number((await sql<{ n: number }>`select count(*)::int as n from device_online_pending`.execute(trx)).rows[0]?.n);
        const before = await pending();
        await applyEvents(trx, [
          { uid: 'A-3', type: 'heartbeat', ts: ts + 1 },
          { uid: 'A-3', type: 'network', network_type: 4, ts: ts + 1 },
        ]);
        expect(await pending()).toBe(before);
        await applyEvents(trx, [
          { uid: 'A-3', type: 'offline', ts: ts + 2 },
          { uid: 'A-2', type: 'offline', ts: ts + 2 },
        ]);
        expect(await pending()).toBe(before + 1);
        const last = await sql<{ online: number }>`select online from device_online_pending order by id desc limit 1`.execute(trx);
        expect(last.rows[0]?.online).toBe(-2);
      });
    await expectOnlineNowExact();
  });
});

describe('scope', () => {
  it('shows a company only its devices; history of a sibling’s device is not found', async () => {
    ok(await ingest([{ uid: 'B-1', type: 'online' }]));
    const listA = await t.call<DeviceStateRow[]>('v2/umh/admin/dev/state/list', { page_size: 100 }, { token: a.token });
    expect(ok(listA).every((r) => r.comp_id === a.compId)).toBe(true);
    expect(listA.count).toBe(6);
    const listB = ok(await t.call<DeviceStateRow[]>('v2/umh/admin/dev/state/list', {}, { token: b.token }));
    expect(listB.map((r) => r.uid)).toEqual(['B-1']);
    fails(await t.call('v2/iot/web/uid/state/history', { uid: 'B-1' }, { token: a.token }), 406);
    ok(await ingest([{ uid: 'A-2', type: 'heartbeat' }]));
    const filtered = ok(await t.call<DeviceStateRow[]>('v2/umh/admin/dev/state/list', { online: 1, network_type: 5 }, { token: a.token }));
    expect(filtered.map((r) => r.uid)).toEqual(['A-2']);
    // A UID prefix: newest registration first, paged, as without it.
    const all = ok(listA).filter((r) => r.uid.toUpperCase().startsWith('A-'));
    const page1 = await t.call<DeviceStateRow[]>('v2/umh/admin/dev/state/list', { uid: 'a-', page_size: 2 }, { token: a.token });
    const page2 = ok(
      await t.call<DeviceStateRow[]>('v2/umh/admin/dev/state/list', { uid: 'a-', page_size: 2, page_no: 2 }, { token: a.token }),
    );
    expect(page1.count).toBe(all.length);
    expect([...ok(page1), ...page2].map((r) => r.device_id)).toEqual(all.slice(0, 4).map((r) => r.device_id));
  });

  it('lists licence codes in scope', async () => {
    const db = dbOf(t);
    const now = nowSeconds();
    await db
      .insertInto('device_licence')
      .values([
        { code: `LIC-A-${run}`, uid: 'A-1', pk: '', comp_id: a.compId, state: 'used', gmt_create: now, gmt_use: now },
        { code: `LIC-A2-${run}`, uid: null, pk: '', comp_id: a.compId, state: 'unused', gmt_create: now, gmt_use: null },
        { code: `LIC-B-${run}`, uid: null, pk: '', comp_id: b.compId, state: 'unused', gmt_create: now, gmt_use: null },
      ])
      .execute();
    const list = await t.call<LicenceRow[]>('v2/umh/admin/liccode/list', {}, { token: a.token });
    expect(
      ok(list)
        .map((r) => r.code)
        .sort(),
    ).toEqual([`LIC-A-${run}`, `LIC-A2-${run}`]);
    const unused = ok(await t.call<LicenceRow[]>('v2/umh/admin/liccode/list', { state: 'unused' }, { token: a.token }));
    expect(unused.map((r) => r.code)).toEqual([`LIC-A2-${run}`]);
    fails(await t.call('v2/umh/admin/liccode/list', { state: 'lost' }, { token: a.token }), 406);
  });

  it('refuses the screens’ calls without their menus', async () => {
    const c = await createCompanyAdmin(t, { name: `State C ${run}`, menuKeys: ['operate/user'], userId: `state-c-${run}` });
    fails(await t.call('v2/umh/admin/dev/state/list', {}, { token: c.token }), 513);
    fails(await t.call('iot/wol/state/get', {}, { token: c.token }), 513);
    fails(await t.call('v2/umh/admin/liccode/list', {}, { token: c.token }), 513);
    const stream = watch(t.url, c.token);
    expect(await stream.ready).toBe(513);
    stream.close();
  });
});

describe('live stream', () => {
  it('answers 401 without a valid token', async () => {
    const res = await fetch(`${t.url}/api/v2/iot/live?token=nope`);
    expect(((await res.json()) as { code: number }).code).toBe(401);
  });

  it('delivers a change to a console of the right company, not to a sibling’s', async () => {
    const streamA = watch(t.url, a.token);
    const streamB = watch(t.url, b.token);
    try {
      expect(await streamA.ready).toBe(200);
      expect(await streamB.ready).toBe(200);
      ok(await ingest([{ uid: 'A-3', type: 'network', network_type: 4 }]));
      expect(await waitFor(() => streamA.received.some((c) => c.uid === 'A-3'))).toBe(true);
      ok(await ingest([{ uid: 'B-1', type: 'offline' }]));
      expect(await waitFor(() => streamB.received.some((c) => c.uid === 'B-1'))).toBe(true);
      expect(streamB.received.some((c) => c.uid.startsWith('A'))).toBe(false);
      expect(streamA.received.some((c) => c.uid.startsWith('B'))).toBe(false);
    } finally {
      streamA.close();
      streamB.close();
    }
  });

  it('reaches a console connected to another process through Redis', async () => {
    const sibling = await startSibling(t, { mqttUrl: undefined });
    const stream = watch(sibling.url, a.token);
    try {
      expect(await stream.ready).toBe(200);
      await new Promise((r) => setTimeout(r, 300)); // the sibling's Redis subscription
      ok(await ingest([{ uid: 'A-2', type: 'offline' }])); // ingested by the first process
      expect(await waitFor(() => stream.received.some((c) => c.uid === 'A-2' && c.online === 0))).toBe(true);
    } finally {
      stream.close();
      await sibling.close();
    }
  });
});

describe('mqtt', () => {
  it('ingests events published on the broker', async () => {
    const client = await connectAsync(MQTT_URL);
    try {
      await new Promise((r) => setTimeout(r, 500)); // the server's subscription
      const topic = mqttTopic.replace('+', 'A-2');
      await client.publishAsync(topic, JSON.stringify({ type: 'online', network_type: 1, vendor: 'mqtt-vendor' }));
      await client.publishAsync(topic, JSON.stringify([{ type: 'properties', properties: { via: 'mqtt' } }]));
      expect(
        await waitFor(async () => {
          const row = await stateOf('A-2');
          return row.online === 1 && row.vendor === 'mqtt-vendor' && row.properties.via === 'mqtt';
        }),
      ).toBe(true);
      expect((await stateOf('A-2')).network_type).toBe(1);
    } finally {
      await client.endAsync();
    }
  });
});

// Last: it adds a device to company A, which the lists above count.
describe('heartbeat timeout of a long-lived device', () => {
  it('keeps a device online while it keeps beating, long past the timeout since it came online, then times it out', async () => {
    await addDevices(a.compId, ['A-LONG']);
    // Online since long before the timeout (its sweep mark is old), but beating now.
    const since = nowSeconds() - TIMEOUT - 3;
    ok(
      await ingest([
        { uid: 'A-LONG', type: 'online', ts: since },
        { uid: 'A-LONG', type: 'heartbeat' },
      ]),
    );
    // Several sweeps run (one every ~1.7 s) while it beats every second.
    for (let i = 0; i < 6; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      ok(await ingest([{ uid: 'A-LONG', type: 'heartbeat' }]));
      expect((await stateOf('A-LONG')).online).toBe(1);
    }
    expect((await stateOf('A-LONG')).last_online).toBe(since);
    // Silence: the timeout still finds it.
    expect(await waitFor(async () => (await stateOf('A-LONG')).online === 0, 12_000)).toBe(true);
    expect(await stateOf('A-LONG')).toMatchObject({ offline_reason: 2 });
  });
});
