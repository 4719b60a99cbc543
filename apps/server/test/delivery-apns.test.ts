import crypto from 'node:crypto';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { render } from '@iot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApnsConfig, createApnsProvider } from '../src/platform/delivery/adapters/apns.js';
import type { DeliveryResult } from '../src/platform/delivery/provider.js';
import { ecKeyPair, jwtParts, refusedUrl, selfSignedCert } from './delivery-stand-ins.js';

const KEY_ID = 'ABC123DEFG';
const TEAM_ID = 'DEF123GHIJ';
const BUNDLE_ID = 'com.example.iot';
const DEVICE = 'a'.repeat(64);
const GONE_DEVICE = 'b'.repeat(64);

interface Push {
  path: string;
  headers: http2.IncomingHttpHeaders;
  body: unknown;
}

/**
 * An APNs stand-in: HTTP/2 (TLS or cleartext), checks the provider JWT with the team's
 * public key as Apple does (ES256, kid, iss, iat within the hour), the topic and push type.
 */
const startApns = async (publicKey: crypto.KeyObject, tls?: { key: string; cert: string }) => {
  const pushes: Push[] = [];
  let sessions = 0;
  const handler = (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answer = (status: number, reason?: string) => {
        res.writeHead(status, { 'apns-id': 'A5C2B8F0-1D5E-4C4B-9E4F-0123456789AB', 'content-type': 'application/json' });
        if (reason) res.end(JSON.stringify({ reason }));
        else res.end();
      };
      const token = /^bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
      if (!token) return answer(403, 'MissingProviderToken');
      const jwt = jwtParts(token);
      const valid = crypto.verify('sha256', jwt.signingInput, { key: publicKey, dsaEncoding: 'ieee-p1363' }, jwt.signature);
      const iat = Number(jwt.claims.iat);
      if (!valid || jwt.header.alg !== 'ES256' || jwt.header.kid !== KEY_ID || jwt.claims.iss !== TEAM_ID)
        return answer(403, 'InvalidProviderToken');
      if (Math.abs(Date.now() / 1000 - iat) > 3600) return answer(403, 'ExpiredProviderToken');
      if (req.method !== 'POST') return answer(405, 'MethodNotAllowed');
      if (req.headers['apns-topic'] !== BUNDLE_ID) return answer(400, 'TopicDisallowed');
      if (req.headers['apns-push-type'] !== 'alert') return answer(400, 'InvalidPushType');
      pushes.push({ path: req.url, headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      if (req.url === `/3/device/${GONE_DEVICE}`) return answer(410, 'Unregistered');
      if (!req.url.startsWith('/3/device/')) return answer(404, 'BadPath');
      answer(200);
    });
  };
  const server = tls ? http2.createSecureServer({ key: tls.key, cert: tls.cert }, handler) : http2.createServer(handler);
  server.on('session', () => {
    sessions++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    pushes,
    sessions: () => sessions,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

const errorOf = (r: DeliveryResult) => (r.ok ? '' : r.error);

const alarm = render(
  { title: '{{dev_name}} 告警', body: '设备 {{dev_name}} 于 {{alarm_time}} 检测到移动侦测' },
  { dev_name: '客厅摄像头', alarm_time: '03:04:05' },
);

describe('APNs over cleartext HTTP/2', () => {
  const team = ecKeyPair();
  let apns: Awaited<ReturnType<typeof startApns>>;
  const provider = createApnsProvider();
  const config = (): ApnsConfig => ({
    key_id: KEY_ID,
    team_id: TEAM_ID,
    private_key: team.pem,
    bundle_id: BUNDLE_ID,
    sandbox: false,
    endpoint: apns.url,
  });

  beforeAll(async () => {
    apns = await startApns(team.publicKey);
  });
  afterAll(async () => {
    await provider.close();
    await apns.close();
  });

  it('posts an alert with a valid ES256 provider token, on one shared connection', async () => {
    const id = crypto.randomUUID();
    const result = await provider.send(config(), { ...alarm, id, data: { uid: 'UID-0001' } }, { to: DEVICE });
    expect(result).toEqual({ ok: true, providerId: 'A5C2B8F0-1D5E-4C4B-9E4F-0123456789AB' });
    const push = apns.pushes.at(-1)!;
    expect(push.path).toBe(`/3/device/${DEVICE}`);
    expect(push.headers['apns-priority']).toBe('10');
    expect(push.headers['apns-id']).toBe(id);
    expect(push.body).toEqual({
      aps: { alert: { title: '客厅摄像头 告警', body: '设备 客厅摄像头 于 03:04:05 检测到移动侦测' }, sound: 'default' },
      uid: 'UID-0001',
    });
    await Promise.all([provider.send(config(), alarm, { to: DEVICE }), provider.send(config(), alarm, { to: DEVICE })]);
    expect(apns.pushes.length).toBe(3);
    expect(apns.sessions()).toBe(1);
  });

  it('a key that is not the team key is refused (403): not retried, key not in the error', async () => {
    const other = ecKeyPair();
    const result = await provider.send({ ...config(), private_key: other.pem }, alarm, { to: DEVICE });
    expect(result).toMatchObject({ ok: false, retryable: false, status: 403, code: 'InvalidProviderToken' });
    expect(errorOf(result)).toBe('apns: HTTP 403 InvalidProviderToken');
  });

  it('an unregistered device is final and marks the recipient invalid; a malformed token is refused before sending', async () => {
    expect(await provider.send(config(), alarm, { to: GONE_DEVICE })).toMatchObject({
      ok: false,
      retryable: false,
      status: 410,
      code: 'Unregistered',
      invalidRecipient: true,
    });
    expect(await provider.send(config(), alarm, { to: 'not hex/../x' })).toMatchObject({
      ok: false,
      retryable: false,
      code: 'BadDeviceToken',
    });
  });

  it('a key that is not a PEM text is a config error', async () => {
    expect(await provider.send({ ...config(), private_key: '/etc/passwd' }, alarm, { to: DEVICE })).toMatchObject({
      ok: false,
      code: 'CONFIG',
      error: 'apns: invalid config: private_key',
    });
  });

  it('a refused connection is retryable', async () => {
    const result = await provider.send({ ...config(), endpoint: await refusedUrl() }, alarm, { to: DEVICE });
    expect(result).toMatchObject({ ok: false, retryable: true, code: 'ECONNREFUSED' });
  });
});

describe('APNs over TLS', () => {
  it('verifies the server certificate against the configured CA', async () => {
    const team = ecKeyPair();
    const tls = selfSignedCert();
    const apns = await startApns(team.publicKey, tls);
    const provider = createApnsProvider();
    const config: ApnsConfig = {
      key_id: KEY_ID,
      team_id: TEAM_ID,
      private_key: team.pem,
      bundle_id: BUNDLE_ID,
      sandbox: false,
      endpoint: apns.url,
    };
    expect(await provider.send({ ...config, ca: tls.cert }, alarm, { to: DEVICE })).toMatchObject({ ok: true });
    const untrusted = await provider.send(config, alarm, { to: DEVICE });
    expect(untrusted).toMatchObject({ ok: false, retryable: false });
    expect(errorOf(untrusted)).toContain('SELF_SIGNED');
    await provider.close();
    await apns.close();
  });
});
