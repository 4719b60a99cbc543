import { render } from '@iot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHonorProvider } from '../src/platform/delivery/adapters/honor.js';
import { createHuaweiProvider } from '../src/platform/delivery/adapters/huawei.js';
import { createTokenCache } from '../src/platform/delivery/adapters/token-cache.js';
import { createVivoProvider } from '../src/platform/delivery/adapters/vivo.js';
import type { DeliveryResult } from '../src/platform/delivery/provider.js';
import { createProviders } from '../src/platform/delivery/providers.js';
import { formOf, refusedUrl } from './delivery-stand-ins.js';
import { startHonor, startHuawei, startVivo, type VendorStandIn } from './delivery-vendor-stand-ins.js';

/** The Android vendors' push services (Huawei, Honor, vivo) against stand-ins that check what the services check. */

const errorOf = (r: DeliveryResult) => (r.ok ? '' : r.error);

const alarm = render(
  { title: '{{dev_name}} 告警', body: '设备 {{dev_name}}（{{uid}}）于 {{alarm_time}} 检测到移动侦测' },
  { dev_name: '客厅摄像头', uid: 'UID-0001', alarm_time: '2025-01-02 03:04:05' },
);
const TITLE = '客厅摄像头 告警';
const BODY = '设备 客厅摄像头（UID-0001）于 2025-01-02 03:04:05 检测到移动侦测';

/** The paths the stand-in saw since `from`. */
const pathsSince = (standIn: VendorStandIn, from: number) => standIn.received.slice(from).map((r) => r.path);

describe('Huawei Push Kit', () => {
  const APP_ID = '104859023';
  const SECRET = 'hw-AppSecret-9f8e7d6c5b4a';
  let standIn: VendorStandIn;
  const huawei = createHuaweiProvider();
  const config = () => ({ app_id: APP_ID, client_secret: SECRET, endpoint: standIn.url, auth_endpoint: standIn.url });

  beforeAll(async () => {
    standIn = await startHuawei({ [APP_ID]: SECRET, 'hw-other-client': 'hw-Other-Secret-1234' }, APP_ID);
  });
  afterAll(async () => {
    await huawei.close();
    await standIn.close();
  });

  it('gets a client-credentials token and sends the notification to the push token', async () => {
    const result = await huawei.send(config(), { ...alarm, data: { uid: 'UID-0001' } }, { to: 'hw-token-1' });
    expect(result).toEqual({ ok: true, providerId: '157440955549500001002006' });
    const [auth, send] = standIn.received.slice(-2);
    expect(auth?.path).toBe('/oauth2/v3/token');
    expect(formOf(auth?.body ?? '')).toEqual({ grant_type: 'client_credentials', client_id: APP_ID, client_secret: SECRET });
    expect(send?.path).toBe(`/v1/${APP_ID}/messages:send`);
    expect(send?.headers.authorization).toMatch(/^Bearer AT[0-9a-f]{24}$/);
    expect(standIn.pushes.at(-1)?.body).toEqual({
      validate_only: false,
      message: {
        notification: { title: TITLE, body: BODY },
        android: { notification: { title: TITLE, body: BODY, click_action: { type: 3 } } },
        token: ['hw-token-1'],
        data: '{"uid":"UID-0001"}',
      },
    });
  });

  it('keeps the token between sends and renews it once when the service says it expired', async () => {
    const authCalls = standIn.authCalls();
    const before = standIn.received.length;
    expect(await huawei.send(config(), alarm, { to: 'hw-token-2' })).toMatchObject({ ok: true });
    expect(await huawei.send(config(), alarm, { to: 'hw-token-3' })).toMatchObject({ ok: true });
    expect(standIn.authCalls()).toBe(authCalls);
    expect(pathsSince(standIn, before)).toEqual([`/v1/${APP_ID}/messages:send`, `/v1/${APP_ID}/messages:send`]);

    standIn.expireTokens();
    const renewedFrom = standIn.received.length;
    expect(await huawei.send(config(), alarm, { to: 'hw-token-4' })).toMatchObject({ ok: true });
    expect(pathsSince(standIn, renewedFrom)).toEqual([`/v1/${APP_ID}/messages:send`, '/oauth2/v3/token', `/v1/${APP_ID}/messages:send`]);
    expect(standIn.received[renewedFrom]?.headers.authorization).not.toBe(standIn.received[renewedFrom + 2]?.headers.authorization);
    expect(standIn.authCalls()).toBe(authCalls + 1);
    expect(standIn.pushes.at(-1)?.body).toMatchObject({ message: { token: ['hw-token-4'] } });
  });

  it('sends at the same time share one token request', async () => {
    const provider = createHuaweiProvider();
    const authCalls = standIn.authCalls();
    const results = await Promise.all(['a', 'b', 'c', 'd'].map((t) => provider.send(config(), alarm, { to: `hw-token-${t}` })));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(standIn.authCalls()).toBe(authCalls + 1);
    await provider.close();
  });

  it('a separate client id is used for the token when given', async () => {
    const result = await huawei.send({ ...config(), client_id: 'hw-other-client', client_secret: 'hw-Other-Secret-1234' }, alarm, {
      to: 'hw-token-5',
    });
    expect(result).toMatchObject({ ok: true });
    expect(formOf(standIn.received.at(-2)?.body ?? '')).toMatchObject({ client_id: 'hw-other-client' });
  });

  it('a wrong secret is refused at the token: final, and the quoted secret is masked', async () => {
    const wrong = 'hw-Wrong-Secret-000111';
    const result = await huawei.send({ ...config(), client_secret: wrong }, alarm, { to: 'hw-token-1' });
    expect(result).toMatchObject({ ok: false, retryable: false, status: 401, code: '1101' });
    expect(errorOf(result)).toBe('huawei: HTTP 401 auth: 1101 20058 invalid client_secret ***');
    expect(JSON.stringify(result)).not.toContain(wrong);
  });

  it('an invalid push token is final and marks the recipient gone; an overloaded service is tried again', async () => {
    expect(await huawei.send(config(), alarm, { to: 'gone-hw' })).toEqual({
      ok: false,
      retryable: false,
      status: 400,
      code: '80300007',
      invalidRecipient: true,
      error: 'huawei: HTTP 400 80300007 All the tokens are invalid',
    });
    expect(await huawei.send(config(), alarm, { to: 'busy-hw' })).toMatchObject({
      ok: false,
      retryable: true,
      status: 503,
      code: '81000001',
    });
  });

  it('a send to another app is refused: final', async () => {
    expect(await huawei.send({ ...config(), app_id: '999', client_id: APP_ID }, alarm, { to: 'hw-token-1' })).toMatchObject({
      ok: false,
      retryable: false,
      status: 403,
      code: '80300002',
    });
  });
});

describe('Honor Push', () => {
  const APP_ID = '104437452';
  const CLIENT_ID = '7a9b1c2d3e4f5a6b7c8d';
  const SECRET = 'honor-ClientSecret-5566aa';
  let standIn: VendorStandIn;
  const honor = createHonorProvider();
  const config = () => ({ app_id: APP_ID, client_id: CLIENT_ID, client_secret: SECRET, endpoint: standIn.url, auth_endpoint: standIn.url });

  beforeAll(async () => {
    standIn = await startHonor({ [CLIENT_ID]: SECRET }, APP_ID);
  });
  afterAll(async () => {
    await honor.close();
    await standIn.close();
  });

  it('gets a client-credentials token and sends the notification with a timestamp header', async () => {
    const result = await honor.send(config(), { ...alarm, data: { uid: 'UID-0001' } }, { to: 'honor-token-1' });
    expect(result).toEqual({ ok: true, providerId: '1713254869786318848' });
    const [auth, send] = standIn.received.slice(-2);
    expect(auth?.path).toBe('/auth/token');
    expect(formOf(auth?.body ?? '')).toEqual({ grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: SECRET });
    expect(send?.path).toBe(`/api/v1/${APP_ID}/sendMessage`);
    expect(send?.headers.authorization).toMatch(/^Bearer AT/);
    expect(Math.abs(Date.now() - Number(send?.headers.timestamp))).toBeLessThan(10_000);
    expect(standIn.pushes.at(-1)?.body).toEqual({
      notification: { title: TITLE, body: BODY },
      android: { notification: { title: TITLE, body: BODY, clickAction: { type: 3 } } },
      token: ['honor-token-1'],
      data: '{"uid":"UID-0001"}',
    });
  });

  it('keeps the token between sends and renews it once when the service says it expired', async () => {
    const authCalls = standIn.authCalls();
    expect(await honor.send(config(), alarm, { to: 'honor-token-2' })).toMatchObject({ ok: true });
    expect(await honor.send(config(), alarm, { to: 'honor-token-3' })).toMatchObject({ ok: true });
    expect(standIn.authCalls()).toBe(authCalls);
    standIn.expireTokens();
    const from = standIn.received.length;
    expect(await honor.send(config(), alarm, { to: 'honor-token-4' })).toMatchObject({ ok: true });
    const path = `/api/v1/${APP_ID}/sendMessage`;
    expect(pathsSince(standIn, from)).toEqual([path, '/auth/token', path]);
    expect(standIn.authCalls()).toBe(authCalls + 1);
  });

  it('a wrong secret is refused at the token: final, and the quoted secret is masked', async () => {
    const wrong = 'honor-Wrong-Secret-7788';
    const result = await honor.send({ ...config(), client_secret: wrong }, alarm, { to: 'honor-token-1' });
    expect(result).toMatchObject({ ok: false, retryable: false, status: 401 });
    expect(errorOf(result)).toBe('honor: HTTP 401 auth: 1101 20058 invalid client_secret ***');
    expect(JSON.stringify(result)).not.toContain(wrong);
  });

  it('an expired push token listed in the answer is final and marks the recipient gone; a 503 is tried again', async () => {
    expect(await honor.send(config(), alarm, { to: 'gone-honor' })).toMatchObject({
      ok: false,
      retryable: false,
      invalidRecipient: true,
      error: 'honor: token expired',
    });
    expect(await honor.send(config(), alarm, { to: 'busy-honor' })).toMatchObject({ ok: false, retryable: true, status: 503 });
  });
});

describe('vivo push', () => {
  const APP = { appId: '105612345', appKey: 'vivo-app-key-25c7', appSecret: 'vivo-AppSecret-3f1e9d77' };
  let standIn: VendorStandIn;
  const vivo = createVivoProvider();
  const config = () => ({ app_id: APP.appId, app_key: APP.appKey, app_secret: APP.appSecret, endpoint: standIn.url });

  beforeAll(async () => {
    standIn = await startVivo(APP);
  });
  afterAll(async () => {
    await vivo.close();
    await standIn.close();
  });

  it('authenticates with the MD5 sign and sends a notification to the regId', async () => {
    const result = await vivo.send({ ...config(), classification: 1 }, { ...alarm, data: { uid: 'UID-0001' } }, { to: 'vivo-reg-1' });
    expect(result).toEqual({ ok: true, providerId: '642467287613526016' });
    const [auth, send] = standIn.received.slice(-2);
    expect(auth?.path).toBe('/message/auth');
    expect(JSON.parse(auth?.body ?? '')).toMatchObject({
      appId: 105612345,
      appKey: APP.appKey,
      sign: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    expect(auth?.body).not.toContain(APP.appSecret);
    expect(send?.path).toBe('/message/send');
    expect(send?.headers.authtoken).toMatch(/^[0-9a-f-]{36}$/);
    expect(standIn.pushes.at(-1)?.body).toEqual({
      regId: 'vivo-reg-1',
      notifyType: 4,
      title: TITLE,
      content: BODY,
      skipType: 1,
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      classification: 1,
      clientCustomMap: { uid: 'UID-0001' },
    });
  });

  it('keeps the token between sends and renews it once when the service says it is invalid', async () => {
    const authCalls = standIn.authCalls();
    expect(await vivo.send(config(), alarm, { to: 'vivo-reg-2' })).toMatchObject({ ok: true });
    expect(await vivo.send(config(), alarm, { to: 'vivo-reg-3' })).toMatchObject({ ok: true });
    expect(standIn.authCalls()).toBe(authCalls);
    standIn.expireTokens();
    const from = standIn.received.length;
    expect(await vivo.send(config(), alarm, { to: 'vivo-reg-4' })).toMatchObject({ ok: true });
    expect(pathsSince(standIn, from)).toEqual(['/message/send', '/message/auth', '/message/send']);
    expect(standIn.authCalls()).toBe(authCalls + 1);
    // Each request its own requestId (vivo refuses a repeated one).
    const ids = standIn.received
      .slice(from)
      .filter((r) => r.path === '/message/send')
      .map((r) => JSON.parse(r.body).requestId);
    expect(new Set(ids).size).toBe(2);
  });

  it('a wrong secret fails the sign: final, secret not in the error', async () => {
    const wrong = 'vivo-Wrong-Secret-4242';
    const result = await vivo.send({ ...config(), app_secret: wrong }, alarm, { to: 'vivo-reg-1' });
    expect(result).toEqual({ ok: false, retryable: false, code: '10202', error: 'vivo: auth: 10202 sign invalid' });
    expect(JSON.stringify(result)).not.toContain(wrong);
  });

  it('a refused regId is final; a 5xx is tried again', async () => {
    expect(await vivo.send(config(), alarm, { to: 'gone-vivo' })).toMatchObject({
      ok: false,
      retryable: false,
      code: '10302',
      status: 200,
    });
    expect(await vivo.send(config(), alarm, { to: 'busy-vivo' })).toMatchObject({
      ok: false,
      retryable: true,
      status: 503,
      error: 'vivo: HTTP 503 20000 server busy',
    });
  });
});

describe('the vendors together', () => {
  it('are registered by kind, and a refused connection is retryable and names no secret', async () => {
    const url = await refusedUrl();
    const { send, close } = createProviders();
    const results = await Promise.all([
      send('huawei', { app_id: '1', client_secret: 'hw-refused-1', endpoint: url, auth_endpoint: url }, alarm, { to: 't' }),
      send('honor', { app_id: '1', client_id: 'c', client_secret: 'honor-refused-2', endpoint: url, auth_endpoint: url }, alarm, {
        to: 't',
      }),
      send('vivo', { app_id: '1', app_key: 'k', app_secret: 'vivo-refused-3', endpoint: url }, alarm, { to: 't' }),
    ]);
    for (const r of results) {
      expect(r).toMatchObject({ ok: false, retryable: true, code: 'ECONNREFUSED' });
      expect(errorOf(r)).toMatch(/^(huawei|honor|vivo): connection failed: ECONNREFUSED$/);
    }
    expect(await send('vivo', { app_id: '1' }, alarm, { to: 't' })).toMatchObject({
      ok: false,
      code: 'CONFIG',
      error: 'vivo: invalid config: app_key, app_secret',
    });
    await close();
  });
});

describe('the token cache', () => {
  /** A provider that refuses the tokens in `refused`; counts the tokens issued and the calls. */
  const setup = () => {
    let clock = 1_000_000;
    const cache = createTokenCache(() => clock);
    const refused = new Set<string>();
    const calls: string[] = [];
    let issued = 0;
    const issue = async () => ({ token: `t${++issued}`, keepMs: 60_000 });
    const use = async (token: string) => {
      calls.push(token);
      return refused.has(token) ? 'refused' : 'ok';
    };
    const send = () => cache.withToken('account', issue, use, (a) => a === 'refused');
    return { cache, refused, calls, send, issued: () => issued, tick: (ms: number) => (clock += ms) };
  };

  it('renews a refused cached token once; a second refusal is answered, not chased', async () => {
    const s = setup();
    expect(await s.send()).toBe('ok');
    s.refused.add('t1').add('t2');
    expect(await s.send()).toBe('refused');
    expect(s.calls).toEqual(['t1', 't1', 't2']);
    // The refused token is forgotten: the next send asks for a new one first.
    expect(await s.send()).toBe('ok');
    expect(s.calls.at(-1)).toBe('t3');
    expect(s.issued()).toBe(3);
  });

  it('a token just issued and refused is not renewed in the same send', async () => {
    const s = setup();
    s.refused.add('t1');
    expect(await s.send()).toBe('refused');
    expect(s.calls).toEqual(['t1']);
  });

  it('a token is used until its keep time, then renewed before use', async () => {
    const s = setup();
    await s.send();
    s.tick(59_000);
    await s.send();
    s.tick(2_000);
    await s.send();
    expect(s.calls).toEqual(['t1', 't1', 't2']);
    s.cache.clear();
    await s.send();
    expect(s.calls.at(-1)).toBe('t3');
  });
});
