import crypto from 'node:crypto';
import { render } from '@iot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAliyunSmsProvider } from '../src/platform/delivery/adapters/aliyun-sms.js';
import { createFcmProvider } from '../src/platform/delivery/adapters/fcm.js';
import { createOppoProvider } from '../src/platform/delivery/adapters/oppo.js';
import { createTencentSmsProvider } from '../src/platform/delivery/adapters/tencent-sms.js';
import { createWebhookProvider, verifyWebhookSignature } from '../src/platform/delivery/adapters/webhook.js';
import { createXiaomiProvider } from '../src/platform/delivery/adapters/xiaomi.js';
import type { DeliveryResult } from '../src/platform/delivery/provider.js';
import { createProviders } from '../src/platform/delivery/providers.js';
import {
  aliyunCheck,
  formOf,
  type HttpStandIn,
  jwtParts,
  refusedUrl,
  rsaKeyPair,
  startHttpStandIn,
  tencentCheck,
} from './delivery-stand-ins.js';

const errorOf = (r: DeliveryResult) => (r.ok ? '' : r.error);

const alarm = render(
  { title: '{{dev_name}} 告警', body: '设备 {{dev_name}}（{{uid}}）于 {{alarm_time}} 检测到移动侦测' },
  { dev_name: '客厅摄像头', uid: 'UID-0001', alarm_time: '2025-01-02 03:04:05' },
);

describe('webhook', () => {
  const SECRET = 'whsec_5b0c1d2e3f';
  let standIn: HttpStandIn;
  const webhook = createWebhookProvider();

  beforeAll(async () => {
    standIn = await startHttpStandIn((req) => {
      // The receiver's check, from the documented scheme: HMAC-SHA256(secret, t + "." + raw body), hex.
      const header = String(req.headers['x-signature'] ?? '');
      const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
      if (!m) return { status: 401, body: { error: 'no signature' } };
      const expected = crypto.createHmac('sha256', SECRET).update(`${m[1]}.${req.body}`).digest('hex');
      if (expected !== m[2] || Math.abs(Date.now() / 1000 - Number(m[1])) > 300) return { status: 401, body: { error: 'bad signature' } };
      if (req.path === '/busy') return { status: 429, headers: { 'retry-after': '120' }, body: { error: 'slow down' } };
      if (req.path === '/broken') return { status: 503, body: 'upstream down' };
      return { status: 204 };
    });
  });
  afterAll(() => standIn.close());

  it('posts the signed JSON body, zh-CN intact', async () => {
    const result = await webhook.send(
      { endpoint: `${standIn.url}/hook`, secret_key: SECRET },
      { ...alarm, id: 'rec-7', data: { uid: 'UID-0001' } },
      { to: 'user-1', lang: 'zh-CN' },
    );
    expect(result).toEqual({ ok: true, providerId: 'rec-7' });
    const req = standIn.received.at(-1)!;
    expect(req.method).toBe('POST');
    expect(req.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(req.headers['x-delivery-id']).toBe('rec-7');
    expect(JSON.parse(req.body)).toMatchObject({
      id: 'rec-7',
      to: 'user-1',
      lang: 'zh-CN',
      title: '客厅摄像头 告警',
      body: '设备 客厅摄像头（UID-0001）于 2025-01-02 03:04:05 检测到移动侦测',
      data: { uid: 'UID-0001' },
    });
    expect(verifyWebhookSignature(String(req.headers['x-signature']), req.body, SECRET)).toBe(true);
    expect(verifyWebhookSignature(String(req.headers['x-signature']), `${req.body} `, SECRET)).toBe(false);
    expect(verifyWebhookSignature(String(req.headers['x-signature']), req.body, SECRET, Math.floor(Date.now() / 1000) + 301)).toBe(false);
  });

  it('a wrong secret is refused (401): not retried, secret not in the error', async () => {
    const result = await webhook.send({ endpoint: `${standIn.url}/hook`, secret_key: 'whsec_wrong_value' }, alarm, { to: 'u' });
    expect(result).toMatchObject({ ok: false, retryable: false, status: 401 });
    expect(errorOf(result)).toBe('webhook: HTTP 401 bad signature');
  });

  it('429 with Retry-After and 5xx are retryable', async () => {
    expect(await webhook.send({ endpoint: `${standIn.url}/busy`, secret_key: SECRET }, alarm, { to: 'u' })).toMatchObject({
      ok: false,
      retryable: true,
      status: 429,
      retryAfterMs: 120_000,
    });
    expect(await webhook.send({ endpoint: `${standIn.url}/broken`, secret_key: SECRET }, alarm, { to: 'u' })).toMatchObject({
      ok: false,
      retryable: true,
      status: 503,
    });
  });
});

describe('Aliyun SMS', () => {
  const KEYS: Record<string, string> = { LTAI5tExampleKeyId: 'aliyun-Secret-0123456789abcdef' };
  let standIn: HttpStandIn;
  const sms = createAliyunSmsProvider();

  beforeAll(async () => {
    standIn = await startHttpStandIn(aliyunCheck(KEYS));
  });
  afterAll(() => standIn.close());

  const config = () => ({
    key_id: 'LTAI5tExampleKeyId',
    key_secret: 'aliyun-Secret-0123456789abcdef',
    sign_name: '智能看家',
    endpoint: standIn.url,
  });

  it('sends a signed SendSms with the template code and parameters', async () => {
    const result = await sms.send(
      config(),
      { title: '', body: '', templateCode: 'SMS_154950909', params: { code: '428913', app_name: '智能看家 (Pro)*' } },
      { to: '+8613800138000' },
    );
    expect(result).toEqual({ ok: true, providerId: '900619746936498440^0' });
    const params = formOf(standIn.received.at(-1)!.body);
    expect(params).toMatchObject({
      Action: 'SendSms',
      Version: '2017-05-25',
      SignatureMethod: 'HMAC-SHA1',
      SignatureVersion: '1.0',
      Format: 'JSON',
      RegionId: 'cn-hangzhou',
      PhoneNumbers: '8613800138000',
      SignName: '智能看家',
      TemplateCode: 'SMS_154950909',
    });
    expect(JSON.parse(params.TemplateParam ?? '')).toEqual({ code: '428913', app_name: '智能看家 (Pro)*' });
    expect(params.Timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('a wrong secret fails the signature: not retried, secret not in the error', async () => {
    const result = await sms.send(
      { ...config(), key_secret: 'aliyun-Wrong-Secret-000' },
      { title: '', body: '', templateCode: 'SMS_1', params: { code: '1' } },
      { to: '13800138000' },
    );
    expect(result).toMatchObject({ ok: false, retryable: false, status: 400, code: 'SignatureDoesNotMatch' });
    expect(errorOf(result)).not.toContain('aliyun-Wrong-Secret-000');
  });

  it('business errors: a bad number is final, flow control is retried', async () => {
    const msg = { title: '', body: '', templateCode: 'SMS_1', params: { code: '1' } };
    expect(await sms.send(config(), msg, { to: '0000' })).toMatchObject({
      ok: false,
      retryable: false,
      code: 'isv.MOBILE_NUMBER_ILLEGAL',
      invalidRecipient: true,
    });
    expect(await sms.send(config(), msg, { to: '1111' })).toMatchObject({ ok: false, retryable: true, code: 'isv.BUSINESS_LIMIT_CONTROL' });
    expect(await sms.send(config(), { title: '', body: '' }, { to: '1' })).toMatchObject({ ok: false, retryable: false, code: 'CONFIG' });
  });
});

describe('Tencent Cloud SMS', () => {
  const SECRETS: Record<string, string> = { AKIDexampleSecretId: 'tencent-SecretKey-0123456789' };
  let standIn: HttpStandIn;
  const sms = createTencentSmsProvider();

  beforeAll(async () => {
    standIn = await startHttpStandIn(tencentCheck(SECRETS));
  });
  afterAll(() => standIn.close());

  const config = () => ({
    secret_id: 'AKIDexampleSecretId',
    secret_key: 'tencent-SecretKey-0123456789',
    app_id: '1400006666',
    sign_name: '智能看家',
    endpoint: standIn.url,
  });

  it('sends a TC3-signed SendSms with positional template parameters', async () => {
    const result = await sms.send(
      config(),
      { title: '', body: '', templateCode: '449739', params: { code: '428913', minutes: '10' }, id: 'rec-3' },
      { to: '+8613800138000' },
    );
    expect(result).toEqual({ ok: true, providerId: '5000:1045710669157053657849499619' });
    const req = standIn.received.at(-1)!;
    expect(req.headers['x-tc-region']).toBe('ap-guangzhou');
    expect(JSON.parse(req.body)).toEqual({
      PhoneNumberSet: ['+8613800138000'],
      SmsSdkAppId: '1400006666',
      SignName: '智能看家',
      TemplateId: '449739',
      TemplateParamSet: ['428913', '10'],
      SessionContext: 'rec-3',
    });
  });

  it('a wrong secret fails the signature: not retried, secret not in the error', async () => {
    const result = await sms.send(
      { ...config(), secret_key: 'tencent-Wrong-Key-1' },
      { title: '', body: '', templateCode: '1' },
      { to: '+8613800138000' },
    );
    expect(result).toMatchObject({ ok: false, retryable: false, code: 'AuthFailure.SignatureFailure' });
    expect(errorOf(result)).not.toContain('tencent-Wrong-Key-1');
  });

  it('a bad number is final and marks the recipient invalid', async () => {
    expect(await sms.send(config(), { title: '', body: '', templateCode: '1' }, { to: '+860' })).toMatchObject({
      ok: false,
      retryable: false,
      code: 'InvalidParameterValue.IncorrectPhoneNumber',
      invalidRecipient: true,
    });
  });
});

describe('FCM HTTP v1', () => {
  const account = rsaKeyPair();
  const CLIENT_EMAIL = 'push@iot-console.iam.gserviceaccount.com';
  const issued = new Set<string>();
  let standIn: HttpStandIn;
  const fcm = createFcmProvider();

  beforeAll(async () => {
    standIn = await startHttpStandIn((req) => {
      if (req.path === '/token') {
        const form = formOf(req.body);
        if (form.grant_type !== 'urn:ietf:params:oauth:grant-type:jwt-bearer' || !form.assertion)
          return { status: 400, body: { error: 'unsupported_grant_type' } };
        const jwt = jwtParts(form.assertion);
        const valid = crypto.verify('sha256', jwt.signingInput, account.publicKey, jwt.signature);
        const { claims, header } = jwt;
        if (!valid || header.alg !== 'RS256')
          return { status: 400, body: { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' } };
        const now = Date.now() / 1000;
        const claimsOk =
          claims.iss === CLIENT_EMAIL &&
          claims.aud === `${standIn.url}/token` &&
          claims.scope === 'https://www.googleapis.com/auth/firebase.messaging' &&
          typeof claims.iat === 'number' &&
          Math.abs(claims.iat - now) < 60 &&
          claims.exp === claims.iat + 3600;
        if (!claimsOk) return { status: 400, body: { error: 'invalid_grant', error_description: 'Invalid claims' } };
        const token = `ya29.${crypto.randomBytes(16).toString('hex')}`;
        issued.add(token);
        return { status: 200, body: { access_token: token, expires_in: 3599, token_type: 'Bearer' } };
      }
      const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
      if (!bearer || !issued.has(bearer))
        return {
          status: 401,
          body: { error: { code: 401, status: 'UNAUTHENTICATED', message: 'Request had invalid authentication credentials.' } },
        };
      if (req.path !== '/v1/projects/iot-console/messages:send')
        return { status: 404, body: { error: { code: 404, status: 'NOT_FOUND' } } };
      const { message } = JSON.parse(req.body) as { message: { token: string } };
      if (message.token === 'gone-token') {
        return {
          status: 404,
          body: {
            error: {
              code: 404,
              status: 'NOT_FOUND',
              message: 'Requested entity was not found.',
              details: [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'UNREGISTERED' }],
            },
          },
        };
      }
      return { status: 200, body: { name: 'projects/iot-console/messages/0:1700000000000000%31bd1c9631bd1c96' } };
    });
  });
  afterAll(async () => {
    await fcm.close();
    await standIn.close();
  });

  const serviceAccount = (pem = account.pem) =>
    JSON.stringify({
      type: 'service_account',
      project_id: 'iot-console',
      private_key_id: 'k1',
      private_key: pem,
      client_email: CLIENT_EMAIL,
      token_uri: `${standIn.url}/token`,
    });

  it('gets a token with a signed assertion, then sends with it; the token is reused', async () => {
    const before = standIn.received.length;
    const config = { service_account: serviceAccount(), endpoint: standIn.url, channel_id: 'alarm' };
    const result = await fcm.send(config, { ...alarm, data: { uid: 'UID-0001' } }, { to: 'device-token-1' });
    expect(result).toEqual({ ok: true, providerId: 'projects/iot-console/messages/0:1700000000000000%31bd1c9631bd1c96' });
    const [tokenReq, sendReq] = standIn.received.slice(before);
    expect(tokenReq?.path).toBe('/token');
    expect(jwtParts(formOf(tokenReq!.body).assertion ?? '').header).toEqual({ alg: 'RS256', typ: 'JWT', kid: 'k1' });
    expect(JSON.parse(sendReq!.body)).toEqual({
      message: {
        token: 'device-token-1',
        notification: { title: '客厅摄像头 告警', body: '设备 客厅摄像头（UID-0001）于 2025-01-02 03:04:05 检测到移动侦测' },
        data: { uid: 'UID-0001' },
        android: { notification: { channel_id: 'alarm' } },
      },
    });
    expect(await fcm.send(config, alarm, { to: 'device-token-2' })).toMatchObject({ ok: true });
    expect(standIn.received.slice(before).map((r) => r.path)).toEqual([
      '/token',
      '/v1/projects/iot-console/messages:send',
      '/v1/projects/iot-console/messages:send',
    ]);
  });

  it('a kept token that is refused is renewed once', async () => {
    const config = { service_account: serviceAccount(), endpoint: standIn.url };
    expect((await fcm.send(config, alarm, { to: 't' })).ok).toBe(true);
    issued.clear();
    const before = standIn.received.length;
    expect(await fcm.send(config, alarm, { to: 't' })).toMatchObject({ ok: true });
    expect(standIn.received.slice(before).map((r) => r.path)).toEqual([
      '/v1/projects/iot-console/messages:send',
      '/token',
      '/v1/projects/iot-console/messages:send',
    ]);
  });

  it('a wrong key is refused at the token endpoint: not retried, key not in the error', async () => {
    const other = rsaKeyPair();
    const result = await fcm.send({ service_account: serviceAccount(other.pem), endpoint: standIn.url }, alarm, { to: 't' });
    expect(result).toMatchObject({ ok: false, retryable: false, status: 400, code: 'invalid_grant' });
    expect(errorOf(result)).toContain('Invalid JWT Signature');
    expect(errorOf(result)).not.toContain(other.pem.split('\n')[1]);
  });

  it('an unregistered token is final and marks the recipient invalid', async () => {
    const result = await fcm.send({ service_account: serviceAccount(), endpoint: standIn.url }, alarm, { to: 'gone-token' });
    expect(result).toMatchObject({ ok: false, retryable: false, status: 404, code: 'UNREGISTERED', invalidRecipient: true });
  });

  it('takes the fields separately too, and names missing ones', async () => {
    const fields = {
      project_id: 'iot-console',
      client_email: CLIENT_EMAIL,
      private_key: account.pem,
      token_uri: `${standIn.url}/token`,
      endpoint: standIn.url,
    };
    expect(await fcm.send(fields, alarm, { to: 't' })).toMatchObject({ ok: true });
    expect(await fcm.send({ ...fields, project_id: undefined }, alarm, { to: 't' })).toMatchObject({
      ok: false,
      code: 'CONFIG',
      error: 'fcm: invalid config: project_id',
    });
  });
});

describe('Xiaomi push', () => {
  const APP_SECRET = 'xm-AppSecret-ABCDEF0123==';
  let standIn: HttpStandIn;
  const xiaomi = createXiaomiProvider();

  beforeAll(async () => {
    standIn = await startHttpStandIn((req) => {
      // Echoes what it got, as some gateways do: the adapter must mask it.
      if (req.headers.authorization !== `key=${APP_SECRET}`)
        return { status: 401, body: { result: 'error', code: 22000, reason: `invalid ${req.headers.authorization}` } };
      return { status: 200, body: { result: 'ok', code: 0, data: { id: 'slm42b14c7558478351ta' }, trace_id: 'Xcm' } };
    });
  });
  afterAll(() => standIn.close());

  it('posts the regid form with key auth', async () => {
    const result = await xiaomi.send(
      { app_secret: APP_SECRET, package_name: 'com.example.iot', channel_id: '105291', endpoint: standIn.url },
      { ...alarm, data: { uid: 'UID-0001' } },
      { to: 'reg-id-1' },
    );
    expect(result).toEqual({ ok: true, providerId: 'slm42b14c7558478351ta' });
    const req = standIn.received.at(-1)!;
    expect(req.path).toBe('/v3/message/regid');
    expect(formOf(req.body)).toEqual({
      registration_id: 'reg-id-1',
      restricted_package_name: 'com.example.iot',
      title: '客厅摄像头 告警',
      description: '设备 客厅摄像头（UID-0001）于 2025-01-02 03:04:05 检测到移动侦测',
      pass_through: '0',
      notify_type: '-1',
      payload: '{"uid":"UID-0001"}',
      'extra.channel_id': '105291',
    });
  });

  it('a wrong secret is refused: not retried, and the echoed secret is masked', async () => {
    const result = await xiaomi.send({ app_secret: 'xm-Wrong-Secret-42', package_name: 'p', endpoint: standIn.url }, alarm, { to: 'r' });
    expect(result).toMatchObject({ ok: false, retryable: false, status: 401 });
    expect(errorOf(result)).toBe('xiaomi: HTTP 401 22000 invalid key=***');
  });
});

describe('OPPO push', () => {
  const APP_KEY = 'oppo-app-key';
  const MASTER_SECRET = 'oppo-Master-Secret-77';
  const tokens = new Set<string>();
  let standIn: HttpStandIn;
  const oppo = createOppoProvider();

  beforeAll(async () => {
    standIn = await startHttpStandIn((req) => {
      const form = formOf(req.body);
      if (req.path === '/server/v1/auth') {
        const expected = crypto.createHash('sha256').update(`${form.app_key}${form.timestamp}${MASTER_SECRET}`).digest('hex');
        if (form.app_key !== APP_KEY || form.sign !== expected) return { status: 200, body: { code: 14, message: 'Invalid Sign' } };
        const token = crypto.randomUUID();
        tokens.add(token);
        return { status: 200, body: { code: 0, message: 'Success', data: { auth_token: token, create_time: Date.now() } } };
      }
      if (!tokens.has(String(req.headers.auth_token))) return { status: 200, body: { code: 11, message: 'Invalid AuthToken' } };
      return { status: 200, body: { code: 0, message: 'Success', data: { messageId: '5f7e8b9a0c1d2e3f' } } };
    });
  });
  afterAll(async () => {
    await oppo.close();
    await standIn.close();
  });

  it('authenticates with the sha256 sign and sends a unicast notification', async () => {
    const config = { app_key: APP_KEY, master_secret: MASTER_SECRET, channel_id: 'alarm', endpoint: standIn.url };
    expect(await oppo.send(config, alarm, { to: 'OPPO_CN_reg_1' })).toEqual({ ok: true, providerId: '5f7e8b9a0c1d2e3f' });
    const sent = standIn.received.at(-1)!;
    expect(sent.path).toBe('/server/v1/message/notification/unicast');
    expect(JSON.parse(formOf(sent.body).message ?? '')).toEqual({
      target_type: 2,
      target_value: 'OPPO_CN_reg_1',
      notification: {
        title: '客厅摄像头 告警',
        content: '设备 客厅摄像头（UID-0001）于 2025-01-02 03:04:05 检测到移动侦测',
        channel_id: 'alarm',
      },
    });
    // The token is kept; an expired one is renewed once.
    tokens.clear();
    const before = standIn.received.length;
    expect(await oppo.send(config, alarm, { to: 'OPPO_CN_reg_1' })).toMatchObject({ ok: true });
    expect(standIn.received.slice(before).map((r) => r.path)).toEqual([
      '/server/v1/message/notification/unicast',
      '/server/v1/auth',
      '/server/v1/message/notification/unicast',
    ]);
  });

  it('a wrong master secret is refused: not retried, secret not in the error', async () => {
    const result = await oppo.send({ app_key: APP_KEY, master_secret: 'oppo-Wrong-Secret', endpoint: standIn.url }, alarm, { to: 'r' });
    expect(result).toMatchObject({ ok: false, retryable: false, code: '14' });
    expect(errorOf(result)).toBe('oppo: auth: 14 Invalid Sign');
  });
});

describe('every HTTP provider', () => {
  it('a refused connection is retryable and names no secret', async () => {
    const url = await refusedUrl();
    const { providers, close } = createProviders();
    const results = await Promise.all([
      providers.webhook.send({ endpoint: url, secret_key: 'whsec_refused_1' }, alarm, { to: 'u' }),
      providers.sms_aliyun.send(
        { key_id: 'id', key_secret: 'aliyun-refused-2', sign_name: 's', endpoint: url },
        { ...alarm, templateCode: 'SMS_1' },
        { to: '1' },
      ),
      providers.sms_tencent.send(
        { secret_id: 'id', secret_key: 'tencent-refused-5', app_id: '1400', sign_name: 's', endpoint: url },
        { ...alarm, templateCode: '1' },
        { to: '1' },
      ),
      providers.xiaomi.send({ app_secret: 'xm-refused-3', package_name: 'p', endpoint: url }, alarm, { to: 'r' }),
      providers.oppo.send({ app_key: 'k', master_secret: 'oppo-refused-4', endpoint: url }, alarm, { to: 'r' }),
      providers.fcm.send(
        { project_id: 'p', client_email: 'e', private_key: rsaKeyPair().pem, token_uri: `${url}/token`, endpoint: url },
        alarm,
        { to: 't' },
      ),
    ]);
    for (const r of results) {
      expect(r).toMatchObject({ ok: false, retryable: true, code: 'ECONNREFUSED' });
      expect(errorOf(r)).toMatch(/connection failed: ECONNREFUSED$/);
      expect(errorOf(r)).not.toMatch(/refused-\d/);
    }
    await close();
  });

  it('a provider that does not answer in time gives a retryable timeout; the caller can abort too', async () => {
    const standIn = await startHttpStandIn(() => 'hang');
    const quick = createWebhookProvider({ timeoutMs: 200 });
    const started = Date.now();
    expect(await quick.send({ endpoint: standIn.url, secret_key: 'whsec_x' }, alarm, { to: 'u' })).toEqual({
      ok: false,
      retryable: true,
      code: 'TIMEOUT',
      error: 'webhook: timed out after 200 ms',
    });
    expect(Date.now() - started).toBeLessThan(2000);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    expect(
      await createWebhookProvider().send({ endpoint: standIn.url, secret_key: 'whsec_x' }, alarm, { to: 'u' }, controller.signal),
    ).toMatchObject({
      ok: false,
      retryable: true,
      error: 'webhook: aborted',
    });
    await standIn.close();
  });

  it('send by kind validates an untyped config', async () => {
    const { send, close } = createProviders();
    expect(await send('webhook', { endpoint: 'ftp://x' }, alarm, { to: 'u' })).toMatchObject({
      ok: false,
      retryable: false,
      error: 'webhook: invalid config: endpoint, secret_key',
    });
    expect(await send('sms_tencent', {}, alarm, { to: 'u' })).toMatchObject({
      ok: false,
      code: 'CONFIG',
      error: 'sms_tencent: invalid config: secret_id, secret_key, app_id, sign_name',
    });
    await close();
  });
});
