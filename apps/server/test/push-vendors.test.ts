import { PushChannel, PushState } from '@iot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobServicesOf } from '../src/modules/iot/job-files.js';
import { dispatchDue, queueEvent } from '../src/modules/push/dispatch.service.js';
import { formOf, type HttpStandIn, startHttpStandIn, tencentCheck } from './delivery-stand-ins.js';
import { startHonor, startHuawei, startVivo, type VendorStandIn } from './delivery-vendor-stand-ins.js';
import { startTestServer, type TestServer } from './harness.js';
import { addProduct, dbOf, ok } from './helpers.js';

/**
 * Push platforms of the Android vendors (Huawei, vivo, Honor) and Tencent Cloud SMS: the
 * platform's fields (docs/api.md) reach each provider's stand-in through the API's test send and
 * through the dispatcher, the outcome lands in the push records, and no answer shows a secret.
 */
let t: TestServer;
const INGEST_KEY = 'vendor-ingest-key';
const HW = { appId: '104859023', clientId: 'hw-client-7', secret: 'hw-Platform-Secret-0a1b2c' };
const HONOR = { appId: '104437452', clientId: 'honor-client-9', secret: 'honor-Platform-Secret-3d4e' };
const VIVO = { appId: '105612345', appKey: 'vivo-platform-key', appSecret: 'vivo-Platform-Secret-5f6a' };
const TENCENT = { secretId: 'AKIDplatformSecretId01', secretKey: 'tencent-Platform-Key-7b8c' };
const SECRETS = [HW.secret, HONOR.secret, VIVO.appSecret, TENCENT.secretKey, 'hw-Wrong-Secret-999', 'vivo-Wrong-Secret-999'];

let huawei: VendorStandIn;
let honor: VendorStandIn;
let vivo: VendorStandIn;
let tencent: HttpStandIn;
/** Every answer of the API in this file, to check that none shows a secret. */
const answers: string[] = [];

beforeAll(async () => {
  t = await startTestServer({ jobWorkers: 0, pushSweepMs: 0, ingestServiceKey: INGEST_KEY });
  huawei = await startHuawei({ [HW.clientId]: HW.secret, [HW.appId]: HW.secret }, HW.appId);
  honor = await startHonor({ [HONOR.clientId]: HONOR.secret }, HONOR.appId);
  vivo = await startVivo(VIVO);
  tencent = await startHttpStandIn(tencentCheck({ [TENCENT.secretId]: TENCENT.secretKey }));
});
afterAll(async () => {
  await t?.close();
  await Promise.all([huawei?.close(), honor?.close(), vivo?.close(), tencent?.close()]);
});

type Row = Record<string, unknown> & { id: number };
type Rec = { id: number; state: number; attempts: number; error: string; recipient: string; provider_id: string; title: string };

const call = async <T>(path: string, body: Record<string, unknown>) => {
  const answer = await t.call<T>(path, body, { token: t.adminToken });
  answers.push(JSON.stringify(answer));
  return ok(answer);
};
const add = (base: string, body: Record<string, unknown>) => call<Row>(`${base}/add`, body);
const testSend = (id: number, recipient: string, extra: Record<string, unknown> = {}) =>
  call<Rec>('v2/push/platform/test', { id, recipient, lang: 'en', ...extra });
const recordsOf = (platformId: number) => call<Rec[]>('v2/push/record/list', { platform_id: platformId, page_size: 100 });

/** Platform bodies pointed at the stand-ins. */
const huaweiPlatform = (name: string) => ({
  name,
  type: PushChannel.PUSH,
  platform: 'huawei',
  app_id: HW.appId,
  secret_id: HW.clientId,
  secret_key: HW.secret,
  endpoint: huawei.url,
});
const vivoPlatform = (name: string) => ({
  name,
  type: PushChannel.PUSH,
  platform: 'vivo',
  app_id: VIVO.appId,
  key_id: VIVO.appKey,
  secret_key: VIVO.appSecret,
  endpoint: vivo.url,
});

describe('vendor push platforms: a test send through the API', () => {
  it('Huawei: the token from the client id and secret, the notification to the push token, the outcome recorded', async () => {
    const platform = await add('v2/push/platform', huaweiPlatform('Huawei phones'));
    expect(platform.secret_key).toBe('******');
    const record = await testSend(platform.id, 'hw-device-token-1');
    expect(record).toMatchObject({ state: PushState.SENT, provider_id: '157440955549500001002006', error: '' });
    const [auth, send] = huawei.received.slice(-2);
    expect(formOf(auth?.body ?? '')).toEqual({ grant_type: 'client_credentials', client_id: HW.clientId, client_secret: HW.secret });
    expect(send?.path).toBe(`/v1/${HW.appId}/messages:send`);
    expect(huawei.pushes.at(-1)?.body).toMatchObject({
      validate_only: false,
      message: {
        notification: { title: 'Test message from Huawei phones' },
        android: { notification: { title: 'Test message from Huawei phones', click_action: { type: 3 } } },
        token: ['hw-device-token-1'],
      },
    });
    expect(await recordsOf(platform.id)).toMatchObject([
      { id: record.id, state: PushState.SENT, recipient: 'hw-device-token-1', provider_id: '157440955549500001002006' },
    ]);

    // No client id: the App ID is the OAuth client (AppGallery Connect's default).
    const plain = await add('v2/push/platform', { ...platform, id: undefined, name: 'Huawei plain', secret_id: '', secret_key: HW.secret });
    expect(await testSend(plain.id, 'hw-device-token-2')).toMatchObject({ state: PushState.SENT });
    expect(formOf(huawei.received.at(-2)?.body ?? '')).toMatchObject({ client_id: HW.appId });

    // A wrong secret: refused at the token, failed for good, the secret the stand-in quotes masked.
    await call('v2/push/platform/set', { id: platform.id, secret_key: 'hw-Wrong-Secret-999' });
    const failed = await testSend(platform.id, 'hw-device-token-1');
    expect(failed).toMatchObject({ state: PushState.FAILED, attempts: 1 });
    expect(failed.error).toBe('huawei: HTTP 401 auth: 1101 20058 invalid client_secret ***');
  });

  it('vivo: the MD5-signed auth from the app id, key and secret, then the notification to the regId', async () => {
    const platform = await add('v2/push/platform', vivoPlatform('vivo phones'));
    const record = await testSend(platform.id, 'vivo-reg-1');
    expect(record).toMatchObject({ state: PushState.SENT, provider_id: '642467287613526016' });
    expect(vivo.pushes.at(-1)?.body).toMatchObject({
      regId: 'vivo-reg-1',
      notifyType: 4,
      skipType: 1,
      title: 'Test message from vivo phones',
      content: expect.stringContaining('vivo phones'),
    });
    expect(vivo.received.at(-2)?.body).not.toContain(VIVO.appSecret);
    expect(await recordsOf(platform.id)).toMatchObject([{ state: PushState.SENT, recipient: 'vivo-reg-1' }]);

    await call('v2/push/platform/set', { id: platform.id, secret_key: 'vivo-Wrong-Secret-999' });
    expect(await testSend(platform.id, 'vivo-reg-1')).toMatchObject({ state: PushState.FAILED, error: 'vivo: auth: 10202 sign invalid' });
  });

  it('Honor: the token from the client id and secret, the notification with its timestamp header', async () => {
    const platform = await add('v2/push/platform', {
      name: 'Honor phones',
      type: PushChannel.PUSH,
      platform: 'honor',
      app_id: HONOR.appId,
      secret_id: HONOR.clientId,
      secret_key: HONOR.secret,
      endpoint: honor.url,
    });
    const record = await testSend(platform.id, 'honor-token-1');
    expect(record).toMatchObject({ state: PushState.SENT, provider_id: '1713254869786318848' });
    expect(honor.received.at(-1)?.path).toBe(`/api/v1/${HONOR.appId}/sendMessage`);
    expect(Number(honor.received.at(-1)?.headers.timestamp)).toBeGreaterThan(Date.now() - 60_000);
    expect(honor.pushes.at(-1)?.body).toMatchObject({
      notification: { title: 'Test message from Honor phones' },
      android: { notification: { clickAction: { type: 3 } } },
      token: ['honor-token-1'],
    });
    // A push token the service reports expired: failed for good.
    expect(await testSend(platform.id, 'gone-honor-1')).toMatchObject({ state: PushState.FAILED, error: 'honor: token expired' });
    // Honor has no default client id: without one the platform is a bad config, named by field.
    await call('v2/push/platform/set', { id: platform.id, secret_id: '' });
    expect(await testSend(platform.id, 'honor-token-1')).toMatchObject({
      state: PushState.FAILED,
      error: 'honor: invalid config: client_id',
    });
  });

  it('Tencent Cloud SMS: SdkAppId, sign name, region and the template code in a TC3-signed SendSms', async () => {
    const platform = await add('v2/push/platform', {
      name: 'Tencent SMS',
      type: PushChannel.SMS,
      platform: 'tencent_sms',
      secret_id: TENCENT.secretId,
      secret_key: TENCENT.secretKey,
      app_id: '1400006666',
      sign_name: '智能看家',
      zone: 'ap-beijing',
      endpoint: tencent.url,
    });
    const template = await add('v2/push/template', { name: 'Code', code: '449739', lang: 'zh-CN', type: 1, body: '验证码 {{code}}' });
    const record = await testSend(platform.id, '+8613800138000', { template_id: template.id });
    expect(record).toMatchObject({ state: PushState.SENT, provider_id: '5000:1045710669157053657849499619' });
    const req = tencent.received.at(-1);
    expect(req?.headers['x-tc-region']).toBe('ap-beijing');
    const body = JSON.parse(req?.body ?? '{}') as Record<string, unknown>;
    expect(body).toMatchObject({
      PhoneNumberSet: ['+8613800138000'],
      SmsSdkAppId: '1400006666',
      SignName: '智能看家',
      TemplateId: '449739',
    });
    expect(body.TemplateParamSet).toContain('482913');

    await call('v2/push/platform/set', { id: platform.id, secret_key: 'tencent-Wrong-Key-0000' });
    const failed = await testSend(platform.id, '+8613800138000', { template_id: template.id });
    expect(failed).toMatchObject({ state: PushState.FAILED });
    expect(failed.error).toMatch(/^sms_tencent: AuthFailure\.SignatureFailure /);
    expect(failed.error).not.toContain('tencent-Wrong-Key-0000');
  });
});

describe('vendor push platforms behind the dispatcher', () => {
  it('an event reaches the push platform with the push recipient and the SMS platform with the phone; an overloaded service is retried', async () => {
    const hw = await add('v2/push/platform', huaweiPlatform('Huawei alarms'));
    const sms = await add('v2/push/platform', {
      name: 'Tencent alarms',
      type: PushChannel.SMS,
      platform: 'tencent_sms',
      secret_id: TENCENT.secretId,
      secret_key: TENCENT.secretKey,
      app_id: '1400006666',
      sign_name: '智能看家',
      endpoint: tencent.url,
    });
    const pushTemplate = await add('v2/push/template', {
      name: 'Alarm push',
      code: 'alarm_push',
      lang: 'en',
      type: PushChannel.PUSH,
      param: 'alarm',
      title: '{{dev_name}}: {{alarm_name}}',
      body: '{{alarm_name}} on {{dev_name}}',
    });
    const smsTemplate = await add('v2/push/template', {
      name: 'Alarm SMS',
      code: '551234',
      lang: 'en',
      type: PushChannel.SMS,
      param: 'alarm',
      body: '{{alarm_name}} on {{dev_name}}',
    });
    await add('v2/push/link', { link_type: 1, link_id: 880, type: 7, platform_id: hw.id, template_id: pushTemplate.id });
    await add('v2/push/link', { link_type: 1, link_id: 880, type: 7, platform_id: sms.id, template_id: smsTemplate.id });

    const ids = await queueEvent(dbOf(t), {
      eventType: 7,
      linkType: 1,
      linkId: 880,
      recipients: [
        { to: 'alarm@example.com', lang: 'en', channel: PushChannel.EMAIL },
        { to: '+8613900139000', lang: 'en', channel: PushChannel.SMS },
        { to: 'hw-user-token', lang: 'en', channel: PushChannel.PUSH },
        { to: 'busy-hw-token', lang: 'en', channel: PushChannel.PUSH },
      ],
      params: { dev_name: 'Front door', alarm_name: 'Motion', uid: 'SIM-1', alarm_type: '1' },
      source: 'event:vendors',
    });
    expect(ids).toHaveLength(3);
    const smsBefore = tencent.received.length;
    const pushesBefore = huawei.pushes.length;
    await dispatchDue(jobServicesOf(t.app));

    expect(huawei.pushes.slice(pushesBefore).map((p) => (p.body.message as { token: string[] }).token)).toEqual([['hw-user-token']]);
    expect(huawei.pushes.at(-1)?.body).toMatchObject({
      message: { notification: { title: 'Front door: Motion', body: 'Motion on Front door' } },
    });
    const smsSent = tencent.received.slice(smsBefore).map((r) => JSON.parse(r.body) as { PhoneNumberSet: string[]; TemplateId: string });
    expect(smsSent.map((b) => [b.PhoneNumberSet, b.TemplateId])).toEqual([[['+8613900139000'], '551234']]);

    const byRecipient = Object.fromEntries(
      [...(await recordsOf(hw.id)), ...(await recordsOf(sms.id))].map((r) => [r.recipient, [r.state, r.attempts]]),
    );
    expect(byRecipient).toEqual({
      'hw-user-token': [PushState.SENT, 1],
      'busy-hw-token': [PushState.RETRYING, 1],
      '+8613900139000': [PushState.SENT, 1],
    });
  });

  it("an alarm reaches a bound user's phone by the push token it signed in with, through a platform of that token's provider", async () => {
    const now = Math.floor(Date.now() / 1000);
    await addProduct(t, 'TOKENPK1', 1);
    await dbOf(t)
      .insertInto('device')
      .values({ uid: 'TOKEN-DEV-1', mac: '', dev_key: '', pk: 'TOKENPK1', comp_id: 1, gmt_create: now, gmt_update: now } as never)
      .execute();
    const ingest = async (events: unknown[]) => {
      const res = await fetch(`${t.url}/api/v2/iot/ingest/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-key': INGEST_KEY },
        body: JSON.stringify({ events }),
      });
      return (await res.json()) as { code: number; data: { refused?: { index: number; reason: string }[] } | null };
    };
    // Half a token is refused: the provider and the token come together.
    expect((await ingest([{ type: 'user_login', app_id: 990, user_id: 'lei', push_provider: 'huawei' }])).code).toBe(406);
    const signedIn = await ingest([
      { type: 'user_register', app_id: 990, comp_id: 1, user_id: 'lei', lang: 'en', ts: now - 300 },
      { type: 'user_login', app_id: 990, user_id: 'LEI', push_provider: 'huawei', push_token: 'hw-old-phone', ts: now - 200 },
      { type: 'user_login', app_id: 990, user_id: 'lei', push_provider: 'huawei', push_token: 'hw-new-phone', ts: now - 100 },
      { type: 'bind', uid: 'TOKEN-DEV-1', app_id: 990, user_id: 'lei' },
    ]);
    expect(signedIn).toMatchObject({ code: 200 });
    // A sign-in older than the token kept does not bring the old phone back.
    expect(
      (
        await ingest([
          { type: 'user_login', app_id: 990, user_id: 'lei', push_provider: 'huawei', push_token: 'hw-old-phone', ts: now - 150 },
        ])
      ).code,
    ).toBe(200);

    const hw = await add('v2/push/platform', huaweiPlatform('Huawei alarms 990'));
    const vivoAlarms = await add('v2/push/platform', vivoPlatform('vivo alarms 990'));
    const template = await add('v2/push/template', {
      name: 'Alarm push 990',
      code: 'alarm_push_990',
      lang: 'en',
      type: PushChannel.PUSH,
      param: 'alarm',
      title: '{{dev_name}}: {{alarm_name}}',
      body: '{{alarm_name}} for {{user_name}}',
    });
    for (const platform of [hw, vivoAlarms])
      await add('v2/push/link', { link_type: 1, link_id: 990, type: 7, platform_id: platform.id, template_id: template.id });

    expect((await ingest([{ type: 'alarm', uid: 'TOKEN-DEV-1', alarm_type: 3, text: 'Person', ts: now }])).code).toBe(200);
    // The user's phone is a Huawei one: one record, to its newest token; none through vivo.
    expect((await recordsOf(hw.id)).map((r) => [r.recipient, r.state])).toEqual([['hw-new-phone', PushState.PENDING]]);
    expect(await recordsOf(vivoAlarms.id)).toEqual([]);
    const before = huawei.pushes.length;
    await dispatchDue(jobServicesOf(t.app));
    expect(huawei.pushes.slice(before).map((p) => p.body.message)).toMatchObject([
      { token: ['hw-new-phone'], notification: { title: 'TOKEN-DEV-1: Person', body: 'Person for lei' } },
    ]);
    expect((await recordsOf(hw.id)).map((r) => r.state)).toEqual([PushState.SENT]);
    // The console's user detail says which phones the user can be reached on.
    const [lei] = await call<Row[]>('v2/umh/admin/user/list', { user_id: 'lei', app_id: 990 });
    expect(await call<Row>('v2/umh/admin/user/get', { id: lei?.id })).toMatchObject({ user_id: 'lei', push_providers: ['huawei'] });

    // The app was uninstalled from that phone: Huawei calls the token gone, the record fails for good
    // and the token is forgotten, so the next alarm sends nothing there.
    await ingest([{ type: 'user_login', app_id: 990, user_id: 'lei', push_provider: 'huawei', push_token: 'gone-hw-phone', ts: now + 10 }]);
    await ingest([{ type: 'alarm', uid: 'TOKEN-DEV-1', alarm_type: 3, text: 'Person', ts: now + 20 }]);
    await dispatchDue(jobServicesOf(t.app));
    expect((await recordsOf(hw.id)).map((r) => [r.recipient, r.state])).toEqual([
      ['gone-hw-phone', PushState.FAILED],
      ['hw-new-phone', PushState.SENT],
    ]);
    expect(await call<Row>('v2/umh/admin/user/get', { id: lei?.id })).toMatchObject({ push_providers: [] });
    await ingest([{ type: 'alarm', uid: 'TOKEN-DEV-1', alarm_type: 3, text: 'Person', ts: now + 30 }]);
    expect(await recordsOf(hw.id)).toHaveLength(2);
  });

  it('no answer of this file showed a secret', async () => {
    const list = await call<Row[]>('v2/push/platform/list', { page_size: 100 });
    expect(list.length).toBeGreaterThanOrEqual(6);
    for (const row of list) if (row.secret_key) expect(row.secret_key).toBe('******');
    const all = answers.join('\n');
    for (const secret of SECRETS) expect(all).not.toContain(secret);
  });
});
