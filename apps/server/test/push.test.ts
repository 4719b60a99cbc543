import crypto from 'node:crypto';
import { PushState } from '@iot/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobServicesOf } from '../src/modules/iot/job-files.js';
import { dispatchDue, queueEvent } from '../src/modules/push/dispatch.service.js';
import {
  APNS_BUNDLE_ID,
  APNS_GONE_DEVICE,
  APNS_KEY_ID,
  APNS_TEAM_ID,
  aliyunCheck,
  ecKeyPair,
  formOf,
  jwtParts,
  PASSWORD,
  refusedUrl,
  rsaKeyPair,
  startApns,
  startHttpStandIn,
  startSmtp,
  USER,
} from './delivery-stand-ins.js';
import { createCompanyAdmin, startTestServer, type TestServer } from './harness.js';
import { addProduct, dbOf, fails, ok } from './helpers.js';

const INGEST_KEY = 'push-ingest-key';

/** Platforms, templates, links and the dispatcher sending for real (a local SMTP server, a webhook receiver). */
let t: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
beforeAll(async () => {
  // The test drives the dispatcher itself: no job runner, no sweep.
  t = await startTestServer({ jobWorkers: 0, pushSweepMs: 0, ingestServiceKey: INGEST_KEY });
  smtp = await startSmtp();
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

type Row = Record<string, unknown> & { id: number };
type Rec = {
  id: number;
  state: number;
  attempts: number;
  error: string;
  recipient: string;
  lang: string;
  lang_fallback: boolean;
  title: string;
  source: string;
};
const add = async (base: string, body: Record<string, unknown>, token = t.adminToken) =>
  ok(await t.call<Row>(`${base}/add`, body, { token }));
const records = async (filter: Record<string, unknown> = {}, token = t.adminToken) =>
  ok(await t.call<Rec[]>('v2/push/record/list', { page_size: 100, ...filter }, { token }));
const services = () => jobServicesOf(t.app);

const mailPlatform = (extra: Record<string, unknown> = {}) =>
  add('v2/push/platform', {
    name: 'Alerts mail',
    type: 2,
    platform: 'smtp',
    smtp_addr: '127.0.0.1',
    smtp_port: smtp.port,
    ssl: 0,
    user_id: USER,
    password: PASSWORD,
    ...extra,
  });

describe('test sends', () => {
  it('a platform test send reaches the SMTP server in the caller language and is recorded as sent', async () => {
    const platform = await mailPlatform();
    expect(platform.password).toBe('******');
    const before = smtp.mails.length;
    const answer = await t.call<Rec>(
      'v2/push/platform/test',
      { id: platform.id, recipient: 'ops@example.com' },
      { token: t.adminToken, headers: { 'Accept-Language': 'zh-CN' } },
    );
    const record = ok(answer);
    expect(record).toMatchObject({ state: PushState.SENT, attempts: 1, recipient: 'ops@example.com', source: 'test', error: '' });
    expect(smtp.mails.length).toBe(before + 1);
    const mail = smtp.mails.at(-1);
    expect(mail?.subject).toBe('来自 Alerts mail 的测试消息');
    expect(mail?.to).toBe('ops@example.com');
    expect(mail?.user).toBe(USER);
  });

  it('a wrong password fails the test send with the server reply, never the password', async () => {
    const platform = await mailPlatform({ name: 'Wrong login', password: 'not-the-password-123' });
    const record = ok(
      await t.call<Rec>('v2/push/platform/test', { id: platform.id, recipient: 'ops@example.com' }, { token: t.adminToken }),
    );
    expect(record.state).toBe(PushState.FAILED);
    expect(record.error).toMatch(/email/);
    const all = JSON.stringify(await records());
    expect(all).not.toContain('not-the-password-123');
    expect(all).not.toContain(PASSWORD);
  });

  it('a template test send renders its sample values; a platform of another channel is refused', async () => {
    const platform = await mailPlatform({ name: 'Template mail' });
    const template = await add('v2/push/template', {
      name: 'Alarm',
      code: 'alarm-test',
      lang: 'en',
      param: 'alarm',
      type: 2,
      title: '{{alarm_name}} on {{dev_name}}',
      body: 'Hello {{user_name}}, {{dev_name}} ({{uid}}) reported {{alarm_name}} at {{alarm_time}}.',
    });
    const record = ok(
      await t.call<Rec>(
        'v2/push/template/test',
        { id: template.id, platform_id: platform.id, recipient: 'a@example.com' },
        { token: t.adminToken },
      ),
    );
    expect(record).toMatchObject({ state: PushState.SENT, title: 'Motion detected on Front door' });
    expect(smtp.mails.at(-1)?.text).toContain('Hello Alex, Front door (SIM-000001) reported Motion detected at 2026-11-23 09:29.');
    const hook = await add('v2/push/platform', {
      name: 'Hook',
      type: 4,
      platform: 'webhook',
      endpoint: 'http://127.0.0.1:9',
      secret_key: 'k-123456',
    });
    const refused = await t.call(
      'v2/push/template/test',
      { id: template.id, platform_id: hook.id, recipient: 'x' },
      { token: t.adminToken },
    );
    fails(refused, 406);
    expect(refused.data).toEqual({ fields: { platform_id: 'channel_mismatch' } });
  });
});

describe('the dispatcher', () => {
  let productId: number;
  let platformId: number;
  beforeAll(async () => {
    productId = await addProduct(t, 'PUSHPK01', 1);
    platformId = (await mailPlatform({ name: 'Dispatch mail', sign_name: '告警中心' })).id;
    const common = { code: 'alarm', param: 'alarm', type: 2 };
    const zh = await add('v2/push/template', {
      ...common,
      name: '告警',
      lang: 'zh-CN',
      title: '{{dev_name}}：{{alarm_name}}',
      body: '{{user_name}}，您好！设备 {{dev_name}}（{{uid}}）于 {{alarm_time}} 发生 {{alarm_name}}。',
    });
    await add('v2/push/template', {
      ...common,
      name: 'Alarm',
      lang: 'en',
      title: '{{dev_name}}: {{alarm_name}}',
      body: 'Hello {{user_name}}, {{alarm_name}} on {{dev_name}}.',
    });
    await add('v2/push/link', { link_type: 2, link_id: productId, type: 7, platform_id: platformId, template_id: zh.id });
  });

  const params = {
    user_name: '小明',
    dev_name: '前门',
    uid: 'SIM-000009',
    alarm_name: '移动侦测',
    alarm_time: '2026-11-23 10:00',
    alarm_type: '1',
  };

  it("renders the linked template in each recipient's language, falls back to English and says so, and sends", async () => {
    const ids = await queueEvent(dbOf(t), {
      eventType: 7,
      linkType: 2,
      linkId: productId,
      recipients: [
        { to: 'xiaoming@example.com', lang: 'zh-CN' },
        { to: 'hans@example.com', lang: 'de' },
      ],
      params,
      source: 'event:langs',
    });
    expect(ids).toHaveLength(2);
    const queued = await records({ source: 'event:langs' });
    expect(queued.map((r) => r.state)).toEqual([PushState.PENDING, PushState.PENDING]);
    const before = smtp.mails.length;
    expect(await dispatchDue(services())).toBe(2);
    const mails = smtp.mails.slice(before);
    const zh = mails.find((m) => m.to === 'xiaoming@example.com');
    expect(zh?.subject).toBe('前门：移动侦测');
    expect(zh?.text).toContain('小明，您好！设备 前门（SIM-000009）于 2026-11-23 10:00 发生 移动侦测。');
    expect(zh?.from).toContain('告警中心');
    expect(mails.find((m) => m.to === 'hans@example.com')?.subject).toBe('前门: 移动侦测');
    const sent = await records({ source: 'event:langs' });
    expect(sent.map((r) => [r.recipient, r.state, r.lang, r.lang_fallback])).toEqual([
      ['hans@example.com', PushState.SENT, 'en', true],
      ['xiaoming@example.com', PushState.SENT, 'zh-CN', false],
    ]);
    // Nothing is due any more.
    expect(await dispatchDue(services())).toBe(0);
  });

  it('a device alarm reaches the app user bound to the device as a push record, and the alarm lists its pushes', async () => {
    const now = Math.floor(Date.now() / 1000);
    await dbOf(t)
      .insertInto('device')
      .values({ uid: 'PUSH-DEV-1', mac: '', dev_key: '', pk: 'PUSHPK01', comp_id: 1, gmt_create: now, gmt_update: now } as never)
      .execute();
    const ingest = (events: unknown[]) =>
      fetch(`${t.url}/api/v2/iot/ingest/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-key': INGEST_KEY },
        body: JSON.stringify({ events }),
      }).then((r) => r.json() as Promise<{ code: number }>);
    expect(
      (
        await ingest([
          { type: 'user_register', app_id: 501, comp_id: 1, user_id: 'meimei', lang: 'zh-CN', email: 'meimei@example.com' },
          { type: 'bind', uid: 'PUSH-DEV-1', app_id: 501, user_id: 'meimei' },
        ])
      ).code,
    ).toBe(200);
    expect((await ingest([{ type: 'alarm', uid: 'PUSH-DEV-1', alarm_type: 1, text: '移动侦测', ts: now }])).code).toBe(200);
    const pushes = ok(await t.call<Rec[]>('v2/umh/admin/alarmpush/list', { page_size: 50 }, { token: t.adminToken }));
    const mine = pushes.filter((p) => p.recipient === 'meimei@example.com');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ state: PushState.PENDING, lang: 'zh-CN', lang_fallback: false, title: 'PUSH-DEV-1：移动侦测' });
    const before = smtp.mails.length;
    await dispatchDue(services());
    expect(smtp.mails.slice(before).find((m) => m.to === 'meimei@example.com')?.subject).toBe('PUSH-DEV-1：移动侦测');
    const alarmId = Number(mine[0]?.source.split(':')[1]);
    const one = ok(await t.call<Rec[]>('v2/umh/admin/alarmpush/list', { alarm_id: alarmId }, { token: t.adminToken }));
    expect(one.map((p) => [p.recipient, p.state])).toEqual([['meimei@example.com', PushState.SENT]]);
    expect(ok(await t.call<Rec[]>('v2/umh/admin/alarmpush/list', { alarm_id: alarmId + 1000 }, { token: t.adminToken }))).toEqual([]);
  });

  it('an unreachable provider is retried later with backoff; a permanent refusal fails at once', async () => {
    const down = await mailPlatform({ name: 'Down', smtp_addr: '127.0.0.1', smtp_port: Number(new URL(await refusedUrl()).port) });
    const template = await add('v2/push/template', { name: 'Down', code: 'down', lang: 'en', type: 2, body: 'x' });
    await add('v2/push/link', { link_type: 1, link_id: 77, type: 8, platform_id: down.id, template_id: template.id });
    await queueEvent(dbOf(t), {
      eventType: 8,
      linkType: 1,
      linkId: 77,
      recipients: [{ to: 'a@example.com', lang: 'en' }],
      params: {},
      source: 'notice:down',
    });
    await dispatchDue(services());
    const [retrying] = await records({ source: 'notice:down' });
    expect(retrying).toMatchObject({ state: PushState.RETRYING, attempts: 1 });
    expect(retrying?.error).toMatch(/ECONNREFUSED|ECONNECTION|connect/i);
    const stored = await dbOf(t)
      .selectFrom('push_record')
      .select('next_attempt')
      .where('id', '=', Number(retrying?.id))
      .executeTakeFirstOrThrow();
    expect(Number(stored.next_attempt)).toBeGreaterThan(Date.now() / 1000 + 15);
    // Not due yet: the dispatcher leaves it.
    expect(await dispatchDue(services())).toBe(0);

    const hook = await startHttpStandIn(() => ({ status: 401, body: 'bad signature' }));
    const refusing = await add('v2/push/platform', {
      name: 'Hook 401',
      type: 4,
      platform: 'webhook',
      endpoint: hook.url,
      secret_key: 'hook-secret-987',
    });
    const tpl = await add('v2/push/template', { name: 'Hook', code: 'hook', lang: 'en', type: 4, body: 'y' });
    await add('v2/push/link', { link_type: 1, link_id: 78, type: 8, platform_id: refusing.id, template_id: tpl.id });
    await queueEvent(dbOf(t), {
      eventType: 8,
      linkType: 1,
      linkId: 78,
      recipients: [{ to: 'sub', lang: 'en' }],
      params: {},
      source: 'notice:hook',
    });
    await dispatchDue(services());
    const [failed] = await records({ source: 'notice:hook' });
    expect(failed).toMatchObject({ state: PushState.FAILED, attempts: 1 });
    expect(failed?.error).toContain('401');
    expect(failed?.error).not.toContain('hook-secret-987');
    await hook.close();
  });

  it('a webhook platform signs what it sends (the receiver checks the HMAC)', async () => {
    const secret = 'whsec-0123456789';
    const hook = await startHttpStandIn((req) => {
      const [ts, sig] = String(req.headers['x-signature'] ?? '')
        .split(',')
        .map((p) => p.split('=')[1]);
      const expected = crypto.createHmac('sha256', secret).update(`${ts}.${req.body}`).digest('hex');
      return sig === expected ? { status: 200, body: '{}' } : { status: 401, body: 'bad signature' };
    });
    const platform = await add('v2/push/platform', { name: 'Hook', type: 4, platform: 'webhook', endpoint: hook.url, secret_key: secret });
    const tpl = await add('v2/push/template', {
      name: 'Hook ok',
      code: 'hook-ok',
      lang: 'en',
      type: 4,
      param: 'alarm',
      title: '{{alarm_name}}',
      body: '{{dev_name}}',
    });
    await add('v2/push/link', { link_type: 1, link_id: 79, type: 7, platform_id: platform.id, template_id: tpl.id });
    await queueEvent(dbOf(t), {
      eventType: 7,
      linkType: 1,
      linkId: 79,
      recipients: [{ to: 'sub', lang: 'en' }],
      params,
      source: 'alarm:hook',
    });
    await dispatchDue(services());
    const [sent] = await records({ source: 'alarm:hook' });
    expect(sent).toMatchObject({ state: PushState.SENT, title: '移动侦测' });
    expect(JSON.parse(hook.received.at(-1)?.body ?? '{}')).toMatchObject({ body: '前门' });
    await hook.close();
  });

  it('keeps companies apart: a company admin sees its own records only', async () => {
    const other = await createCompanyAdmin(t, { name: 'Push Co', menuKeys: ['applist/record', 'applist/flatform'], userId: 'push_admin' });
    expect(await records({}, other.token)).toEqual([]);
    const listed = await t.call('v2/push/record/list', { comp_id: 1 }, { token: other.token });
    fails(listed, 406);
    const mine = await mailPlatform({ name: 'Other' });
    fails(await t.call('v2/push/platform/test', { id: mine.id, recipient: 'x@example.com' }, { token: other.token }), 406);
  });
});

describe('providers behind platforms (the platform fields mapped onto each provider)', () => {
  it('APNs: a test send reaches the HTTP/2 stand-in with a provider token it verifies', async () => {
    const team = ecKeyPair();
    const apns = await startApns(team.publicKey);
    const platform = await add('v2/push/platform', {
      name: 'iOS push',
      type: 3,
      platform: 'apns',
      key_id: APNS_KEY_ID,
      secret_id: APNS_TEAM_ID,
      app_id: APNS_BUNDLE_ID,
      key_secret: team.pem,
      endpoint: apns.url,
    });
    expect(platform.key_secret).toBe('******');
    const device = 'c'.repeat(64);
    const record = ok(
      await t.call<Rec>('v2/push/platform/test', { id: platform.id, recipient: device, lang: 'en' }, { token: t.adminToken }),
    );
    expect(record.state).toBe(PushState.SENT);
    expect(apns.pushes.at(-1)?.path).toBe(`/3/device/${device}`);
    expect(JSON.stringify(apns.pushes.at(-1)?.body)).toContain('Test message from iOS push');
    const gone = ok(await t.call<Rec>('v2/push/platform/test', { id: platform.id, recipient: APNS_GONE_DEVICE }, { token: t.adminToken }));
    expect(gone).toMatchObject({ state: PushState.FAILED });
    expect(gone.error).toContain('410');
    await apns.close();
  });

  it('FCM: the service-account file in the platform gets a token by a signed assertion the stand-in verifies, then sends', async () => {
    const account = rsaKeyPair();
    const issued = new Set<string>();
    const sent: { token: string; title: string }[] = [];
    const fcm = await startHttpStandIn((req) => {
      if (req.path === '/token') {
        const jwt = jwtParts(formOf(req.body).assertion ?? '');
        const valid = crypto.verify('sha256', jwt.signingInput, account.publicKey, jwt.signature);
        if (!valid || jwt.claims.iss !== 'push@iot.example.com') return { status: 400, body: { error: 'invalid_grant' } };
        const token = `ya29.${crypto.randomBytes(8).toString('hex')}`;
        issued.add(token);
        return { status: 200, body: { access_token: token, expires_in: 3599, token_type: 'Bearer' } };
      }
      const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
      if (!bearer || !issued.has(bearer) || req.path !== '/v1/projects/iot-fcm/messages:send')
        return { status: 401, body: { error: { code: 401, status: 'UNAUTHENTICATED' } } };
      const { message } = JSON.parse(req.body) as { message: { token: string; notification: { title: string } } };
      sent.push({ token: message.token, title: message.notification.title });
      return { status: 200, body: { name: 'projects/iot-fcm/messages/0:1' } };
    });
    const serviceAccount = (pem: string) =>
      JSON.stringify({
        type: 'service_account',
        project_id: 'iot-fcm',
        private_key: pem,
        client_email: 'push@iot.example.com',
        token_uri: `${fcm.url}/token`,
      });
    const platform = await add('v2/push/platform', {
      name: 'Android push',
      type: 3,
      platform: 'fcm',
      app_id: 'iot-fcm',
      key_secret: serviceAccount(account.pem),
      endpoint: fcm.url,
    });
    expect(platform.key_secret).toBe('******');
    const record = ok(
      await t.call<Rec>('v2/push/platform/test', { id: platform.id, recipient: 'fcm-device-1', lang: 'en' }, { token: t.adminToken }),
    );
    expect(record.state).toBe(PushState.SENT);
    expect(sent).toEqual([{ token: 'fcm-device-1', title: 'Test message from Android push' }]);
    // Another account's key: the stand-in refuses the assertion; the record fails with no key in its error.
    const other = rsaKeyPair();
    ok(await t.call('v2/push/platform/set', { id: platform.id, key_secret: serviceAccount(other.pem) }, { token: t.adminToken }));
    const refused = ok(await t.call<Rec>('v2/push/platform/test', { id: platform.id, recipient: 'fcm-device-1' }, { token: t.adminToken }));
    expect(refused.state).toBe(PushState.FAILED);
    expect(refused.error).not.toContain('PRIVATE KEY');
    await fcm.close();
  });

  it('Aliyun SMS: the template code and parameters go in a request the stand-in signature-checks', async () => {
    const sms = await startHttpStandIn(aliyunCheck({ LTAI5tPlatformKey: 'aliyun-Platform-Secret-0123' }));
    const good = await add('v2/push/platform', {
      name: 'SMS',
      type: 1,
      platform: 'aliyun_sms',
      key_id: 'LTAI5tPlatformKey',
      key_secret: 'aliyun-Platform-Secret-0123',
      sign_name: '智能看家',
      endpoint: sms.url,
    });
    const template = await add('v2/push/template', { name: 'Code', code: 'SMS_4829', lang: 'zh-CN', type: 1, body: '验证码 {{code}}' });
    const record = ok(
      await t.call<Rec>(
        'v2/push/template/test',
        { id: template.id, platform_id: good.id, recipient: '+8613800138000' },
        { token: t.adminToken },
      ),
    );
    expect(record.state).toBe(PushState.SENT);
    const form = Object.fromEntries(new URLSearchParams(sms.received.at(-1)?.body ?? ''));
    expect(form).toMatchObject({ Action: 'SendSms', TemplateCode: 'SMS_4829', SignName: '智能看家' });
    expect(form.PhoneNumbers).toContain('13800138000');
    expect(JSON.parse(form.TemplateParam ?? '{}')).toMatchObject({ code: '482913' });
    const wrong = await add('v2/push/platform', {
      ...good,
      id: undefined,
      name: 'SMS wrong',
      key_secret: 'aliyun-Wrong-Secret-999',
      endpoint: sms.url,
    });
    const failed = ok(
      await t.call<Rec>(
        'v2/push/template/test',
        { id: template.id, platform_id: wrong.id, recipient: '+8613800138000' },
        { token: t.adminToken },
      ),
    );
    expect(failed.state).toBe(PushState.FAILED);
    expect(failed.error).not.toContain('aliyun-Wrong-Secret-999');
    await sms.close();
  });
});

describe('push records at depth', () => {
  it('pages newest first from the day counters exactly as a row-by-row walk does, deep pages and counts included', async () => {
    const other = await createCompanyAdmin(t, { name: 'Deep Co', menuKeys: ['applist/record'], userId: 'deep_admin' });
    const start = Math.floor(Date.now() / 1000) - 5 * 86_400;
    // 3,000 records over five days in two companies (2,000 of them Deep Co's, and only those) and two channels, written in one statement (the triggers count them).
    await sql`
      insert into push_record (comp_id, channel, recipient, lang, state, source, gmt_create, next_attempt)
      select case when g % 3 = 0 then 1 else ${other.compId} end, 1 + g % 2, 'r' || g, 'en', 2, 'bulk', ${start} + g * 140, 0
      from generate_series(1, 3000) g`.execute(dbOf(t));
    const page = async (body: Record<string, unknown>, token = t.adminToken) => {
      const a = await t.call<Rec[]>('v2/push/record/list', body, { token });
      expect(a.code).toBe(200);
      return { ids: a.data.map((r) => r.id), count: a.count };
    };
    // The same pages through the list kit: a filter the counters cannot answer (source) that every bulk row matches.
    for (const [paging, extra] of [
      [{ page_no: 1, page_size: 20 }, {}],
      [{ page_no: 70, page_size: 20 }, {}],
      [{ page_no: 40, page_size: 25 }, { channel: 2 }],
      [
        { page_no: 30, page_size: 10 },
        { gmt_start: start + 86_400 + 500, gmt_end: start + 3 * 86_400 + 77 },
      ],
    ] as const) {
      const fast = await page({ ...paging, ...extra }, other.token);
      const walked = await page({ ...paging, ...extra, source: 'bulk' }, other.token);
      expect(fast.ids.length).toBeGreaterThan(0);
      expect(fast).toEqual(walked);
    }
    expect((await page({ page_no: 1, page_size: 10 }, other.token)).count).toBe(2000);
    // The super administrator's count adds the platform company's thousand.
    const all = await page({ page_no: 1, page_size: 10 });
    const platformOnes = (await page({ page_no: 1, page_size: 10, comp_id: 1 })).count ?? 0;
    expect(all.count).toBe(2000 + platformOnes);
    expect(platformOnes).toBeGreaterThanOrEqual(1000);
  });
});
