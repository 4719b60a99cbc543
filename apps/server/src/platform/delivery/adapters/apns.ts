import http2 from 'node:http2';
import { z } from 'zod';
import { endpointField, flagField, pemField, requiredText } from '../config-fields.js';
import { networkFailure, parseRetryAfter, statusFailure } from '../http.js';
import { privateKeyOf, signJwt } from '../jwt.js';
import { type AdapterContext, DeliveryError, type DeliveryResult, defineProvider, fail, type ProviderOptions } from '../provider.js';

/**
 * Apple Push Notification service, token-based: HTTP/2 POST /3/device/<device token> with
 *
 *   authorization: bearer <JWT>   header {alg: ES256, kid: <key id>}, claims {iss: <team id>, iat}
 *                                 signed with the .p8 key (P-256)
 *   apns-topic: <bundle id>, apns-push-type: alert, apns-priority: 10, apns-id: <uuid> (optional)
 *
 * and a JSON body {aps: {alert: {title, body}, sound}, ...data}. 200 answers with the
 * apns-id header; errors are JSON {reason}. Apple accepts a token for an hour and refuses
 * one renewed more often than every 20 minutes, so one is kept for 40 minutes. One HTTP/2
 * connection per endpoint is kept open and shared by all sends.
 */
export const apnsConfigSchema = z.object({
  /** The .p8 key's id (JWT kid). */
  key_id: requiredText,
  /** The Apple developer team id (JWT iss). */
  team_id: requiredText,
  /** The .p8 key, PEM (-----BEGIN PRIVATE KEY-----). */
  private_key: pemField,
  /** The app's bundle id (apns-topic). */
  bundle_id: requiredText,
  /** Use Apple's development server (api.sandbox.push.apple.com). */
  sandbox: flagField.default(false),
  /** Overrides the server: https://… (TLS) or http://… (cleartext HTTP/2, for stand-ins). */
  endpoint: endpointField.optional(),
  /** An extra trusted CA (PEM) for the endpoint's certificate (a stand-in). */
  ca: pemField.optional(),
});

export type ApnsConfig = z.output<typeof apnsConfigSchema>;

export const APNS_ENDPOINT = 'https://api.push.apple.com';
export const APNS_SANDBOX_ENDPOINT = 'https://api.sandbox.push.apple.com';
const TOKEN_LIFETIME_MS = 40 * 60_000;

interface H2Answer {
  status: number;
  headers: http2.IncomingHttpHeaders;
  body: string;
}

const reasonOf = (body: string): string | undefined => {
  try {
    const reason = (JSON.parse(body) as { reason?: unknown }).reason;
    return typeof reason === 'string' ? reason : undefined;
  } catch {
    return undefined;
  }
};

export const createApnsProvider = (options: ProviderOptions = {}) => {
  const sessions = new Map<string, http2.ClientHttp2Session>();
  // Requests under way per session: the connection keeps the process alive only while there are some.
  const pending = new WeakMap<http2.ClientHttp2Session, number>();
  const hold = (s: http2.ClientHttp2Session, delta: 1 | -1) => {
    const n = (pending.get(s) ?? 0) + delta;
    pending.set(s, n);
    if (n > 0) s.ref();
    else s.unref();
  };
  const tokens = new Map<string, { jwt: string; expiresAt: number }>();

  const sessionFor = (origin: string, ca: string | undefined): http2.ClientHttp2Session => {
    const key = `${origin}\n${ca ?? ''}`;
    const open = sessions.get(key);
    if (open && !open.closed && !open.destroyed) return open;
    const session = http2.connect(origin, ca ? { ca: ca.replace(/\\n/g, '\n') } : {});
    // Errors reach the pending requests; the session is dropped so the next send reconnects.
    const forget = () => {
      if (sessions.get(key) === session) sessions.delete(key);
    };
    session.on('error', forget);
    session.on('goaway', forget);
    session.on('close', forget);
    // An idle connection does not keep the process alive.
    session.unref();
    sessions.set(key, session);
    return session;
  };

  const providerToken = (c: ApnsConfig, renew: boolean): string => {
    const key = `${c.team_id}\n${c.key_id}\n${c.private_key}`;
    const cached = tokens.get(key);
    if (cached && !renew && cached.expiresAt > Date.now()) return cached.jwt;
    const jwt = signJwt('ES256', { kid: c.key_id }, { iss: c.team_id, iat: Math.floor(Date.now() / 1000) }, privateKeyOf(c.private_key));
    tokens.set(key, { jwt, expiresAt: Date.now() + TOKEN_LIFETIME_MS });
    return jwt;
  };

  const post = (ctx: AdapterContext, c: ApnsConfig, path: string, headers: http2.OutgoingHttpHeaders, body: string) =>
    new Promise<H2Answer>((resolve, reject) => {
      const origin = new URL(c.endpoint ?? (c.sandbox ? APNS_SANDBOX_ENDPOINT : APNS_ENDPOINT)).origin;
      let session: http2.ClientHttp2Session;
      try {
        session = sessionFor(origin, c.ca);
      } catch (err) {
        reject(new DeliveryError(networkFailure(ctx, err)));
        return;
      }
      const req = session.request({ ':method': 'POST', ':path': path, ...headers }, { signal: ctx.signal });
      hold(session, 1);
      let held = true;
      const done = () => {
        if (held) hold(session, -1);
        held = false;
      };
      let status = 0;
      let responseHeaders: http2.IncomingHttpHeaders = {};
      const chunks: Buffer[] = [];
      req.on('response', (h) => {
        status = Number(h[':status']);
        responseHeaders = h;
      });
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        done();
        resolve({ status, headers: responseHeaders, body: Buffer.concat(chunks).toString('utf8') });
      });
      req.on('error', (err) => {
        done();
        reject(new DeliveryError(networkFailure(ctx, err)));
      });
      req.end(body);
    });

  return defineProvider(
    {
      kind: 'apns',
      configSchema: apnsConfigSchema,
      secretsOf: (c) => [c.private_key],
      async send(config, message, recipient, ctx): Promise<DeliveryResult> {
        if (!/^[0-9A-Fa-f]{16,200}$/.test(recipient.to)) {
          return fail('apns', 'not a device token', false, { code: 'BadDeviceToken', invalidRecipient: true });
        }
        const body = JSON.stringify({
          aps: { alert: { title: message.title, body: message.body }, sound: 'default' },
          ...message.data,
        });
        const attempt = (renew: boolean) =>
          post(
            ctx,
            config,
            `/3/device/${recipient.to}`,
            {
              authorization: `bearer ${providerToken(config, renew)}`,
              'apns-topic': config.bundle_id,
              'apns-push-type': 'alert',
              'apns-priority': '10',
              'content-type': 'application/json',
              ...(message.id && /^[0-9a-f-]{36}$/i.test(message.id) ? { 'apns-id': message.id } : {}),
            },
            body,
          );
        let answer = await attempt(false);
        // A cached token Apple calls expired is renewed once, then it is the answer.
        if (answer.status === 403 && reasonOf(answer.body) === 'ExpiredProviderToken') answer = await attempt(true);
        if (answer.status === 200) {
          const id = answer.headers['apns-id'];
          return { ok: true, ...(typeof id === 'string' ? { providerId: id } : {}) };
        }
        const reason = reasonOf(answer.body);
        const retryAfter = answer.headers['retry-after'];
        const retryAfterMs = parseRetryAfter(typeof retryAfter === 'string' ? retryAfter : undefined);
        return statusFailure(ctx, answer.status, reason ?? answer.body, {
          ...(reason ? { code: reason } : {}),
          ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
          ...(answer.status === 410 || reason === 'BadDeviceToken' || reason === 'Unregistered' ? { invalidRecipient: true } : {}),
        });
      },
      async close() {
        for (const session of sessions.values()) session.close();
        sessions.clear();
        tokens.clear();
      },
    },
    options,
  );
};
