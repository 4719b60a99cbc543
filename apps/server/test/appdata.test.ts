import crypto from 'node:crypto';
import type {
  AlarmLogRow,
  AppStatsOutput,
  AppUserDetail,
  AppUserRow,
  DevBindRow,
  DeviceLogRow,
  IngestOutput,
  ServiceLogRow,
} from '@iot/contract';
import { ExportState } from '@iot/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAlarmHook } from '../src/modules/umh/alarm-hooks.js';
import { createCompanyAdmin, startTestServer, type TestServer } from './harness.js';
import { dbOf, fails, nowSeconds, ok } from './helpers.js';
import { download, type JobRowLite, readXlsx, waitJob } from './jobs-helpers.js';

/**
 * What the app side reports (issue 8): app users, bindings and shares, alarms, device and service
 * logs through `v2/iot/ingest/events`; their lists with filters and company scope, the device-log
 * export (≤ 3 months), the app-user statistics from rollups, deep pages of the logs.
 */
const KEY = 'appdata-ingest-key';
const DAY = 86_400;
const run = crypto.randomBytes(3).toString('hex');
const MENUS = ['applist/user', 'applist/dev', 'applist/alarm', 'applist/log_list', 'info/user'];

let t: TestServer;
let a: { compId: number; token: string };
let b: { compId: number; token: string };
/** Midnight UTC some days ago: events are dated from it. */
const day0 = Math.floor(nowSeconds() / DAY) * DAY - 10 * DAY;

const addDevices = async (compId: number, uids: string[]) => {
  const db = dbOf(t);
  const now = nowSeconds();
  const pk = `pk${crypto.randomBytes(4).toString('hex')}`;
  await db
    .insertInto('product')
    .values({ pk, name: `p-${pk}`, comp_id: compId, create_time: now, update_time: now } as never)
    .execute();
  await db
    .insertInto('device')
    .values(uids.map((uid) => ({ uid, mac: '', dev_key: '', pk, comp_id: compId, gmt_create: now, gmt_update: now })))
    .execute();
  return pk;
};

const ingest = async (events: unknown[], key: string | null = KEY) => {
  const res = await fetch(`${t.url}/api/v2/iot/ingest/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key !== null ? { 'x-service-key': key } : {}) },
    body: JSON.stringify({ events }),
  });
  return (await res.json()) as { code: number; data: IngestOutput & { fields?: Record<string, string> }; msg?: string };
};
const ingestOk = async (events: unknown[]) => {
  const r = await ingest(events);
  if (r.code !== 200) throw new Error(`ingest ${r.code} ${r.msg} ${JSON.stringify(r.data)}`);
  return r.data;
};

const list = async <T>(path: string, body: Record<string, unknown>, token = t.adminToken) => {
  const r = await t.call<T[]>(path, body, { token });
  if (r.code !== 200) throw new Error(`${path}: ${r.code} ${r.msg} ${JSON.stringify(r.data)}`);
  return { rows: r.data, count: r.count ?? 0 };
};

const appA = 1000 + Math.floor(Math.random() * 1000);
const appB = appA + 1;

beforeAll(async () => {
  t = await startTestServer({ ingestServiceKey: KEY });
  a = await createCompanyAdmin(t, { name: `App A ${run}`, menuKeys: MENUS, userId: `app-a-${run}` });
  b = await createCompanyAdmin(t, { name: `App B ${run}`, menuKeys: MENUS, userId: `app-b-${run}` });
  await addDevices(a.compId, ['AD-1', 'AD-2']);
  await addDevices(b.compId, ['BD-1']);
});

afterAll(async () => {
  await t?.close();
});

describe('app users', () => {
  it('registrations and sign-ins are recorded per app; unknown companies and users are refused', async () => {
    const out = await ingestOk([
      {
        type: 'user_register',
        app_id: appA,
        comp_id: a.compId,
        user_id: 'alice',
        country: 'cn',
        lang: 'zh-CN',
        email: 'alice@example.com',
        phone: '13812345678',
        ts: day0 + 100,
      },
      {
        type: 'user_register',
        app_id: appA,
        comp_id: a.compId,
        user_id: 'bob',
        country: 'US',
        email: 'bob@example.org',
        ts: day0 + DAY + 5,
      },
      { type: 'user_register', app_id: appB, comp_id: b.compId, user_id: 'carol', country: 'US', ts: day0 + 2 * DAY },
      { type: 'user_register', app_id: appA, comp_id: 999_999, user_id: 'nobody', ts: day0 },
      { type: 'user_login', app_id: appA, user_id: 'ALICE', ts: day0 + DAY + 50 },
      { type: 'user_login', app_id: appA, user_id: 'alice', ts: day0 + DAY + 60 },
      { type: 'user_login', app_id: appA, user_id: 'ghost', ts: day0 + DAY },
      // Registered again: left as it is (no second user, no second count).
      { type: 'user_register', app_id: appA, comp_id: a.compId, user_id: 'Alice', country: 'FR', ts: day0 + 3 * DAY },
    ]);
    expect(out.refused).toEqual([
      { index: 3, reason: 'unknown_company' },
      { index: 6, reason: 'unknown_user' },
    ]);
    expect(out.accepted).toBe(6);
    const all = await list<AppUserRow>('v2/umh/admin/user/list', { app_id: appA });
    expect(all.count).toBe(2);
    // Newest registration first; email and phone masked in the list.
    expect(all.rows.map((r) => r.user_id)).toEqual(['bob', 'alice']);
    const alice = all.rows[1] as AppUserRow;
    expect(alice.email).toBe('al***@example.com');
    expect(alice.phone).toBe('138****5678');
    expect(alice.country).toBe('CN');
    expect(alice.gmt_login).toBe(day0 + DAY + 60);
    const detail = ok(await t.call<AppUserDetail>('v2/umh/admin/user/get', { id: alice.id }, { token: a.token }));
    expect(detail.email).toBe('alice@example.com');
    expect(detail.phone).toBe('13812345678');
  });

  it('a user of an app the platform has takes the app’s company and name; without app or company it is refused', async () => {
    const app = ok(
      await t.call<{ id: number; name: string }>('v2/user/app/add', { name: `Cam ${run}`, comp_id: b.compId }, { token: t.adminToken }),
    );
    const out = await ingestOk([
      // The event's company is not the app's: the app's wins.
      { type: 'user_register', app_id: app.id, comp_id: a.compId, user_id: 'frida', country: 'DE', ts: day0 + 50 },
      { type: 'user_register', app_id: app.id, user_id: 'gus', ts: day0 + 60 },
      { type: 'user_register', app_id: 999_999, user_id: 'nobody' },
    ]);
    expect(out.refused).toEqual([{ index: 2, reason: 'unknown_app' }]);
    const rows = (await list<AppUserRow>('v2/umh/admin/user/list', { app_id: app.id })).rows;
    expect(rows.map((r) => [r.user_id, r.comp_id, r.app_name])).toEqual([
      ['gus', b.compId, `Cam ${run}`],
      ['frida', b.compId, `Cam ${run}`],
    ]);
    // Company A's administrator does not see them.
    expect((await list<AppUserRow>('v2/umh/admin/user/list', { app_id: app.id }, a.token)).count).toBe(0);
    await sql`delete from umh_user where app_id = ${app.id}`.execute(dbOf(t));
    await sql`delete from app_user_daily where app_id = ${app.id}`.execute(dbOf(t));
    await sql`delete from app_user_country where app_id = ${app.id}`.execute(dbOf(t));
  });

  it('filters: app, country, registration range, user id and email contain', async () => {
    const ids = async (f: Record<string, unknown>) =>
      (await list<AppUserRow>('v2/umh/admin/user/list', f)).rows.map((r) => r.user_id).sort();
    expect(await ids({ app_id: appB })).toEqual(['carol']);
    expect(await ids({ country: 'us', app_id: appA })).toEqual(['bob']);
    expect(await ids({ app_id: appA, gmt_start: day0 + DAY, gmt_end: day0 + 2 * DAY })).toEqual(['bob']);
    expect(await ids({ app_id: appA, user_id: 'LIC' })).toEqual(['alice']);
    expect(await ids({ app_id: appA, email: '.org' })).toEqual(['bob']);
    // `%` matches itself.
    expect(await ids({ app_id: appA, email: '%' })).toEqual([]);
  });

  it('a company admin sees its own apps’ users only; a foreign company or user is not found (406)', async () => {
    const mine = await list<AppUserRow>('v2/umh/admin/user/list', {}, a.token);
    expect(mine.rows.every((r) => r.comp_id === a.compId)).toBe(true);
    expect(mine.count).toBe(2);
    const foreign = await t.call('v2/umh/admin/user/list', { comp_id: b.compId }, { token: a.token });
    fails(foreign, 406);
    expect((foreign.data as { fields: Record<string, string> }).fields).toEqual({ comp_id: 'not_found' });
    const carol = (await list<AppUserRow>('v2/umh/admin/user/list', { app_id: appB })).rows[0] as AppUserRow;
    fails(await t.call('v2/umh/admin/user/get', { id: carol.id }, { token: a.token }), 406);
  });
});

describe('bindings and shares', () => {
  it('bind, share, unshare, unbind in batch order; only the owner shares; unknown devices are reported', async () => {
    await ingestOk([{ type: 'user_register', app_id: appA, comp_id: a.compId, user_id: 'dave', ts: day0 + 4 * DAY }]);
    const out = await ingestOk([
      { type: 'bind', uid: 'ad-1', app_id: appA, user_id: 'alice', ts: day0 + 5 * DAY },
      { type: 'share', uid: 'AD-1', app_id: appA, user_id: 'alice', to_user_id: 'bob', ts: day0 + 5 * DAY + 1 },
      { type: 'share', uid: 'AD-1', app_id: appA, user_id: 'alice', to_user_id: 'dave', ts: day0 + 5 * DAY + 2 },
      { type: 'share', uid: 'AD-1', app_id: appA, user_id: 'bob', to_user_id: 'dave', ts: day0 + 5 * DAY + 3 },
      { type: 'share', uid: 'AD-1', app_id: appA, user_id: 'alice', to_user_id: 'ghost', ts: day0 + 5 * DAY + 3 },
      { type: 'unshare', uid: 'AD-1', app_id: appA, user_id: 'alice', to_user_id: 'dave', ts: day0 + 5 * DAY + 4 },
      { type: 'bind', uid: 'NO-SUCH', app_id: appA, user_id: 'alice' },
      { type: 'bind', uid: 'AD-2', app_id: appA, user_id: 'bob', ts: day0 + 5 * DAY + 5 },
      { type: 'bind', uid: 'BD-1', app_id: appB, user_id: 'carol', ts: day0 + 5 * DAY + 6 },
      { type: 'unbind', uid: 'AD-2', app_id: appA, user_id: 'alice' },
    ]);
    expect(out.unknown).toEqual([{ index: 6, uid: 'NO-SUCH' }]);
    expect(out.refused).toEqual([
      { index: 3, reason: 'not_owner' },
      { index: 4, reason: 'unknown_user' },
      { index: 9, reason: 'not_owner' },
    ]);
    const rows = (await list<DevBindRow>('v2/umh/admin/devbind/list', { app_id: appA })).rows;
    expect(rows.map((r) => [r.uid, r.user_id, r.role, r.owner_user_id])).toEqual([
      ['AD-2', 'bob', 1, 'bob'],
      ['AD-1', 'bob', 2, 'alice'],
      ['AD-1', 'alice', 1, 'alice'],
    ]);
    // Filters: device, user (owner or member), role.
    expect((await list<DevBindRow>('v2/umh/admin/devbind/list', { uid: 'ad-1' })).count).toBe(2);
    expect((await list<DevBindRow>('v2/umh/admin/devbind/list', { role: 2 })).rows.map((r) => r.user_id)).toEqual(['bob']);
    expect((await list<DevBindRow>('v2/umh/admin/devbind/list', { user_id: 'bob', app_id: appA })).count).toBe(2);
    const alice = (await list<AppUserRow>('v2/umh/admin/user/list', { app_id: appA, user_id: 'alice' })).rows[0] as AppUserRow;
    const detail = ok(await t.call<AppUserDetail>('v2/umh/admin/user/get', { id: alice.id }, { token: t.adminToken }));
    expect([detail.owned, detail.shared]).toEqual([1, 0]);
    // Scope: company A sees its devices' bindings only; B's company is not found.
    const mine = await list<DevBindRow>('v2/umh/admin/devbind/list', {}, a.token);
    expect(mine.rows.every((r) => r.comp_id === a.compId)).toBe(true);
    expect(mine.count).toBe(3);
    fails(await t.call('v2/umh/admin/devbind/list', { comp_id: b.compId }, { token: a.token }), 406);

    // A new owner takes the device: the old owner's binding and shares go; then the owner lets go.
    await ingestOk([{ type: 'bind', uid: 'AD-1', app_id: appA, user_id: 'dave', ts: day0 + 6 * DAY }]);
    expect((await list<DevBindRow>('v2/umh/admin/devbind/list', { uid: 'AD-1' })).rows.map((r) => r.user_id)).toEqual(['dave']);
    await ingestOk([{ type: 'unbind', uid: 'AD-1', app_id: appA, user_id: 'dave' }]);
    expect((await list<DevBindRow>('v2/umh/admin/devbind/list', { uid: 'AD-1' })).count).toBe(0);
  });
});

describe('alarms and logs', () => {
  it('alarms are recorded with the device’s company and product, handed to the alarm hooks, and listed', async () => {
    const seen: number[] = [];
    const off = registerAlarmHook(async (conn, alarm) => {
      // Inside the alarm's transaction: the row is there.
      const row = await conn.selectFrom('alarm_log').select('id').where('id', '=', alarm.id).executeTakeFirst();
      if (row) seen.push(alarm.alarm_type);
    });
    try {
      const out = await ingestOk([
        { type: 'alarm', uid: 'AD-1', alarm_type: 1, text: 'motion', ts: day0 + 100 },
        { type: 'alarm', uid: 'ad-2', alarm_type: 3, ts: day0 + DAY + 100 },
        { type: 'alarm', uid: 'BD-1', alarm_type: 7, text: 'low battery', ts: day0 + 2 * DAY + 100 },
        { type: 'alarm', uid: 'GONE', alarm_type: 2 },
      ]);
      expect(out.unknown).toEqual([{ index: 3, uid: 'GONE' }]);
    } finally {
      off();
    }
    expect(seen).toEqual([1, 3, 7]);
    const all = await list<AlarmLogRow>('v2/umh/admin/alarmlog/list', {});
    expect(all.count).toBe(3);
    expect(all.rows.map((r) => [r.uid, r.alarm_type, r.text])).toEqual([
      ['BD-1', 7, 'low battery'],
      ['AD-2', 3, ''],
      ['AD-1', 1, 'motion'],
    ]);
    expect(all.rows[2]?.comp_id).toBe(a.compId);
    expect(all.rows[2]?.pk).toMatch(/^pk/);
    const count = async (f: Record<string, unknown>, token?: string) =>
      (await list<AlarmLogRow>('v2/umh/admin/alarmlog/list', f, token)).count;
    expect(await count({ uid: 'ad-1' })).toBe(1);
    expect(await count({ alarm_type: 3 })).toBe(1);
    expect(await count({ gmt_start: day0 + DAY, gmt_end: day0 + 2 * DAY })).toBe(1);
    // Partial days at both ends: counted row by row.
    expect(await count({ gmt_start: day0 + 50, gmt_end: day0 + DAY + 101 })).toBe(2);
    expect(await count({ gmt_start: day0 + 101, gmt_end: day0 + DAY + 100 })).toBe(0);
    expect(await count({ comp_id: b.compId })).toBe(1);
    expect(await count({ uid: 'nothing-like-it' })).toBe(0);
    // Company scope.
    expect(await count({}, a.token)).toBe(2);
    expect(await count({ uid: 'BD-1' }, a.token)).toBe(0);
    expect(await count({ alarm_type: 7 }, a.token)).toBe(0);
    fails(await t.call('v2/umh/admin/alarmlog/list', { comp_id: b.compId }, { token: a.token }), 406);
  });

  it('device logs are scoped like the devices; service logs are platform rows (super administrator only)', async () => {
    const out = await ingestOk([
      { type: 'device_log', uid: 'AD-1', level: 2, text: 'boot ok', ts: day0 + 10 },
      { type: 'device_log', uid: 'BD-1', level: 4, text: 'sensor failure', ts: day0 + 20 },
      { type: 'service_log', service_id: 17, level: 3, text: 'queue slow', node: 'umh-1', ts: day0 + 30 },
      { type: 'service_log', service_id: 34, level: 2, text: 'started', ts: day0 + 40 },
    ]);
    expect(out.accepted).toBe(4);
    const dev = await list<DeviceLogRow>('v2/iot/admin/log/list', {});
    expect(dev.rows.map((r) => [r.uid, r.level, r.text])).toEqual([
      ['BD-1', 4, 'sensor failure'],
      ['AD-1', 2, 'boot ok'],
    ]);
    expect((await list<DeviceLogRow>('v2/iot/admin/log/list', { level: 4 })).count).toBe(1);
    expect((await list<DeviceLogRow>('v2/iot/admin/log/list', {}, a.token)).rows.map((r) => r.uid)).toEqual(['AD-1']);
    fails(await t.call('v2/iot/admin/log/list', { comp_id: b.compId }, { token: a.token }), 406);
    const srv = await list<ServiceLogRow>('v2/kls/admin/log/list', {});
    expect(srv.rows.map((r) => [r.service_id, r.level, r.node, r.text])).toEqual([
      [34, 2, '', 'started'],
      [17, 3, 'umh-1', 'queue slow'],
    ]);
    expect((await list<ServiceLogRow>('v2/kls/admin/log/list', { service_id: 17 })).count).toBe(1);
    expect(await list<ServiceLogRow>('v2/kls/admin/log/list', {}, a.token)).toEqual({ rows: [], count: 0 });
  });

  it('bad events are refused whole with a field code, and nothing of the batch is stored', async () => {
    const before = await list<AlarmLogRow>('v2/umh/admin/alarmlog/list', {});
    const bad = [
      [{ type: 'alarm', uid: 'AD-1', alarm_type: 8 }, 'events.1.alarm_type'],
      [{ type: 'device_log', uid: 'AD-1', level: 2, text: '' }, 'events.1.text'],
      [{ type: 'service_log', service_id: 3, level: 2, text: 'x' }, 'events.1.service_id'],
      [{ type: 'user_register', app_id: appA, comp_id: -3, user_id: 'x' }, 'events.1.comp_id'],
      [{ type: 'share', uid: 'AD-1', app_id: appA, user_id: 'alice' }, 'events.1.to_user_id'],
      [{ type: 'explode', uid: 'AD-1' }, 'events.1.type'],
    ] as const;
    for (const [event, field] of bad) {
      const r = await ingest([{ type: 'alarm', uid: 'AD-1', alarm_type: 1 }, event]);
      expect(r.code, JSON.stringify(event)).toBe(406);
      expect(Object.keys(r.data.fields ?? {}), JSON.stringify(event)).toContain(field);
    }
    expect((await ingest([{ type: 'alarm', uid: 'AD-1', alarm_type: 1 }], 'wrong-key')).code).toBe(401);
    expect((await list<AlarmLogRow>('v2/umh/admin/alarmlog/list', {})).count).toBe(before.count);
    // The lists refuse bad filters too.
    fails(await t.call('v2/umh/admin/alarmlog/list', { alarm_type: 9 }, { token: t.adminToken }), 406);
    fails(await t.call('v2/iot/admin/log/list', { order: 'asc' }, { token: t.adminToken }), 406);
    fails(await t.call('v2/umh/admin/user/list', { gmt_start: -1 }, { token: t.adminToken }), 406);
  });
});

describe('mixed batches', () => {
  it('device state and app events in one batch are answered at their positions in the batch', async () => {
    const out = await ingestOk([
      { type: 'alarm', uid: 'NOPE-1', alarm_type: 2 },
      { type: 'online', uid: 'AD-2' },
      { type: 'heartbeat', uid: 'NOPE-2' },
      { type: 'user_login', app_id: appA, user_id: 'nobody-here' },
      { type: 'device_log', uid: 'AD-2', level: 1, text: 'mixed' },
    ]);
    expect(out.unknown).toEqual([
      { index: 0, uid: 'NOPE-1' },
      { index: 2, uid: 'NOPE-2' },
    ]);
    expect(out.refused).toEqual([{ index: 3, reason: 'unknown_user' }]);
    expect(out.accepted).toBe(2);
    await sql`delete from device_log where text = 'mixed'`.execute(dbOf(t));
  });
});

describe('deep pages', () => {
  it('every page and its count equal plain SQL, by offset and by keyset, with and without filters', async () => {
    const db = dbOf(t);
    // 3,600 alarms over 9 days for both companies' devices (written in one statement: the triggers count them).
    await sql`
      insert into alarm_log (device_id, uid, pk, comp_id, alarm_type, text, ts)
      select d.id, d.uid, d.pk, d.comp_id, 1 + (g % 7), 'bulk', ${day0 - 20 * DAY}::bigint + (g * 217) % (9 * 86400)
      from generate_series(1, 3600) g
      join device d on d.uid = (array['AD-1', 'AD-2', 'BD-1'])[1 + g % 3]`.execute(db);
    const truth = async (where: ReturnType<typeof sql>, offset: number, limit: number) => {
      const r = await sql<{
        id: string | number;
      }>`select id from alarm_log where ${where} order by ts desc, id desc offset ${offset} limit ${limit}`.execute(db);
      const n = await sql<{ n: number }>`select count(*)::int as n from alarm_log where ${where}`.execute(db);
      return { ids: r.rows.map((x) => Number(x.id)), count: Number(n.rows[0]?.n) };
    };
    const cases: [Record<string, unknown>, ReturnType<typeof sql>, string][] = [
      [{}, sql`true`, 'admin'],
      [{ alarm_type: 4 }, sql`alarm_type = 4`, 'admin'],
      [
        { gmt_start: day0 - 17 * DAY + 3000, gmt_end: day0 - 13 * DAY - 500 },
        sql`ts >= ${day0 - 17 * DAY + 3000} and ts < ${day0 - 13 * DAY - 500}`,
        'admin',
      ],
      [{ comp_id: a.compId, alarm_type: 2 }, sql`comp_id = ${a.compId} and alarm_type = 2`, 'admin'],
      [{}, sql`comp_id = ${a.compId}`, 'a'],
      [{ uid: 'AD-2' }, sql`uid = 'AD-2'`, 'a'],
    ];
    for (const [filter, where, who] of cases) {
      const token = who === 'a' ? a.token : t.adminToken;
      for (const [pageNo, pageSize] of [
        [1, 10],
        [101, 10],
        [3, 500],
        [121, 20],
      ] as const) {
        const got = await list<AlarmLogRow>('v2/umh/admin/alarmlog/list', { ...filter, page_no: pageNo, page_size: pageSize }, token);
        const want = await truth(where, (pageNo - 1) * pageSize, pageSize);
        expect(got.count, JSON.stringify({ filter, pageNo })).toBe(want.count);
        expect(
          got.rows.map((r) => r.id),
          JSON.stringify({ filter, pageNo }),
        ).toEqual(want.ids);
      }
      // Keyset: after the last row of a deep page come the next page's rows.
      const page = await list<AlarmLogRow>('v2/umh/admin/alarmlog/list', { ...filter, page_no: 60, page_size: 20 }, token);
      const last = page.rows.at(-1);
      if (last) {
        const next = await list<AlarmLogRow>(
          'v2/umh/admin/alarmlog/list',
          { ...filter, after_ts: last.ts, after_id: last.id, page_size: 20 },
          token,
        );
        expect(next.rows.map((r) => r.id)).toEqual((await truth(where, 60 * 20, 20)).ids);
      }
    }
    // Deleted rows leave the counters (retention): the count stays exact.
    await sql`delete from alarm_log where text = 'bulk' and alarm_type = 5`.execute(db);
    const after = await list<AlarmLogRow>('v2/umh/admin/alarmlog/list', { page_no: 150, page_size: 10 });
    const want = await truth(sql`true`, 1490, 10);
    expect(after.count).toBe(want.count);
    expect(after.rows.map((r) => r.id)).toEqual(want.ids);
  });
});

describe('device log export', () => {
  it('exports the matching lines as xlsx in scope; more than three months is refused (406 range:3_months)', async () => {
    const tooLong = await t.call('v2/iot/admin/log/export/add', { gmt_start: day0 - 100 * DAY, gmt_end: day0 }, { token: a.token });
    fails(tooLong, 406);
    expect((tooLong.data as { fields: Record<string, string> }).fields).toEqual({ gmt_end: 'range:3_months' });
    fails(await t.call('v2/iot/admin/log/export/add', { gmt_start: day0, gmt_end: day0 }, { token: a.token }), 406);
    fails(
      await t.call('v2/iot/admin/log/export/add', { gmt_start: day0, gmt_end: day0 + DAY, comp_id: b.compId }, { token: a.token }),
      406,
    );
    const none = (await list<JobRowLite>('v2/iot/admin/log/export/list', {}, a.token)).count;
    expect(none).toBe(0);

    const job = ok(
      await t.call<JobRowLite>('v2/iot/admin/log/export/add', { gmt_start: day0 - DAY, gmt_end: day0 + DAY }, { token: a.token }),
    );
    const done = await waitJob(t, a.token, 'v2/iot/admin/log/export/list', job.id, [ExportState.SUCCESS, ExportState.FAILURE]);
    expect(done.state).toBe(ExportState.SUCCESS);
    expect(done.ok_count).toBe(1);
    const res = await download(t, done);
    expect(res.status).toBe(200);
    const rows = await readXlsx(await res.arrayBuffer());
    expect(rows[0]).toEqual(['ID', 'Time (UTC)', 'UID', 'Company', 'Level', 'Text']);
    expect(rows.slice(1).map((r) => [r[2], r[4], r[5]])).toEqual([['AD-1', 'info', 'boot ok']]);
    // Another company's admin does not see the job.
    expect((await list<JobRowLite>('v2/iot/admin/log/export/list', {}, b.token)).count).toBe(0);
  });
});

describe('app-user statistics', () => {
  it('new and active users per day, per app and top countries come from the rollups', async () => {
    const stats = ok(
      await t.call<AppStatsOutput>(
        'v2/umh/admin/user/statistics/get',
        { gmt_start: day0, gmt_end: day0 + 3 * DAY, app_id: appA },
        { token: t.adminToken },
      ),
    );
    expect(stats.series).toEqual([
      { day: new Date(day0 * 1000).toISOString().slice(0, 10), new_users: 1, active_users: 1 },
      // bob registered, alice signed in twice (counted once).
      { day: new Date((day0 + DAY) * 1000).toISOString().slice(0, 10), new_users: 1, active_users: 2 },
      { day: new Date((day0 + 2 * DAY) * 1000).toISOString().slice(0, 10), new_users: 0, active_users: 0 },
    ]);
    expect(stats.totals).toEqual({ new_users: 2, active_avg: 1, active_peak: 2, users: 3 });
    expect(stats.apps).toEqual([
      { app_id: appA, app_name: null, comp_id: a.compId, comp_name: `App A ${run}`, new_users: 2, active_users: 1, users: 3 },
    ]);
    expect(stats.countries).toEqual([
      { country: 'CN', users: 1 },
      { country: 'US', users: 1 },
    ]);
    // The rollups agree with the rows they summarise.
    const db = dbOf(t);
    const rows = await sql<{ n: number }>`select count(*)::int as n from umh_user where app_id = ${appA}`.execute(db);
    expect(stats.totals.users).toBe(Number(rows.rows[0]?.n));
    // Scope: A's admin sees its app only; B's company is not found.
    const mine = ok(
      await t.call<AppStatsOutput>('v2/umh/admin/user/statistics/get', { gmt_start: day0, gmt_end: day0 + 3 * DAY }, { token: a.token }),
    );
    expect(mine.apps.map((x) => x.app_id)).toEqual([appA]);
    expect(mine.countries.map((c) => c.country).sort()).toEqual(['CN', 'US']);
    fails(
      await t.call('v2/umh/admin/user/statistics/get', { gmt_start: day0, gmt_end: day0 + DAY, comp_id: b.compId }, { token: a.token }),
      406,
    );
    fails(await t.call('v2/umh/admin/user/statistics/get', { gmt_start: day0, gmt_end: day0 + 400 * DAY }, { token: t.adminToken }), 406);
    // The xlsx of the same question.
    const res = await t.raw(
      `/api/v2/umh/admin/user/statistics.xlsx?gmt_start=${day0}&gmt_end=${day0 + 3 * DAY}&app_id=${appA}&ticket=${encodeURIComponent(stats.download_ticket)}`,
      {},
    );
    expect(res.status).toBe(200);
    const sheet = await readXlsx(await res.arrayBuffer());
    expect(sheet).toContainEqual(['New users', 2]);
  });

  it('the dashboard ranks apps by daily active users of the last 30 days', async () => {
    const today = Math.floor(nowSeconds() / DAY) * DAY;
    await ingestOk([
      { type: 'user_register', app_id: appB, comp_id: b.compId, user_id: 'erin', ts: today + 1 },
      { type: 'user_register', app_id: appB, comp_id: b.compId, user_id: 'frank', ts: today + 1 },
      { type: 'user_register', app_id: appB, comp_id: b.compId, user_id: 'gina', ts: today + 1 },
      { type: 'user_login', app_id: appB, user_id: 'carol', ts: today + 2 },
      { type: 'user_login', app_id: appB, user_id: 'carol', ts: today - DAY },
    ]);
    const top = await list<{ app_id: number; active_users: number; users: number }>('v2/user/data/app/list', {});
    expect(top.rows[0]?.app_id).toBe(appB);
    // App B: carol active on three days, erin, frank and gina once (6 user-days); app A: 4 user-days.
    expect(top.rows.map((r) => r.app_id)).toEqual([appB, appA]);
    expect(top.rows[0]?.users).toBe(4);
    const mine = await list<{ app_id: number }>('v2/user/data/app/list', {}, a.token);
    expect(mine.rows.map((r) => r.app_id)).toEqual([appA]);
  });
});
