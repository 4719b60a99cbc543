import { APP_KEY_PATTERN, compareAppVersions, pickDownloadLanguage } from '@iot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, createCompanyAdmin, startTestServer, type TestServer } from './harness.js';
import { dbOf, fails, ok } from './helpers.js';

/** Apps (applist/app): base and keys, details per client, versions, store urls, resources, config, the public link. */
let t: TestServer;
let other: { compId: number; token: string };
beforeAll(async () => {
  t = await startTestServer();
  other = await createCompanyAdmin(t, { name: 'Other Apps Co', menuKeys: ['applist/app'], userId: 'apps_other' });
});
afterAll(async () => {
  await t?.close();
});

interface AppRow {
  id: number;
  name: string;
  type: number;
  comp_id: number;
  comp_name: string;
  gmt_expire: number;
  package_name_ios: string;
  package_name_android: string;
  app_key_ios: string;
  app_key_android: string;
}
type Row = Record<string, unknown> & { id: number };

const call = <T = Row>(path: string, body: Record<string, unknown>, token = t.adminToken) => t.call<T>(path, body, { token });
const refused = async (answer: Promise<Answer>, code = 406) => {
  const a = await answer;
  fails(a, code);
  return (a.data as { fields?: Record<string, string> } | null)?.fields;
};
const count = async (table: 'app' | 'app_detail' | 'app_version' | 'app_url' | 'app_resource') =>
  Number(
    (
      await dbOf(t)
        .selectFrom(table)
        .select((e) => e.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

let seq = 0;
const addApp = async (fields: Record<string, unknown> = {}, token = t.adminToken) =>
  ok(await call<AppRow>('v2/user/app/add', { name: `App ${++seq}`, ...fields }, token));

describe('apps: base and keys', () => {
  it('adds with both keys in full once, lists and sets them masked, deletes', async () => {
    const row = await addApp({
      name: 'Cam Home',
      type: 2,
      package_name_ios: 'com.example.camhome',
      package_name_android: 'com.example.cam_home',
    });
    expect(row).toMatchObject({ name: 'Cam Home', type: 2, comp_id: 1, gmt_expire: 0, package_name_ios: 'com.example.camhome' });
    expect(row.comp_name).not.toBe('');
    expect(row.app_key_ios).toMatch(APP_KEY_PATTERN);
    expect(row.app_key_android).toMatch(APP_KEY_PATTERN);
    expect(row.app_key_ios).not.toBe(row.app_key_android);

    const listed = await call<AppRow[]>('v2/user/app/list', { name: 'cam home' });
    expect(listed.count).toBe(1);
    expect(listed.data[0]?.app_key_ios).toBe(`******${row.app_key_ios.slice(-4)}`);
    expect(listed.data[0]?.app_key_android).toBe(`******${row.app_key_android.slice(-4)}`);

    const changed = ok(await call<AppRow>('v2/user/app/set', { id: row.id, name: 'Cam Home 2', gmt_expire: 4_102_444_800 }));
    expect(changed).toMatchObject({ name: 'Cam Home 2', type: 2, gmt_expire: 4_102_444_800, package_name_android: 'com.example.cam_home' });
    expect(changed.app_key_ios).toBe(`******${row.app_key_ios.slice(-4)}`);

    // Neither the table nor the audit log nor any later answer holds a key.
    const stored = JSON.stringify(await dbOf(t).selectFrom('app').selectAll().where('id', '=', row.id).execute());
    const audit = JSON.stringify(await dbOf(t).selectFrom('audit_log').select('changes').execute());
    for (const text of [stored, audit, JSON.stringify(listed), JSON.stringify(changed)]) {
      expect(text).not.toContain(row.app_key_ios);
      expect(text).not.toContain(row.app_key_android);
    }
    expect(ok(await call('v2/user/app/del', { id: row.id }))).toEqual({ deleted: 1 });
    expect((await call<AppRow[]>('v2/user/app/list', { name: 'cam home' })).count).toBe(0);
  });

  it('refuses bad input with the field and stores nothing', async () => {
    const before = await count('app');
    expect(await refused(call('v2/user/app/add', { name: '' }))).toMatchObject({ name: expect.any(String) });
    expect(await refused(call('v2/user/app/add', { name: 'x', type: 9 }))).toEqual({ type: 'one_of:1,2,3' });
    expect(await refused(call('v2/user/app/add', { name: 'x', package_name_ios: 'not a package' }))).toEqual({
      package_name_ios: 'format:package_name',
    });
    expect(await refused(call('v2/user/app/add', { name: 'x', gmt_expire: -1 }))).toMatchObject({ gmt_expire: expect.any(String) });
    // A key sent by the client is not a field: the server makes its own.
    const made = await addApp({ app_key_ios: 'A'.repeat(32) });
    expect(made.app_key_ios).not.toBe('A'.repeat(32));
    expect(await count('app')).toBe(before + 1);
    expect(await refused(call('v2/user/app/set', { id: made.id, package_name_android: 'com.' }))).toEqual({
      package_name_android: 'format:package_name',
    });
    ok(await call('v2/user/app/del', { id: made.id }));
  });

  it('keeps package names to one app each (409 naming the field)', async () => {
    const a = await addApp({ package_name_ios: 'com.example.unique' });
    expect(await refused(call('v2/user/app/add', { name: 'B', package_name_ios: 'com.example.unique' }), 409)).toEqual({
      package_name_ios: 'exists',
    });
    const b = await addApp({ package_name_android: 'com.example.unique' });
    // The same row keeps its own name; another may not take it.
    ok(await call('v2/user/app/set', { id: a.id, package_name_ios: 'com.example.unique', name: 'A again' }));
    expect(await refused(call('v2/user/app/set', { id: b.id, package_name_ios: 'com.example.unique' }), 409)).toEqual({
      package_name_ios: 'exists',
    });
    ok(await call('v2/user/app/del', { ids: [a.id, b.id] }));
  });

  it('rotates one key: the new one answered once, the old one stops working', async () => {
    const row = await addApp({ package_name_android: 'com.example.rotate' });
    const byOld = ok(await call<{ id: number; platform: string }>('user/appid/get', { app_key: row.app_key_android }));
    expect(byOld).toMatchObject({ id: row.id, platform: 'android', name: row.name, comp_id: 1 });
    const rotated = ok(await call<AppRow>('v2/user/app/key/rotate', { id: row.id, platform: 'android' }));
    expect(rotated.app_key_android).toMatch(APP_KEY_PATTERN);
    expect(rotated.app_key_android).not.toBe(row.app_key_android);
    // The other platform's key is untouched and still masked.
    expect(rotated.app_key_ios).toBe(`******${row.app_key_ios.slice(-4)}`);
    expect(await refused(call('user/appid/get', { app_key: row.app_key_android }))).toEqual({ app_key: 'not_found' });
    expect(ok(await call<{ id: number; platform: string }>('user/appid/get', { app_key: rotated.app_key_android }))).toMatchObject({
      id: row.id,
      platform: 'android',
    });
    expect(ok(await call<{ id: number; platform: string }>('user/appid/get', { app_key: row.app_key_ios })).platform).toBe('ios');
    expect(ok(await call<{ id: number; platform: string }>('user/appid/get', { package_name: 'com.example.rotate' })).platform).toBe(
      'android',
    );
    const listed = (await call<AppRow[]>('v2/user/app/list', {})).data.find((a) => a.id === row.id);
    expect(listed?.app_key_android).toBe(`******${rotated.app_key_android.slice(-4)}`);
    const audit = JSON.stringify(await dbOf(t).selectFrom('audit_log').select('changes').execute());
    expect(audit).not.toContain(rotated.app_key_android);
    expect(await refused(call('v2/user/app/key/rotate', { id: row.id, platform: 'web' }))).toMatchObject({ platform: expect.any(String) });
    expect(await refused(call('user/appid/get', {}))).toEqual({ app_key: 'required' });
    ok(await call('v2/user/app/del', { id: row.id }));
  });

  it('keeps companies apart: another company admin neither sees nor touches an app', async () => {
    const mine = await addApp({ package_name_ios: 'com.example.mine' });
    const theirs = await addApp({ name: 'Theirs' }, other.token);
    expect(theirs.comp_id).toBe(other.compId);
    const seen = await call<AppRow[]>('v2/user/app/list', {}, other.token);
    expect(seen.data.map((a) => a.id)).toEqual([theirs.id]);
    fails(await call('v2/user/app/set', { id: mine.id, name: 'taken' }, other.token), 406);
    fails(await call('v2/user/app/del', { id: mine.id }, other.token), 406);
    fails(await call('v2/user/app/key/rotate', { id: mine.id, platform: 'ios' }, other.token), 406);
    expect(await refused(call('user/appid/get', { app_key: mine.app_key_ios }, other.token))).toEqual({ app_key: 'not_found' });
    expect(await refused(call('user/appid/get', { package_name: 'com.example.mine' }, other.token))).toEqual({ package_name: 'not_found' });
    expect(await refused(call('v2/user/app/add', { name: 'Into root', comp_id: 1 }, other.token))).toEqual({ comp_id: 'not_found' });
    // Children of an app out of scope: its id is "not found".
    for (const [path, body] of [
      ['user/app/detail/add', { app_id: mine.id, client_type: 'web' }],
      ['ota/app/ver/add', { app_id: mine.id, ver: '1.0.0', details: [{ lang: 'en', url: 'https://example.com/a.apk' }] }],
      ['ota/app/url/add', { app_id: mine.id, platform: 'ios', url: 'https://apps.apple.com/app/id1' }],
      ['v2/user/app/resource/add', { master_id: mine.id, key: 'splash' }],
    ] as const) {
      const field = 'master_id' in body ? 'master_id' : 'app_id';
      expect(await refused(call(path, body, other.token)), path).toEqual({ [field]: 'not_found' });
    }
    expect(await refused(call('v2/user/admin/appcfg/set', { app_id: mine.id, img: '' }, other.token))).toEqual({ app_id: 'not_found' });
    expect((await call<Row[]>('v2/user/admin/appcfg/list', {}, other.token)).data.map((r) => r.app_id)).toEqual([theirs.id]);
    const still = (await call<AppRow[]>('v2/user/app/list', { name: mine.name })).data[0];
    expect(still?.name).toBe(mine.name);
    ok(await call('v2/user/app/del', { ids: [mine.id, theirs.id] }));
  });
});

describe('apps: details per client type', () => {
  it('adds, queries, sets and refuses a second detail of the same client type', async () => {
    const app = await addApp();
    const web = ok(await call('user/app/detail/add', { app_id: app.id, client_type: 'web', app_packet: 'https://cam.example.com' }));
    expect(web).toMatchObject({ app_id: app.id, client_type: 'web', state: 1, rela_id: '', comp_id: 1, app_name: app.name });
    ok(await call('user/app/detail/add', { app_id: app.id, client_type: 'ios', app_packet: 'com.example.cam', rela_id: '1234567890' }));
    const listed = await call<Row[]>('user/app/detail/query', { app_id: app.id });
    expect(listed.data.map((r) => r.client_type)).toEqual(['web', 'ios']);
    expect(ok(await call('user/app/detail/set', { id: web.id, state: 2 }))).toMatchObject({
      state: 2,
      app_packet: 'https://cam.example.com',
    });
    const before = await count('app_detail');
    expect(await refused(call('user/app/detail/add', { app_id: app.id, client_type: 'web' }), 409)).toEqual({ client_type: 'exists' });
    expect(await refused(call('user/app/detail/add', { app_id: app.id, client_type: 'watch' }))).toMatchObject({
      client_type: expect.any(String),
    });
    expect(await refused(call('user/app/detail/add', { app_id: 2_000_000_000, client_type: 'pc' }))).toEqual({ app_id: 'not_found' });
    expect(await count('app_detail')).toBe(before);
    fails(await call('user/app/detail/set', { id: web.id, state: 1 }, other.token), 406);
    expect((await call<Row[]>('user/app/detail/query', { app_id: app.id }, other.token)).count).toBe(0);
    // Deleting the app takes its details along.
    ok(await call('v2/user/app/del', { id: app.id }));
    expect((await call<Row[]>('user/app/detail/query', { app_id: app.id })).count).toBe(0);
  });
});

describe('apps: versions', () => {
  const details = [
    { lang: 'en', url: 'https://dl.example.com/cam-en.apk', title: 'New', content: 'Fixes', size: 1024 },
    { lang: 'zh-CN', url: 'https://dl.example.com/cam-zh.apk', size: '' },
  ];

  it('adds with per-language details, answers ver_id and size 0 for an empty size, modifies, deletes', async () => {
    const app = await addApp();
    const v = ok(await call('ota/app/ver/add', { app_id: app.id, ver: '1.2.0', name: 'Spring', force: 1, details }));
    expect(v).toMatchObject({ app_id: app.id, ver: '1.2.0', name: 'Spring', force: 1, state: 1, comp_id: 1 });
    expect(v.details).toEqual([
      { lang: 'en', url: details[0]?.url, title: 'New', content: 'Fixes', zone: '', size: 1024, zone_type: 0, ver_id: v.id },
      { lang: 'zh-CN', url: details[1]?.url, title: '', content: '', zone: '', size: 0, zone_type: 0, ver_id: v.id },
    ]);
    const delisted = ok(await call('ota/app/ver/modify', { id: v.id, state: 2 }));
    expect(delisted).toMatchObject({ state: 2, ver: '1.2.0', force: 1 });
    expect((await call<Row[]>('ota/app/ver/query', { app_id: app.id, state: 2 })).count).toBe(1);
    expect(ok(await call('ota/app/ver/delete', { id: v.id }))).toEqual({ deleted: 1 });
    ok(await call('v2/user/app/del', { id: app.id }));
  });

  it('refuses bad versions and details with the field, storing nothing', async () => {
    const app = await addApp();
    const before = await count('app_version');
    const add = (fields: Record<string, unknown>) => refused(call('ota/app/ver/add', { app_id: app.id, ver: '1.0.0', details, ...fields }));
    for (const ver of ['v1.0', '1..2', '1.2.3.4.5', 'abc', '1.2-beta', ''])
      expect(await add({ ver }), ver).toEqual({ ver: 'format:version' });
    expect(await add({ details: [] })).toMatchObject({ details: expect.any(String) });
    expect(await add({ details: [details[0], { ...details[0], url: 'https://dl.example.com/other.apk' }] })).toEqual({
      'details.1.lang': 'format:duplicate',
    });
    expect(await add({ details: [{ lang: 'en', url: 'ftp://x/a.apk' }] })).toEqual({ 'details.0.url': 'format:url' });
    expect(await add({ details: [{ lang: 'en', url: 'https://x.example/a.apk', size: -1 }] })).toMatchObject({
      'details.0.size': expect.any(String),
    });
    expect(await add({ force: 2 })).toEqual({ force: 'one_of:0,1' });
    expect(await add({ state: 3 })).toEqual({ state: 'one_of:1,2' });
    expect(await count('app_version')).toBe(before);
    ok(await call('v2/user/app/del', { id: app.id }));
  });

  it('adds one version of ten sent at once as 1.2, 1.2.0, 01.2…: the rest get 409 naming the version', async () => {
    const app = await addApp();
    const spellings = ['1.2', '1.2.0', '01.2', '1.02', '1.2.00', '1.2', '1.2.0', '01.02.0', '1.2', '1.2.0'];
    const answers = await Promise.all(spellings.map((ver) => call('ota/app/ver/add', { app_id: app.id, ver, details })));
    expect(answers.filter((a) => a.code === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.code !== 200)) expect(await refused(Promise.resolve(a), 409)).toEqual({ ver: 'exists' });
    expect((await call<Row[]>('ota/app/ver/query', { app_id: app.id })).count).toBe(1);
    ok(await call('v2/user/app/del', { id: app.id }));
  });

  it('compares versions as numbers: lists newest first, and 1.10 is 1.10.0', async () => {
    const app = await addApp();
    for (const ver of ['1.9.3', '1.10.0', '1.2', '2', '1.10.0.1']) ok(await call('ota/app/ver/add', { app_id: app.id, ver, details }));
    const listed = await call<Row[]>('ota/app/ver/query', { app_id: app.id });
    expect(listed.data.map((r) => r.ver)).toEqual(['2', '1.10.0.1', '1.10.0', '1.9.3', '1.2']);
    const oldest = await call<Row[]>('ota/app/ver/query', { app_id: app.id, order_by: 'ver', order: 'asc' });
    expect(oldest.data.map((r) => r.ver)).toEqual(['1.2', '1.9.3', '1.10.0', '1.10.0.1', '2']);
    expect(await refused(call('ota/app/ver/add', { app_id: app.id, ver: '1.10', details }), 409)).toEqual({ ver: 'exists' });
    expect(await refused(call('ota/app/ver/add', { app_id: app.id, ver: '01.9.03', details }), 409)).toEqual({ ver: 'exists' });
    const v193 = listed.data.find((r) => r.ver === '1.9.3') as Row;
    expect(await refused(call('ota/app/ver/modify', { id: v193.id, ver: '2.0.0' }), 409)).toEqual({ ver: 'exists' });
    expect((await call<Row[]>('ota/app/ver/query', { app_id: app.id, ver: '1.10' })).data.map((r) => r.ver)).toEqual([
      '1.10.0.1',
      '1.10.0',
    ]);
    expect(compareAppVersions('1.10.0', '1.9.3')).toBeGreaterThan(0);
    expect(compareAppVersions('1.10', '1.10.0')).toBe(0);
    ok(await call('v2/user/app/del', { id: app.id }));
  });

  it('keeps another company out of an app version', async () => {
    const app = await addApp();
    const v = ok(await call('ota/app/ver/add', { app_id: app.id, ver: '3.0', details }));
    expect((await call<Row[]>('ota/app/ver/query', { app_id: app.id }, other.token)).count).toBe(0);
    fails(await call('ota/app/ver/modify', { id: v.id, state: 2 }, other.token), 406);
    fails(await call('ota/app/ver/delete', { id: v.id }, other.token), 406);
    expect(ok(await call('ota/app/ver/modify', { id: v.id })).state).toBe(1);
    ok(await call('v2/user/app/del', { id: app.id }));
  });
});

describe('apps: store urls, resources, config', () => {
  it('store urls: add, query, modify, delete; one per platform and language', async () => {
    const app = await addApp();
    const u = ok(await call('ota/app/url/add', { app_id: app.id, platform: 'ios', url: 'https://apps.apple.com/app/id1' }));
    expect(u).toMatchObject({ platform: 'ios', lang: 'en', url: 'https://apps.apple.com/app/id1', app_name: app.name });
    expect(await refused(call('ota/app/url/add', { app_id: app.id, platform: 'ios', lang: 'en', url: 'https://x.example' }), 409)).toEqual({
      lang: 'exists',
    });
    expect(await refused(call('ota/app/url/add', { app_id: app.id, platform: 'ios', url: 'javascript:alert(1)' }))).toEqual({
      url: 'format:url',
    });
    expect(ok(await call('ota/app/url/modify', { id: u.id, lang: 'zh-CN' })).lang).toBe('zh-CN');
    expect((await call<Row[]>('ota/app/url/query', { app_id: app.id, platform: 'ios' })).count).toBe(1);
    fails(await call('ota/app/url/modify', { id: u.id, url: 'https://evil.example' }, other.token), 406);
    ok(await call('ota/app/url/delete', { id: u.id }));
    ok(await call('v2/user/app/del', { id: app.id }));
  });

  it('resources: urls per language, one key per app', async () => {
    const app = await addApp();
    const urls = [
      { lang: 'en', url: 'https://cdn.example.com/splash-en.png', type: 1 },
      { lang: 'zh-CN', url: '/api/v2/oss/file/images/abc.png', param: 'w=720' },
      { lang: 'en', url: 'https://example.com/privacy', type: 2 },
    ];
    const r = ok(await call('v2/user/app/resource/add', { master_id: app.id, key: 'splash', urls }));
    expect(r).toMatchObject({ master_id: app.id, key: 'splash', state: 1, comp_id: 1 });
    expect(r.urls).toEqual([
      { lang: 'en', url: urls[0]?.url, param: '', type: 1 },
      { lang: 'zh-CN', url: urls[1]?.url, param: 'w=720', type: 1 },
      { lang: 'en', url: urls[2]?.url, param: '', type: 2 },
    ]);
    const before = await count('app_resource');
    expect(await refused(call('v2/user/app/resource/add', { master_id: app.id, key: 'splash' }), 409)).toEqual({ key: 'exists' });
    expect(await refused(call('v2/user/app/resource/add', { master_id: app.id, key: 'bad key' }))).toEqual({ key: 'format:key' });
    expect(await refused(call('v2/user/app/resource/add', { master_id: app.id, key: 'x', urls: [urls[0], urls[0]] }))).toEqual({
      'urls.1.lang': 'format:duplicate',
    });
    expect(
      await refused(call('v2/user/app/resource/add', { master_id: app.id, key: 'x', urls: [{ lang: 'en', url: 'file:///etc/passwd' }] })),
    ).toEqual({ 'urls.0.url': 'format:url' });
    expect(await count('app_resource')).toBe(before);
    expect(ok(await call('v2/user/app/resource/set', { id: r.id, state: 2 }))).toMatchObject({ state: 2, key: 'splash' });
    expect((await call<Row[]>('v2/user/app/resource/list', { master_id: app.id, key: 'spl' })).count).toBe(1);
    expect((await call<Row[]>('v2/user/app/resource/list', { master_id: app.id }, other.token)).count).toBe(0);
    fails(await call('v2/user/app/resource/set', { id: r.id, state: 1 }, other.token), 406);
    ok(await call('v2/user/app/del', { id: app.id }));
  });

  it('config: defaults, partial changes, the limits revision counts up only when they change', async () => {
    const app = await addApp();
    const [initial] = (await call<Row[]>('v2/user/admin/appcfg/list', { app_id: app.id })).data;
    expect(initial).toMatchObject({
      app_id: app.id,
      name: app.name,
      img: '',
      img_url: '',
      dk_limit: { oem_prefix: '', pri_dk: 0, pub_dk: 0, ver_num: 0 },
    });
    const set1 = ok(await call('v2/user/admin/appcfg/set', { app_id: app.id, dk_limit: { oem_prefix: 'ab-', pri_dk: 20 } }));
    expect(set1.dk_limit).toEqual({ oem_prefix: 'AB-', pri_dk: 20, pub_dk: 0, ver_num: 1 });
    const set2 = ok(await call('v2/user/admin/appcfg/set', { app_id: app.id, img: 'images/logo.png', dk_limit: { pri_dk: 20 } }));
    expect(set2).toMatchObject({
      img: 'images/logo.png',
      img_url: '/api/v2/oss/file/images/logo.png',
      dk_limit: { pri_dk: 20, ver_num: 1 },
    });
    const set3 = ok(await call('v2/user/admin/appcfg/set', { app_id: app.id, dk_limit: { pub_dk: '5' } }));
    expect(set3.dk_limit).toEqual({ oem_prefix: 'AB-', pri_dk: 20, pub_dk: 5, ver_num: 2 });
    expect(await refused(call('v2/user/admin/appcfg/set', { app_id: app.id, dk_limit: { oem_prefix: 'a b' } }))).toEqual({
      'dk_limit.oem_prefix': 'format:uid_prefix',
    });
    expect(await refused(call('v2/user/admin/appcfg/set', { app_id: app.id, dk_limit: { pri_dk: -1 } }))).toMatchObject({
      'dk_limit.pri_dk': expect.any(String),
    });
    expect(await refused(call('v2/user/admin/appcfg/set', { app_id: app.id, img: '../etc/passwd' }))).toEqual({
      img: 'format:storage_key',
    });
    const [after] = (await call<Row[]>('v2/user/admin/appcfg/list', { app_id: app.id })).data;
    expect(after?.dk_limit).toEqual(set3.dk_limit);
    ok(await call('v2/user/app/del', { id: app.id }));
  });
});

describe('apps: the public download link', () => {
  const IPHONE =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
  const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36';
  const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';
  let app: AppRow;

  const get = (path: string, headers: Record<string, string>) => t.raw(`/api/${path}`, { method: 'GET', redirect: 'manual', headers });

  beforeAll(async () => {
    app = await addApp({ name: 'Link App' });
    const apk = (ver: string, lang: string) => ({ lang, url: `https://dl.example.com/${ver}/${lang}.apk`, title: `${ver} ${lang}` });
    ok(await call('ota/app/ver/add', { app_id: app.id, ver: '1.9.3', details: [apk('1.9.3', 'en'), apk('1.9.3', 'zh-TW')] }));
    ok(
      await call('ota/app/ver/add', {
        app_id: app.id,
        ver: '1.10.0',
        details: [apk('1.10.0', 'en'), apk('1.10.0', 'zh-TW'), apk('1.10.0', 'ja')],
      }),
    );
    // Newer, but not released: never offered.
    ok(await call('ota/app/ver/add', { app_id: app.id, ver: '2.0.0', state: 2, details: [apk('2.0.0', 'en')] }));
    ok(await call('ota/app/url/add', { app_id: app.id, platform: 'ios', lang: 'en', url: 'https://apps.apple.com/us/app/id42' }));
    ok(await call('ota/app/url/add', { app_id: app.id, platform: 'ios', lang: 'zh-TW', url: 'https://apps.apple.com/tw/app/id42' }));
  });

  it('sends an Android phone to the newest released package in its language', async () => {
    const res = await get(`v2/app/dl/${app.id}`, { 'user-agent': ANDROID, 'accept-language': 'zh-TW,zh;q=0.9,en;q=0.8' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://dl.example.com/1.10.0/zh-TW.apk');
    expect(res.headers.get('x-download-lang')).toBe('zh-TW');
    expect(res.headers.get('x-download-lang-source')).toBe('phone');
    expect(res.headers.get('x-download-version')).toBe('1.10.0');
    // zh-Hant and zh-HK phones read traditional Chinese too; a Japanese phone gets ja.
    for (const [accept, lang] of [
      ['zh-Hant-HK', 'zh-TW'],
      ['ja-JP,en;q=0.5', 'ja'],
    ]) {
      const r = await get(`v2/app/dl/${app.id}`, { 'user-agent': ANDROID, 'accept-language': accept as string });
      expect(r.headers.get('location'), accept).toBe(`https://dl.example.com/1.10.0/${lang}.apk`);
    }
  });

  it('sends an iPhone to the store url in its language', async () => {
    const res = await get(`v2/app/dl/${app.id}`, { 'user-agent': IPHONE, 'accept-language': 'zh-TW' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://apps.apple.com/tw/app/id42');
    const ipad = await get(`v2/app/dl/${app.id}`, { 'user-agent': IPHONE.replace('iPhone;', 'iPad;'), 'accept-language': 'en-US' });
    expect(ipad.headers.get('location')).toBe('https://apps.apple.com/us/app/id42');
  });

  it('falls back visibly: the link language, then English, then the first language', async () => {
    const byLink = await get(`v2/app/dl/${app.id}?lang=ja`, { 'user-agent': ANDROID, 'accept-language': 'de-DE' });
    expect(byLink.headers.get('location')).toBe('https://dl.example.com/1.10.0/ja.apk');
    expect(byLink.headers.get('x-download-lang-source')).toBe('link');
    const english = await get(`v2/app/dl/${app.id}`, { 'user-agent': ANDROID, 'accept-language': 'de-DE' });
    expect(english.headers.get('location')).toBe('https://dl.example.com/1.10.0/en.apk');
    expect(english.headers.get('x-download-lang-source')).toBe('english');
    expect(pickDownloadLanguage(['zh-CN', 'ja'], 'de', undefined)).toEqual({ lang: 'zh-CN', source: 'first' });
    // A version of its own: ?ver= (numerically equal).
    const old = await get(`v2/app/dl/${app.id}?ver=1.9.3.0`, { 'user-agent': ANDROID, 'accept-language': 'ja' });
    expect(old.headers.get('location')).toBe('https://dl.example.com/1.9.3/en.apk');
    expect(old.headers.get('x-download-lang-source')).toBe('english');
  });

  it('gives a desktop browser a page listing both packages and the language used', async () => {
    const res = await get(`v2/app/dl/${app.id}`, { 'user-agent': DESKTOP, 'accept-language': 'de-DE' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toContain('Download Link App');
    expect(html).toContain('href="https://apps.apple.com/us/app/id42"');
    expect(html).toContain('href="https://dl.example.com/1.10.0/en.apk"');
    expect(html).toContain('Your language is not available: shown in English.');
    const byLink = await (await get(`v2/app/dl/${app.id}?lang=ja`, { 'user-agent': DESKTOP, 'accept-language': 'de-DE' })).text();
    expect(byLink).toContain('href="https://dl.example.com/1.10.0/ja.apk"');
    expect(byLink).toContain('Shown in Japanese, the language of this link.');
    const zh = await (await get(`v2/app/dl/${app.id}`, { 'user-agent': DESKTOP, 'accept-language': 'zh-TW' })).text();
    expect(zh).toContain('下載 Link App');
    expect(zh).toContain('href="https://dl.example.com/1.10.0/zh-TW.apk"');
  });

  it('answers a 404 page for an unknown app, an app without a released version, or an unreleased version', async () => {
    const unknown = await get('v2/app/dl/2000000000', { 'user-agent': ANDROID });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('does not exist or has no released version');
    const bare = await addApp();
    ok(await call('ota/app/ver/add', { app_id: bare.id, ver: '1.0', state: 2, details: [{ lang: 'en', url: 'https://x.example/a.apk' }] }));
    expect((await get(`v2/app/dl/${bare.id}`, { 'user-agent': IPHONE })).status).toBe(404);
    const unreleased = await get(`v2/app/dl/${app.id}?ver=2.0.0`, { 'user-agent': ANDROID });
    expect(unreleased.status).toBe(404);
    expect(await unreleased.text()).toContain('not released');
    // An iPhone for an app without a store url: a 404 page saying so, with what there is.
    ok(await call('ota/app/ver/modify', { id: (await call<Row[]>('ota/app/ver/query', { app_id: bare.id })).data[0]?.id, state: 1 }));
    const noIos = await get(`v2/app/dl/${bare.id}`, { 'user-agent': IPHONE });
    expect(noIos.status).toBe(404);
    const page = await noIos.text();
    expect(page).toContain('no download for iPhone');
    expect(page).toContain('https://x.example/a.apk');
    // A bad id is refused like any query.
    const bad = await get('v2/app/dl/abc', {});
    expect(((await bad.json()) as { code: number }).code).toBe(406);
    ok(await call('v2/user/app/del', { id: bare.id }));
  });
});
