import crypto from 'node:crypto';
import { z } from 'zod';
import { endpointField, requiredText } from '../config-fields.js';
import { field, httpRequest, parseRetryAfter, statusFailure } from '../http.js';
import { defineProvider, type ProviderOptions } from '../provider.js';

/**
 * Webhook: POST of a JSON body to the platform's URL, signed so the receiver can tell it
 * came from us and was not replayed.
 *
 *   X-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>
 *
 * To verify, the receiver takes the raw request body (bytes as received, before any JSON
 * parsing), computes HMAC-SHA256 with the shared secret over the decimal timestamp, a dot
 * and the body, compares it with v1 in constant time (crypto.timingSafeEqual), and refuses
 * timestamps more than 5 minutes from its clock. `verifyWebhookSignature` below does exactly
 * that. Any 2xx answer counts as delivered.
 */
export const webhookConfigSchema = z.object({
  endpoint: endpointField,
  /** The shared signing secret. */
  secret_key: requiredText,
});

export type WebhookConfig = z.output<typeof webhookConfigSchema>;

export const WEBHOOK_SIGNATURE_HEADER = 'X-Signature';
export const WEBHOOK_TOLERANCE_SECONDS = 300;

const hmacHex = (secret: string, timestamp: number | string, body: string) =>
  crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');

export const webhookSignature = (secret: string, timestamp: number, body: string): string =>
  `t=${timestamp},v1=${hmacHex(secret, timestamp, body)}`;

/** The receiving side's check (for our own receivers and for partners' reference). */
export const verifyWebhookSignature = (
  header: string | undefined,
  rawBody: string,
  secret: string,
  nowSeconds = Math.floor(Date.now() / 1000),
  toleranceSeconds = WEBHOOK_TOLERANCE_SECONDS,
): boolean => {
  if (!header) return false;
  const parts = new Map(header.split(',').map((p) => p.trim().split('=', 2) as [string, string]));
  const t = parts.get('t');
  const v1 = parts.get('v1');
  if (!t || !/^\d+$/.test(t) || !v1 || !/^[0-9a-f]{64}$/.test(v1)) return false;
  if (Math.abs(nowSeconds - Number(t)) > toleranceSeconds) return false;
  return crypto.timingSafeEqual(Buffer.from(v1, 'hex'), Buffer.from(hmacHex(secret, t, rawBody), 'hex'));
};

/** The JSON body a webhook receives. */
export interface WebhookBody {
  id: string | null;
  to: string;
  lang: string | null;
  title: string;
  body: string;
  data: Record<string, string>;
  sent_at: string;
}

export const createWebhookProvider = (options: ProviderOptions = {}) =>
  defineProvider(
    {
      kind: 'webhook',
      configSchema: webhookConfigSchema,
      secretsOf: (c) => [c.secret_key],
      async send(config, message, recipient, ctx) {
        const now = new Date();
        const payload: WebhookBody = {
          id: message.id ?? null,
          to: recipient.to,
          lang: recipient.lang ?? null,
          title: message.title,
          body: message.body,
          data: { ...message.params, ...message.data },
          sent_at: now.toISOString(),
        };
        const body = JSON.stringify(payload);
        const answer = await httpRequest(ctx, config.endpoint, {
          method: 'POST',
          headers: {
            'content-type': 'application/json; charset=utf-8',
            [WEBHOOK_SIGNATURE_HEADER]: webhookSignature(config.secret_key, Math.floor(now.getTime() / 1000), body),
            ...(message.id ? { 'X-Delivery-Id': message.id } : {}),
          },
          body,
        });
        if (answer.status >= 200 && answer.status < 300) {
          return { ok: true, ...(message.id ? { providerId: message.id } : {}) };
        }
        const detail = field(answer.json, 'error') ?? field(answer.json, 'message') ?? answer.text;
        const retryAfterMs = parseRetryAfter(answer.headers.get('retry-after'));
        return statusFailure(ctx, answer.status, detail, retryAfterMs === undefined ? {} : { retryAfterMs });
      },
    },
    options,
  );
