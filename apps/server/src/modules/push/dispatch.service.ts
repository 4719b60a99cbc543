import { PushChannel, type PushProvider, PushState, pickTemplate, render } from '@iot/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Services } from '../../platform/context.js';
import type { Conn } from '../../platform/db/database.js';
import type { DeliveryMessage, DeliveryResult, ProviderKind } from '../../platform/delivery/provider.js';
import { createProviders, type Providers } from '../../platform/delivery/providers.js';
import { DEFAULT_RETRY_POLICY, nextRetry } from '../../platform/delivery/retry.js';
import { kickJobs } from '../../platform/jobs.js';
import { nowSeconds } from '../../platform/time.js';
import { forgetPushToken } from '../umh/app-user.repository.js';
import { pushPlatforms, pushTemplates } from './push.repository.js';
import {
  claimDue,
  type DueRecord,
  finishRecord,
  insertRecord,
  linksFor,
  type NewRecord,
  queueDispatchJob,
  templateLanguages,
} from './record.repository.js';

/**
 * The dispatcher: one way out for every message. A message is queued as a push record (in the
 * caller's transaction); the `push_dispatch` job (platform/jobs.ts) claims due records, sends each
 * through its platform's provider (platform/delivery), and records the outcome: sent, or tried
 * again later with backoff (DEFAULT_RETRY_POLICY), or failed for good with the provider's error.
 */

/** Platform provider → the delivery library's provider and its config from the platform's fields (docs/api.md). */
type Stored = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
const PROVIDERS: Record<
  PushProvider,
  { kind: ProviderKind; config: (p: Stored, secret: (f: string) => string) => Record<string, unknown> }
> = {
  smtp: {
    kind: 'email',
    config: (p, secret) => ({
      smtp_addr: p.smtp_addr,
      ...(Number(p.smtp_port) > 0 ? { smtp_port: p.smtp_port } : {}),
      ssl: Number(p.ssl) === 1,
      user_id: str(p.user_id),
      password: str(secret('password')),
      from: str(p.user_id),
      from_name: str(p.sign_name) ?? str(p.name),
    }),
  },
  aliyun_sms: {
    kind: 'sms_aliyun',
    config: (p, secret) => ({
      key_id: p.key_id,
      key_secret: secret('key_secret'),
      sign_name: p.sign_name,
      zone: str(p.zone),
      endpoint: str(p.endpoint),
    }),
  },
  tencent_sms: {
    kind: 'sms_tencent',
    config: (p, secret) => ({
      secret_id: p.secret_id,
      secret_key: secret('secret_key'),
      app_id: p.app_id,
      sign_name: p.sign_name,
      zone: str(p.zone),
      endpoint: str(p.endpoint),
    }),
  },
  apns: {
    kind: 'apns',
    config: (p, secret) => ({
      key_id: p.key_id,
      team_id: p.secret_id,
      private_key: secret('key_secret'),
      bundle_id: p.app_id,
      endpoint: str(p.endpoint),
    }),
  },
  fcm: {
    kind: 'fcm',
    config: (p, secret) => {
      const key = secret('key_secret');
      return key.trim().startsWith('{')
        ? { service_account: key, project_id: str(p.app_id), endpoint: str(p.endpoint) }
        : { project_id: p.app_id, client_email: p.secret_id, private_key: key, endpoint: str(p.endpoint) };
    },
  },
  xiaomi: {
    kind: 'xiaomi',
    config: (p, secret) => ({ app_secret: secret('secret_key'), package_name: p.app_id, endpoint: str(p.endpoint) }),
  },
  oppo: { kind: 'oppo', config: (p, secret) => ({ app_key: p.key_id, master_secret: secret('secret_key'), endpoint: str(p.endpoint) }) },
  // One endpoint stands for both of Huawei's and Honor's hosts (token and send): a proxy or a test stand-in serves both paths.
  huawei: {
    kind: 'huawei',
    config: (p, secret) => ({
      app_id: p.app_id,
      client_id: str(p.secret_id),
      client_secret: secret('secret_key'),
      endpoint: str(p.endpoint),
      auth_endpoint: str(p.endpoint),
    }),
  },
  vivo: {
    kind: 'vivo',
    config: (p, secret) => ({ app_id: p.app_id, app_key: p.key_id, app_secret: secret('secret_key'), endpoint: str(p.endpoint) }),
  },
  honor: {
    kind: 'honor',
    config: (p, secret) => ({
      app_id: p.app_id,
      client_id: p.secret_id,
      client_secret: secret('secret_key'),
      endpoint: str(p.endpoint),
      auth_endpoint: str(p.endpoint),
    }),
  },
  webhook: { kind: 'webhook', config: (p, secret) => ({ endpoint: p.endpoint, secret_key: secret('secret_key') }) },
};

const providersOf = new WeakMap<Services, Providers>();
const providers = (services: Services) => {
  const existing = providersOf.get(services);
  if (existing) return existing;
  const created = createProviders();
  providersOf.set(services, created);
  return created;
};
export const closeProviders = async (services: Services) => {
  await providersOf.get(services)?.close();
  providersOf.delete(services);
};

/** Sends one record through its platform now; a disabled or deleted platform fails it for good. */
const send = async (
  services: Services,
  conn: Conn,
  r: Pick<DueRecord, 'id' | 'platform_id' | 'template_id' | 'recipient' | 'lang' | 'title' | 'body' | 'params' | 'channel'>,
): Promise<DeliveryResult> => {
  const [platform] = await pushPlatforms.getStored(conn, [r.platform_id]);
  if (!platform) return { ok: false, error: 'platform: deleted', retryable: false };
  if (Number(platform.state) !== 1) return { ok: false, error: 'platform: disabled', retryable: false };
  const provider = PROVIDERS[platform.platform as PushProvider];
  if (!provider) return { ok: false, error: `platform: unknown provider ${String(platform.platform)}`, retryable: false };
  const secrets = pushPlatforms.secretsOf({ services });
  const config = provider.config(platform, (field) => secrets.reveal(platform, field));
  // SMS providers render on their side: the template's code names their template.
  const [template] = r.template_id > 0 ? await pushTemplates.getStored(conn, [r.template_id]) : [];
  const message: DeliveryMessage = {
    ...(template ? { templateCode: String(template.code) } : {}),
    title: r.title,
    body: r.body,
    html: r.channel === PushChannel.EMAIL && /<[a-z][\s\S]*>/i.test(r.body),
    params: r.params,
    data: r.params,
    id: String(r.id),
  };
  const result = await providers(services).send(provider.kind, config, message, { to: r.recipient, lang: r.lang });
  // A phone's token the provider calls gone (APNs 410, FCM UNREGISTERED, Huawei 80300007) is not used again.
  if (!result.ok && result.invalidRecipient && r.channel === PushChannel.PUSH)
    await forgetPushToken(conn, String(platform.platform), r.recipient);
  return result;
};

const outcomeOf = (attempt: number, result: DeliveryResult, now: number) => {
  if (result.ok)
    return { state: PushState.SENT, attempts: attempt, error: '', provider_id: result.providerId ?? '', gmt_send: now, next_attempt: 0 };
  const decision = nextRetry(attempt, result, new Date(now * 1000), DEFAULT_RETRY_POLICY);
  return decision.retry
    ? {
        state: PushState.RETRYING,
        attempts: attempt,
        error: result.error,
        provider_id: '',
        gmt_send: 0,
        next_attempt: now + Math.ceil(decision.delayMs / 1000),
      }
    : { state: PushState.FAILED, attempts: attempt, error: result.error, provider_id: '', gmt_send: 0, next_attempt: 0 };
};

/** Claims and sends due records until none is left (or `stop` says so); answers how many were sent or failed. */
export const dispatchDue = async (services: Services, opts: { batch?: number; concurrency?: number; stop?: () => boolean } = {}) => {
  const batch = opts.batch ?? 100;
  const concurrency = opts.concurrency ?? 16;
  let handled = 0;
  for (;;) {
    if (opts.stop?.()) return handled;
    const due = await claimDue(services.db, nowSeconds(), batch, 120);
    if (due.length === 0) return handled;
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < due.length; i = next++) {
        const r = due[i] as DueRecord;
        const result = await send(services, services.db, r);
        await finishRecord(services.db, r.id, outcomeOf(r.attempts + 1, result, nowSeconds()));
        handled++;
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, due.length) }, worker));
  }
};

/** Queues a record and makes sure a dispatcher runs (after the caller's transaction commits, `kick`). */
export const queueRecord = async (conn: Conn, record: NewRecord) => {
  const id = await insertRecord(conn, record, nowSeconds());
  await queueDispatchJob(conn, nowSeconds());
  return id;
};

/** The message of a template for a recipient's language: its code's template in that language, else a fallback. */
const renderFor = async (conn: Conn, templateId: number, lang: string, params: Record<string, string>, channel: number) => {
  const picked = pickTemplate(await templateLanguages(conn, templateId), lang);
  if (!picked) return null;
  const t = picked.template;
  const html = channel === PushChannel.EMAIL && /<[a-z][\s\S]*>/i.test(t.body);
  const rendered = render(t, params, { lang: t.lang, html });
  return { template: t, fellBack: picked.fellBack, title: rendered.title, body: rendered.body };
};

export interface EventMessage {
  /** Message type (1–12; 7 alarm). */
  eventType: number;
  /** The app (1) or product (2) whose links serve the event. */
  linkType: number;
  linkId: number;
  /** Who: an address on one channel, or any; a push token only through a platform of its provider. */
  recipients: { to: string; lang: string; channel?: number; provider?: string }[];
  params: Record<string, string>;
  /** What caused it (`alarm:<id>`, `test`…), shown in the push records. */
  source: string;
}

/** Queues an event's messages: every link of the app or product for that event, each recipient in their language. */
export const queueEvent = async (conn: Conn, event: EventMessage, log?: FastifyBaseLogger): Promise<number[]> => {
  const ids: number[] = [];
  for (const link of await linksFor(conn, event.linkType, event.linkId, event.eventType)) {
    const [platform] = await pushPlatforms.getStored(conn, [link.platform_id]);
    if (!platform || Number(platform.state) !== 1) continue;
    for (const recipient of event.recipients) {
      if (recipient.channel !== undefined && recipient.channel !== Number(platform.type)) continue;
      if (recipient.provider !== undefined && recipient.provider !== platform.platform) continue;
      const message = await renderFor(conn, link.template_id, recipient.lang, event.params, Number(platform.type));
      if (!message) continue;
      ids.push(
        await queueRecord(conn, {
          comp_id: link.comp_id,
          channel: Number(platform.type),
          platform_id: link.platform_id,
          template_id: message.template.id,
          event_type: event.eventType,
          recipient: recipient.to,
          lang: message.template.lang,
          lang_fallback: message.fellBack,
          title: message.title,
          body: message.body,
          params: event.params,
          source: event.source,
        }),
      );
    }
  }
  if (ids.length > 0) log?.debug({ records: ids.length, source: event.source }, 'messages queued');
  return ids;
};

/**
 * A test send: recorded and sent at once (not through the queue), so the console shows the
 * outcome; a failure is recorded as failed (a test is not retried).
 */
export const sendTest = async (services: Services, conn: Conn, record: NewRecord) => {
  const now = nowSeconds();
  const id = await insertRecord(conn, record, now);
  const result = await send(services, conn, { ...record, id });
  const outcome = result.ok
    ? { state: PushState.SENT, attempts: 1, error: '', provider_id: result.providerId ?? '', gmt_send: nowSeconds(), next_attempt: 0 }
    : { state: PushState.FAILED, attempts: 1, error: result.error, provider_id: '', gmt_send: 0, next_attempt: 0 };
  await finishRecord(conn, id, outcome);
  return id;
};

/** Wakes the job runner after a commit that queued records. */
export const kickDispatch = (services: Services) => kickJobs(services);
