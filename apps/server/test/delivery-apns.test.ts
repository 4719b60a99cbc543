import crypto from 'node:crypto';
import { render } from '@iot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApnsConfig, createApnsProvider } from '../src/platform/delivery/adapters/apns.js';
import type { DeliveryResult } from '../src/platform/delivery/provider.js';
import {
  APNS_GONE_DEVICE,
  APNS_BUNDLE_ID as BUNDLE_ID,
  ecKeyPair,
  APNS_KEY_ID as KEY_ID,
  refusedUrl,
  selfSignedCert,
  startApns,
  APNS_TEAM_ID as TEAM_ID,
} from './delivery-stand-ins.js';

const DEVICE = 'a'.repeat(64);
const GONE_DEVICE = APNS_GONE_DEVICE;

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
