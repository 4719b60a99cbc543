import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, createCompanyAdmin, startTestServer, type TestServer } from './harness.js';
import { dbOf, fails, ok } from './helpers.js';

/**
 * The messaging resources declared on the CRUD kit (issue 8): message platforms, push templates,
 * push links, message templates and event configs, each through add → list (filtered) → set →
 * refused input → another company → delete; and the message platform's secrets, its secret
 * file included. (Push platforms and notice templates: crud.test.ts; sending: push.test.ts.)
 */
let t: TestServer;
let other: { compId: number; token: string };
beforeAll(async () => {
  // Answers are checked against each path's row schema by the transport in tests (checkAnswers).
  t = await startTestServer();
  other = await createCompanyAdmin(t, {
    name: 'Other Messaging Co',
    menuKeys: ['applist/flatform', 'applist/template', 'applist/msg_mng'],
    userId: 'other_messaging',
  });
});
afterAll(async () => {
  await t?.close();
});

type Row = Record<string, unknown> & { id: number };
const call = <T = Row>(base: string, op: string, body: Record<string, unknown>, token = t.adminToken): Promise<Answer<T>> =>
  t.call<T>(`${base}/${op}`, body, { token });
const fieldsOf = (a: Answer) => (a.data as { fields?: Record<string, string> } | null)?.fields;
const countOf = async (table: 'msg_platform' | 'push_template' | 'push_link' | 'msg_template' | 'event_cfg') =>
  Number(
    (
      await dbOf(t)
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

interface Case {
  name: string;
  base: string;
  table: 'msg_platform' | 'push_template' | 'push_link' | 'msg_template' | 'event_cfg';
  add: () => Promise<Record<string, unknown>>;
  filter: (row: Row) => Record<string, unknown>;
  change: Record<string, unknown>;
  /** An add body refused with `{field: rule}`. */
  bad: [body: () => Promise<Record<string, unknown>>, field: string, rule: string];
  /** A second row with the same key is refused on `field` (409 `{field: exists}`); `other` changes the key. */
  unique?: { field: string; other: Record<string, unknown> };
}

let platformId = 0;
let templateId = 0;
const mail = async () => {
  if (platformId) return platformId;
  const p = ok(
    await call('v2/push/platform', 'add', { name: 'Mail', type: 2, platform: 'smtp', smtp_addr: 'mail.example.com', smtp_port: 25 }),
  );
  platformId = p.id;
  return platformId;
};
const template = async () => {
  if (templateId) return templateId;
  const p = ok(
    await call('v2/push/template', 'add', {
      name: 'Alarm',
      code: 'alarm',
      lang: 'en',
      param: 'alarm',
      body: 'Alarm on {{dev_name}}',
      type: 2,
    }),
  );
  templateId = p.id;
  return templateId;
};

const CASES: Case[] = [
  {
    name: 'message platforms',
    base: 'v2/push/admin/msg/platform',
    table: 'msg_platform',
    add: async () => ({ app_id: 101, type: 1, access_id: 'xm-app', xm_ch_id: 'ch-1', open_type: 1, open_param: 'app://alarms' }),
    filter: (r) => ({ app_id: r.app_id, type: 1 }),
    change: { oppo_ch_id: 'oppo-ch' },
    bad: [async () => ({ app_id: 101, type: 9 }), 'type', 'one_of:1,2,3,4,5'],
  },
  {
    name: 'push templates',
    base: 'v2/push/template',
    table: 'push_template',
    add: async () => ({
      name: 'Offline',
      code: 'offline',
      lang: 'zh-CN',
      param: 'system',
      title: '设备离线',
      body: '{{dev_name}} 离线',
      type: 3,
    }),
    filter: () => ({ code: 'offline', lang: 'zh-CN' }),
    change: { notify_type: 1 },
    bad: [async () => ({ name: 'No body', code: 'x', lang: 'en', type: 3 }), 'body', 'required'],
    unique: { field: 'code', other: { lang: 'en' } },
  },
  {
    name: 'push links',
    base: 'v2/push/link',
    table: 'push_link',
    add: async () => ({ link_type: 1, link_id: 555, type: 7, platform_id: await mail(), template_id: await template() }),
    filter: () => ({ link_id: 555, link_type: 1 }),
    change: { type: 8 },
    bad: [
      async () => ({ link_type: 1, link_id: 555, type: 7, platform_id: 999_999, template_id: await template() }),
      'platform_id',
      'not_found',
    ],
    unique: { field: 'platform_id', other: { type: 8 } },
  },
  {
    name: 'message templates',
    base: 'v2/umh/admin/msg/template',
    table: 'msg_template',
    add: async () => ({ lang: 'zh-TW', name: 'Reset', title: '重設密碼', body: '驗證碼 {{code}}', type: 1 }),
    filter: () => ({ lang: 'zh-TW', type: 1 }),
    change: { title: '重設您的密碼' },
    bad: [async () => ({ lang: 'en', name: 'Twelve+', title: 't', body: 'b', type: 13 }), 'type', 'one_of:1,2,3,4,5,6,7,8,9,10,11,12'],
  },
  {
    name: 'event configs',
    base: 'v2/umh/admin/msg/eventcfg',
    table: 'event_cfg',
    add: async () => ({ name: 'Alarms by mail and push', type: 7, app_id: 101, channels: [2, 3] }),
    filter: () => ({ type: 7, app_id: 101 }),
    change: { state: 2, channels: [3] },
    bad: [async () => ({ name: 'Five channels', type: 7, channels: [1, 2, 3, 4, 1] }), 'channels', 'too_big:4'],
  },
];

describe.each(CASES.filter((c) => c.unique !== undefined))('$name: one row per key', (c) => {
  it('refuses a second row with the same key (409 naming the field) on add and on set, and stores nothing', async () => {
    const { field, other } = c.unique as NonNullable<Case['unique']>;
    const body = await c.add();
    const first = ok(await call(c.base, 'add', body));
    const before = await countOf(c.table);
    const again = await call(c.base, 'add', body);
    fails(again, 409);
    expect(fieldsOf(again)).toEqual({ [field]: 'exists' });
    expect(await countOf(c.table)).toBe(before);
    // A row with another key can be added; moving it onto the first row's key is refused.
    const second = ok(await call(c.base, 'add', { ...body, ...other }));
    const back = Object.fromEntries(Object.keys(other).map((k) => [k, body[k]]));
    const moved = await call(c.base, 'set', { id: second.id, ...back });
    fails(moved, 409);
    expect(fieldsOf(moved)).toEqual({ [field]: 'exists' });
    // A row set to the key it already holds is no conflict with itself.
    ok(await call(c.base, 'set', { id: first.id, ...back }));
    for (const id of [first.id, second.id]) ok(await call(c.base, 'del', { id }));
  });

  it('lets one of ten simultaneous adds of the same key through; the others get the same 409 naming the field', async () => {
    const { field } = c.unique as NonNullable<Case['unique']>;
    const body = await c.add();
    const before = await countOf(c.table);
    const answers = await Promise.all(Array.from({ length: 10 }, () => call(c.base, 'add', body)));
    const added = answers.filter((a) => a.code === 200);
    expect(added).toHaveLength(1);
    for (const a of answers.filter((x) => x.code !== 200)) {
      expect(a.code).toBe(409);
      expect(fieldsOf(a)).toEqual({ [field]: 'exists' });
    }
    expect(await countOf(c.table)).toBe(before + 1);
    ok(await call(c.base, 'del', { id: ok(added[0] as Answer<Row>).id }));
  });
});

describe.each(CASES)('$name', (c) => {
  it('adds in the caller company, lists by its filters, changes only what is sent, deletes', async () => {
    const body = await c.add();
    const row = ok(await call(c.base, 'add', body));
    expect(row).toMatchObject({ ...body, comp_id: 1 });
    const listed = ok(await call<Row[]>(c.base, 'list', c.filter(row)));
    expect(listed.map((r) => r.id)).toContain(row.id);
    const changed = ok(await call(c.base, 'set', { id: row.id, ...c.change }));
    expect(changed).toMatchObject({ ...body, ...c.change, id: row.id });
    ok(await call(c.base, 'del', { id: row.id }));
    expect(ok(await call<Row[]>(c.base, 'list', c.filter(row))).map((r) => r.id)).not.toContain(row.id);
  });

  it('refuses bad input with the field and stores nothing', async () => {
    const [body, field, rule] = c.bad;
    const before = await countOf(c.table);
    const refused = await call(c.base, 'add', await body());
    fails(refused, 406);
    expect(fieldsOf(refused)?.[field]).toBe(rule);
    fails(await call(c.base, 'set', { id: 987_654, ...c.change }), 406); // "… does not exist" (SPEC §8)
    expect(await countOf(c.table)).toBe(before);
  });

  it("keeps companies apart: another company's admin neither lists, changes nor deletes the row", async () => {
    const row = ok(await call(c.base, 'add', await c.add()));
    const seen = ok(await call<Row[]>(c.base, 'list', {}, other.token));
    expect(seen.map((r) => r.id)).not.toContain(row.id);
    fails(await call(c.base, 'set', { id: row.id, ...c.change }, other.token), 406); // as if it did not exist
    fails(await call(c.base, 'del', { id: row.id }, other.token), 406);
    expect(ok(await call<Row[]>(c.base, 'list', c.filter(row))).map((r) => r.id)).toContain(row.id);
    ok(await call(c.base, 'del', { id: row.id }));
  });
});

describe('message platform secrets', () => {
  /** A service-account file as vendors hand them out: JSON with a PEM key over several lines. */
  const FILE = JSON.stringify(
    {
      type: 'service_account',
      project_id: 'demo-push',
      private_key: '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n',
      client_email: 'push@demo-push.iam.example.com',
    },
    null,
    2,
  );

  it('seals the keys and the secret file, answers the mask, keeps them when masked, replaces and clears them', async () => {
    const row = ok(
      await call('v2/push/admin/msg/platform', 'add', {
        app_id: 202,
        type: 3,
        access_key: 'ak-plain',
        secret_key: 'sk-plain',
        secret_file: FILE,
      }),
    );
    expect(row).toMatchObject({ access_key: '******', secret_key: '******', secret_file: '******' });
    const stored = await dbOf(t).selectFrom('msg_platform').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toMatch(/ak-plain|sk-plain|PRIVATE KEY|demo-push/);

    // The console sends the masks back unchanged on edit: nothing is replaced.
    ok(await call('v2/push/admin/msg/platform', 'set', { id: row.id, access_id: 'hw-app', access_key: '******', secret_file: '******' }));
    const kept = await dbOf(t).selectFrom('msg_platform').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(kept.secret_file).toBe(stored.secret_file);
    expect(kept.access_key).toBe(stored.access_key);

    ok(await call('v2/push/admin/msg/platform', 'set', { id: row.id, secret_file: FILE.replace('demo-push', 'other-push') }));
    const replaced = await dbOf(t).selectFrom('msg_platform').select('secret_file').where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(replaced.secret_file).not.toBe(stored.secret_file);
    const cleared = ok(await call('v2/push/admin/msg/platform', 'set', { id: row.id, secret_file: '' }));
    expect(cleared.secret_file).toBe('');

    const answers = JSON.stringify(ok(await call<Row[]>('v2/push/admin/msg/platform', 'list', { app_id: 202 })));
    const audit = JSON.stringify(await dbOf(t).selectFrom('audit_log').select('changes').execute());
    for (const text of [answers, audit]) expect(text).not.toMatch(/ak-plain|sk-plain|PRIVATE KEY|demo-push|other-push/);
  });

  it('refuses a secret file that is not text (a NUL byte) or too big, and stores nothing', async () => {
    const before = await countOf('msg_platform');
    const binary = await call('v2/push/admin/msg/platform', 'add', { app_id: 203, type: 3, secret_file: 'PK\u0003\u0004\u0000\u0000' });
    fails(binary, 406);
    expect(fieldsOf(binary)?.secret_file).toBeDefined();
    const big = await call('v2/push/admin/msg/platform', 'add', { app_id: 203, type: 3, secret_file: 'x'.repeat(16_385) });
    fails(big, 406);
    expect(fieldsOf(big)?.secret_file).toBe('too_big:16384');
    expect(await countOf('msg_platform')).toBe(before);
  });
});

describe('push platform channel and provider', () => {
  const platformCount = async () =>
    Number(
      (
        await dbOf(t)
          .selectFrom('push_platform')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('refuses a provider that does not send over the channel, on add and on set, and changes nothing', async () => {
    const before = await platformCount();
    // An SMS channel served by a push provider would send app user ids to an SMS gateway.
    const smsByHuawei = await call('v2/push/platform', 'add', { name: 'Wrong', type: 1, platform: 'huawei', app_id: 'a' });
    fails(smsByHuawei, 406);
    expect(fieldsOf(smsByHuawei)).toEqual({ platform: 'channel' });
    expect(await platformCount()).toBe(before);

    const sms = ok(await call('v2/push/platform', 'add', { name: 'SMS', type: 1, platform: 'tencent_sms', app_id: '1400000000' }));
    const toPush = await call('v2/push/platform', 'set', { id: sms.id, type: 3 });
    fails(toPush, 406);
    expect(fieldsOf(toPush)).toEqual({ platform: 'channel' });
    const stored = await dbOf(t)
      .selectFrom('push_platform')
      .select(['type', 'platform'])
      .where('id', '=', sms.id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ type: 1, platform: 'tencent_sms' });
    // Both changed together to a pair that fits: accepted.
    expect(ok(await call('v2/push/platform', 'set', { id: sms.id, type: 3, platform: 'vivo' }))).toMatchObject({
      type: 3,
      platform: 'vivo',
    });
  });
});
