import crypto from 'node:crypto';
import type { IngestOutput, OtaEventResult, OtaUpgradeRow, ProductVersionRow } from '@iot/contract';
import { connectAsync } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompanyAdmin, startTestServer, type TestServer } from './harness.js';
import { dbOf, fails, ok } from './helpers.js';

/**
 * Product firmware (OTA, issue 8): version CRUD with its validation and company scope; the
 * rollout through ingestion events (offers within the limit under concurrency, the range, delisted
 * versions, progress and results in the counts); the upgrade list of a version and of a device.
 */
const KEY = 'ota-ingest-key';
const run = crypto.randomBytes(3).toString('hex').toUpperCase();
const MQTT_URL = process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';
const mqttTopic = `iot-ota-${run}/+/events`;
const MENUS = ['product/iot', 'product/device', 'operate/device'];

let t: TestServer;
/** A and its child A1 own products; B is A's sibling. */
let a: { compId: number; token: string };
let a1: { compId: number; token: string };
let b: { compId: number; token: string };
let pkA = '';
let pkB = '';
let pkShared = '';

const addProduct = async (token: string, compId: number, name: string) =>
  ok(await t.call<{ id: number; pk: string }>('user/product/add', { name: `${name}-${run}`, comp_id: compId }, { token }));
const addDevices = async (token: string, pk: string, compId: number, uids: string[]) => {
  for (const uid of uids) ok(await t.call('v2/iot/web/uid/reg/add', { uid, pk, comp_id: compId }, { token }));
};
const detail = (lang = 'en', extra: object = {}) => ({
  lang,
  url: `https://fw.example.com/${lang}/fw.bin`,
  title: `Title ${lang}`,
  ...extra,
});
const addVersion = (token: string, body: object) => t.call<ProductVersionRow>('v2/ota/admin/product/ver/add', body, { token });
const setVersion = (token: string, body: object) => t.call<ProductVersionRow>('v2/ota/admin/product/ver/set', body, { token });
const listVersions = (token: string, body: object = {}) =>
  t.call<ProductVersionRow[]>('v2/ota/admin/product/ver/list', { page_size: 100, ...body }, { token });
const upgrades = (token: string, body: object) =>
  t.call<OtaUpgradeRow[]>('v2/ota/admin/product/ver/devices', { page_size: 100, ...body }, { token });
const versionCount = async () =>
  Number(
    (
      await dbOf(t)
        .selectFrom('product_version')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const ingestAnswer = (events: unknown[]) =>
  fetch(`${t.url}/api/v2/iot/ingest/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-key': KEY },
    body: JSON.stringify({ events }),
  }).then(async (res) => (await res.json()) as { code: number; data: IngestOutput & { fields?: Record<string, string> } });
const ota = async (events: unknown[]): Promise<OtaEventResult[]> => {
  const answer = await ingestAnswer(events);
  expect(answer.code).toBe(200);
  return answer.data.ota ?? [];
};
const check = async (uid: string, ver_num: number, lang?: string) =>
  (await ota([{ uid, type: 'ota_check', ver_num, ...(lang ? { lang } : {}) }]))[0] as OtaEventResult;
const versionRow = async (id: number) => {
  const row = ok(await listVersions(t.adminToken)).find((v) => v.id === id);
  if (!row) throw new Error(`no version ${id}`);
  return row;
};

beforeAll(async () => {
  t = await startTestServer({ ingestServiceKey: KEY, mqttUrl: MQTT_URL, mqttTopic });
  a = await createCompanyAdmin(t, { name: `Ota A ${run}`, menuKeys: MENUS, userId: `ota-a-${run}` });
  a1 = await createCompanyAdmin(t, { name: `Ota A1 ${run}`, parentId: a.compId, menuKeys: MENUS, userId: `ota-a1-${run}` });
  b = await createCompanyAdmin(t, { name: `Ota B ${run}`, menuKeys: MENUS, userId: `ota-b-${run}` });
  pkA = (await addProduct(a.token, a.compId, 'ota-a')).pk;
  pkB = (await addProduct(b.token, b.compId, 'ota-b')).pk;
  const shared = await addProduct(a.token, a.compId, 'ota-shared');
  pkShared = shared.pk;
  ok(await t.call('v2/umh/admin/product/share/add', { product_id: shared.id, comp_id: b.compId }, { token: t.adminToken }));
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('versions: add, list, set, delete', () => {
  it('adds a version with details per language (an empty size is 0) and lists it with its rollout', async () => {
    const added = ok(
      await addVersion(a.token, {
        pk: pkA,
        ver: '1.0.1',
        ver_num: 101,
        min_ver_num: 100,
        max_ver_num: 100,
        tag: 'beta',
        level: 2,
        details: [detail('en', { size: '' }), detail('zh-CN', { size: 2048, content: '修复' })],
      }),
    );
    expect(added).toMatchObject({
      pk: pkA,
      comp_id: a.compId,
      ver: '1.0.1',
      ver_num: 101,
      min_ver_num: 100,
      max_ver_num: 100,
      tag: 'beta',
      level: 2,
      state: 2,
      limit: 0,
      count: 0,
      rollout: { offered: 0, upgrading: 0, succeeded: 0, failed: 0, superseded: 0 },
    });
    expect(added.details).toEqual([
      { lang: 'en', url: 'https://fw.example.com/en/fw.bin', title: 'Title en', content: '', size: 0 },
      { lang: 'zh-CN', url: 'https://fw.example.com/zh-CN/fw.bin', title: 'Title zh-CN', content: '修复', size: 2048 },
    ]);
    const listed = ok(await listVersions(a.token, { pk: pkA }));
    expect(listed.map((v) => v.id)).toContain(added.id);
    // set: only the fields sent change; count is not the console's to set.
    const set = ok(await setVersion(a.token, { id: added.id, state: 1, limit: 5, count: 99 }));
    expect(set).toMatchObject({ state: 1, limit: 5, count: 0, ver: '1.0.1', tag: 'beta', details: added.details });
    const deleted = ok(await t.call<{ deleted: number }>('v2/ota/admin/product/ver/del', { id: added.id }, { token: a.token }));
    expect(deleted.deleted).toBe(1);
    expect(ok(await listVersions(a.token, { pk: pkA })).map((v) => v.id)).not.toContain(added.id);
  });

  it('refuses bad versions with the field and its rule, storing nothing', async () => {
    const base = { pk: pkA, ver: '2.0.0', ver_num: 200, details: [detail()] };
    const before = await versionCount();
    const cases: [object, Record<string, string>][] = [
      [{ ver: '2.0.0.0.0.0' }, { ver: 'format:version' }],
      [{ ver: 'latest' }, { ver: 'format:version' }],
      [{ ver_num: 'abc' }, { ver_num: 'type:number' }],
      [{ ver_num: 0 }, { ver_num: 'too_small:1' }],
      [{ min_ver_num: 200 }, { min_ver_num: 'too_big:199' }],
      [{ min_ver_num: 50, max_ver_num: 40 }, { max_ver_num: 'too_small:50' }],
      [{ limit: -1 }, { limit: 'too_small:0' }],
      [{ state: 3 }, { state: 'one_of:1,2' }],
      [{ level: 9 }, { level: 'one_of:1,2,3' }],
      [{ details: [] }, { details: 'too_small:1' }],
      [{ details: [detail('zh-CN'), detail('zh-cn')] }, { 'details.1.lang': 'format:duplicate' }],
      [{ details: [detail('en', { url: 'ftp://x/fw.bin' })] }, { 'details.0.url': 'format:url' }],
      [{ details: [detail('english!')] }, { 'details.0.lang': 'format:lang' }],
      [{ details: [detail('en', { size: -5 })] }, { 'details.0.size': 'too_small:0' }],
    ];
    for (const [change, fields] of cases) {
      const answer = await addVersion(a.token, { ...base, ...change });
      fails(answer, 406);
      expect(answer.data, JSON.stringify(change)).toMatchObject({ fields });
    }
    fails(await addVersion(a.token, { ...base, pk: undefined }), 406);
    expect(await versionCount()).toBe(before);
  });

  it('refuses a second version with the same number or version text (409), and a set breaking the stored range', async () => {
    const v = ok(await addVersion(a.token, { pk: pkA, ver: '3.0.0', ver_num: 300, min_ver_num: 10, details: [detail()] }));
    const dupNum = await addVersion(a.token, { pk: pkA, ver: '3.0.1', ver_num: 300, details: [detail()] });
    fails(dupNum, 409);
    expect(dupNum.data).toMatchObject({ fields: { ver_num: 'exists' } });
    fails(await addVersion(a.token, { pk: pkA, ver: '3.0.0', ver_num: 301, details: [detail()] }), 409);
    // Another company learns nothing of the versions: the same number on a product it does not own is "no such product".
    const foreign = await addVersion(b.token, { pk: pkA, ver: '3.0.1', ver_num: 300, details: [detail()] });
    fails(foreign, 406);
    expect(foreign.data).toMatchObject({ fields: { pk: 'not_found' } });
    // Another product may use the same numbers.
    ok(await addVersion(a.token, { pk: pkShared, ver: '3.0.0', ver_num: 300, details: [detail()] }));
    // The range holds on what the version becomes: min 10 stored, max 5 sent.
    const broken = await setVersion(a.token, { id: v.id, max_ver_num: 5 });
    fails(broken, 406);
    expect(broken.data).toMatchObject({ fields: { max_ver_num: 'too_small:10' } });
    const below = await setVersion(a.token, { id: v.id, ver_num: 10 });
    fails(below, 406);
    expect(below.data).toMatchObject({ fields: { min_ver_num: 'too_big:9' } });
    expect(await versionRow(v.id)).toMatchObject({ ver_num: 300, min_ver_num: 10, max_ver_num: 0 });
  });

  it("keeps each company to its own products' versions", async () => {
    const mine = ok(await addVersion(a.token, { pk: pkA, ver: '4.0.0', ver_num: 400, details: [detail()] }));
    // B sees none of A's, and cannot add, change or delete them.
    expect(ok(await listVersions(b.token)).map((v) => v.pk)).not.toContain(pkA);
    const foreignAdd = await addVersion(b.token, { pk: pkA, ver: '4.0.1', ver_num: 401, details: [detail()] });
    fails(foreignAdd, 406);
    expect(foreignAdd.data).toMatchObject({ fields: { pk: 'not_found' } });
    fails(await setVersion(b.token, { id: mine.id, state: 1 }), 406);
    fails(await t.call('v2/ota/admin/product/ver/del', { ids: [mine.id] }, { token: b.token }), 406);
    // A product shared with B is read-only there: no firmware of B's on it, none of A's shown.
    fails(await addVersion(b.token, { pk: pkShared, ver: '9.0.0', ver_num: 900, details: [detail()] }), 513);
    expect(ok(await listVersions(b.token, { pk: pkShared }))).toHaveLength(0);
    // A's child company does not see its parent's products; A sees its child's.
    expect(ok(await listVersions(a1.token, { pk: pkA }))).toHaveLength(0);
    const pkA1 = (await addProduct(a1.token, a1.compId, 'ota-a1')).pk;
    const childs = ok(await addVersion(a1.token, { pk: pkA1, ver: '1.0', ver_num: 1, min_ver_num: 0, details: [detail()] }));
    expect(ok(await listVersions(a.token, { pk: pkA1 })).map((v) => v.id)).toEqual([childs.id]);
    expect((await versionRow(mine.id)).state).toBe(2);
    // The operator sees everything.
    expect(ok(await listVersions(t.adminToken, { pk: pkB }))).toHaveLength(0);
    expect(ok(await listVersions(t.adminToken, { pk: pkA })).length).toBeGreaterThan(0);
  });

  it('refuses callers without the menu', async () => {
    const c = await createCompanyAdmin(t, { name: `Ota C ${run}`, menuKeys: ['product/device'], userId: `ota-c-${run}` });
    fails(await listVersions(c.token), 513);
    fails(await addVersion(c.token, { pk: pkA, ver: '1.0', ver_num: 1, details: [detail()] }), 513);
    fails(await upgrades(c.token, {}), 513);
  });
});

describe('rollout through ingestion', () => {
  let pk = '';
  const uids = Array.from({ length: 50 }, (_, i) => `OTA-${run}-${String(i).padStart(2, '0')}`);
  let v10: ProductVersionRow;

  beforeAll(async () => {
    pk = (await addProduct(a.token, a.compId, 'ota-rollout')).pk;
    await addDevices(a.token, pk, a.compId, uids);
    await addDevices(a.token, pk, a1.compId, [`OTA-${run}-CHILD`]);
    v10 = ok(
      await addVersion(a.token, {
        pk,
        ver: '2.1.0',
        ver_num: 210,
        min_ver_num: 100,
        max_ver_num: 209,
        limit: 10,
        state: 1,
        details: [detail('en'), detail('zh-CN', { title: '新固件', size: 1234 })],
      }),
    );
  }, 60_000);

  it('offers a version with limit 10 to exactly 10 of 50 devices asking at once', async () => {
    const answers = await Promise.all(
      uids.map((uid) => ingestAnswer([{ uid, type: 'ota_check', ver_num: 150, lang: 'zh-CN' }]).then((r) => r.data.ota?.[0])),
    );
    const offered = answers.filter((r): r is OtaEventResult => r?.result === 'offered');
    expect(offered).toHaveLength(10);
    expect(answers.filter((r) => r?.result === 'none')).toHaveLength(40);
    expect(offered[0]?.offer).toMatchObject({ version_id: v10.id, ver: '2.1.0', ver_num: 210, lang: 'zh-CN', title: '新固件', size: 1234 });
    const row = await versionRow(v10.id);
    expect(row.count).toBe(10);
    expect(row.rollout).toMatchObject({ offered: 10, upgrading: 0 });
    expect(ok(await upgrades(a.token, { version_id: v10.id }))).toHaveLength(10);
    // A device offered it before gets the same offer again, not counted twice; the others still none.
    const again = offered[0] as OtaEventResult;
    expect(await check(again.uid, 150)).toMatchObject({ result: 'offered', offer: { version_id: v10.id, lang: 'en' } });
    const refusedUid = uids.find((u) => !offered.some((o) => o.uid === u)) as string;
    expect((await check(refusedUid, 150)).result).toBe('none');
    expect((await versionRow(v10.id)).count).toBe(10);
  });

  it('counts a device asking many times at once once', async () => {
    const solo = await addProduct(a.token, a.compId, 'ota-solo');
    const uid = `OTA-${run}-SOLO`;
    await addDevices(a.token, solo.pk, a.compId, [uid]);
    const v = ok(await addVersion(a.token, { pk: solo.pk, ver: '1.1', ver_num: 11, limit: 3, state: 1, details: [detail()] }));
    const answers = await Promise.all(Array.from({ length: 10 }, () => check(uid, 10)));
    expect(answers.every((r) => r.offer?.version_id === v.id)).toBe(true);
    expect(await versionRow(v.id)).toMatchObject({ count: 1, rollout: { offered: 1 } });
  });

  it('offers nothing outside the range, to a device already there, or of a delisted version', async () => {
    const free = ok(
      await addVersion(a.token, { pk, ver: '2.0.0', ver_num: 200, min_ver_num: 50, max_ver_num: 99, state: 1, details: [detail()] }),
    );
    const child = `OTA-${run}-CHILD`;
    expect((await check(child, 20)).result).toBe('none'); // below every range
    expect((await check(child, 210)).result).toBe('none'); // already on the newest
    expect((await check(child, 250)).result).toBe('none');
    // Within the free version's range: offered; delisted: not.
    expect(await check(child, 60)).toMatchObject({ result: 'offered', offer: { version_id: free.id } });
    ok(await setVersion(a.token, { id: free.id, state: 2 }));
    expect((await check(child, 60)).result).toBe('none');
    // The device's offer was withdrawn by that ask.
    expect(ok(await upgrades(a.token, { uid: child }))[0]).toMatchObject({ version_id: free.id, state: 'superseded' });
    expect((await versionRow(free.id)).count).toBe(1);
  });

  it('falls back to an older released version with room when the newest is full', async () => {
    const older = ok(await addVersion(a.token, { pk, ver: '2.0.5', ver_num: 205, min_ver_num: 100, state: 1, details: [detail()] }));
    const full = (await Promise.all(uids.map((uid) => check(uid, 150)))).filter((r) => r.offer?.version_id === v10.id);
    expect(full).toHaveLength(10);
    expect((await versionRow(older.id)).count).toBe(40);
    expect((await versionRow(v10.id)).count).toBe(10);
    // The 40 are on the older one; set it back out of the way.
    ok(await setVersion(a.token, { id: older.id, state: 2 }));
  });

  it('moves progress and results into the counts and the device history', async () => {
    const holders = ok(await upgrades(a.token, { version_id: v10.id, state: 'offered' }));
    expect(holders).toHaveLength(10);
    const [p1, p2, p3, p4] = holders.map((h) => h.uid) as [string, string, string, string];
    const results = await ota([
      { uid: p1, type: 'ota_progress', progress: 30 },
      { uid: p2, type: 'ota_progress', progress: 60 },
      { uid: p3, type: 'ota_progress', progress: 90 },
      { uid: p2, type: 'ota_result', success: 1, ver_num: 210 },
      { uid: p3, type: 'ota_result', success: 0, error: 'checksum mismatch' },
      { uid: p4, type: 'ota_result', success: 1 },
    ]);
    expect(results.map((r) => r.result)).toEqual(['updated', 'updated', 'updated', 'updated', 'updated', 'updated']);
    const row = await versionRow(v10.id);
    expect(row.rollout).toEqual({ offered: 6, upgrading: 1, succeeded: 2, failed: 1, superseded: 0 });
    expect(row.count).toBe(10);
    expect(ok(await upgrades(a.token, { version_id: v10.id, state: 'failed' }))).toMatchObject([
      { uid: p3, state: 'failed', error: 'checksum mismatch', progress: 90, from_ver_num: 150 },
    ]);
    const history = ok(await upgrades(a.token, { uid: p2.toLowerCase() }));
    expect(history[0]).toMatchObject({ uid: p2, version_id: v10.id, ver: '2.1.0', state: 'succeeded', progress: 100 });
    expect(history[0]?.gmt_finish).toBeGreaterThan(0);
    // No upgrade under way: nothing to update.
    expect((await ota([{ uid: p2, type: 'ota_progress', progress: 10 }]))[0]?.result).toBe('no_upgrade');
    // The failed device asks again: the same version, still counted once.
    expect((await check(p3, 150)).offer?.version_id).toBe(v10.id);
    expect(await versionRow(v10.id)).toMatchObject({ count: 10, rollout: { failed: 0, offered: 7 } });
    // A device reporting the version's number has finished it (its result was lost).
    await check(p1, 210);
    expect((await versionRow(v10.id)).rollout).toMatchObject({ upgrading: 0, succeeded: 3 });
    // The events are in the device's state history too.
    const events = ok(
      await t.call<{ type: string; detail: Record<string, unknown> }[]>('v2/iot/web/uid/state/history', { uid: p3 }, { token: a.token }),
    );
    expect(events.find((e) => e.type === 'ota_result')?.detail).toMatchObject({ success: 0, error: 'checksum mismatch' });
  });

  it('refuses OTA events without the field they are about (the batch, as any malformed event)', async () => {
    const answer = await ingestAnswer([
      { uid: uids[0], type: 'heartbeat' },
      { uid: uids[0], type: 'ota_check' },
    ]);
    expect(answer.code).toBe(406);
    expect(answer.data.fields).toMatchObject({ 'events.1.ver_num': 'required' });
    expect((await ingestAnswer([{ uid: uids[0], type: 'ota_progress', progress: 101 }])).code).toBe(406);
    expect((await ingestAnswer([{ uid: uids[0], type: 'ota_result' }])).data.fields).toMatchObject({ 'events.0.success': 'required' });
    // An unknown device is reported as unknown, not offered anything.
    const unknown = await ingestAnswer([{ uid: `NOPE-${run}`, type: 'ota_check', ver_num: 1 }]);
    expect(unknown.data.unknown).toHaveLength(1);
    expect(unknown.data.ota).toBeUndefined();
  });

  it('lists upgrades to whom they belong: the firmware owner and the device owner', async () => {
    // B sees none of A's rollout.
    expect(ok(await upgrades(b.token, { version_id: v10.id }))).toHaveLength(0);
    // A1's device took A's (its parent's) firmware: A1 sees its device's history, not the others'.
    const child = ok(await upgrades(a1.token, {}));
    expect(child.length).toBeGreaterThan(0);
    expect(new Set(child.map((r) => r.uid))).toEqual(new Set([`OTA-${run}-CHILD`]));
    const all = await upgrades(a.token, { pk, page_size: 5 });
    expect(ok(all)).toHaveLength(5);
    expect(all.count).toBeGreaterThan(50);
    fails(await upgrades(a.token, { state: 'lost' }), 406);
  });

  it('answers a device on MQTT on its own ota topic', async () => {
    const uid = `OTA-${run}-MQTT`;
    await addDevices(a.token, pk, a.compId, [uid]);
    const client = await connectAsync(MQTT_URL);
    try {
      const heard = new Promise<Record<string, unknown>>((resolve) =>
        client.on('message', (topic, payload) => {
          if (topic === `iot-ota-${run}/${uid}/ota`) resolve(JSON.parse(payload.toString()) as Record<string, unknown>);
        }),
      );
      await client.subscribeAsync(`iot-ota-${run}/${uid}/ota`, { qos: 1 });
      await new Promise((r) => setTimeout(r, 500)); // the server's subscription
      const patch = ok(await addVersion(a.token, { pk, ver: '2.1.5', ver_num: 215, min_ver_num: 210, state: 1, details: [detail()] }));
      await client.publishAsync(`iot-ota-${run}/${uid}/events`, JSON.stringify({ type: 'ota_check', ver_num: 210 }));
      expect(await heard).toMatchObject({ uid, result: 'offered', offer: { version_id: patch.id, ver: '2.1.5', url: detail().url } });
      expect((await versionRow(patch.id)).count).toBe(1);
    } finally {
      await client.endAsync();
    }
  });

  it('deletes only versions never offered (406 in_use: delist instead)', async () => {
    const answer = await t.call('v2/ota/admin/product/ver/del', { id: v10.id }, { token: a.token });
    fails(answer, 406);
    expect(answer.data).toMatchObject({ fields: { id: 'in_use' } });
    expect((await versionRow(v10.id)).count).toBe(10);
  });
});
