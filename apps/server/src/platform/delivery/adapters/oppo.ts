import crypto from 'node:crypto';
import { z } from 'zod';
import { endpointField, requiredText } from '../config-fields.js';
import { field, httpRequest, joinUrl, statusFailure } from '../http.js';
import { type AdapterContext, DeliveryError, defineProvider, fail, type ProviderOptions } from '../provider.js';
import { accountKey, createTokenCache, type IssuedToken } from './token-cache.js';

/**
 * OPPO push (server API v1):
 * 1. POST <endpoint>/server/v1/auth as a form: app_key, timestamp (ms), sign =
 *    hex SHA-256(app_key + timestamp + master_secret) → {code: 0, data: {auth_token}}; the
 *    token lasts 24 hours, kept here for 23.
 * 2. POST <endpoint>/server/v1/message/notification/unicast as a form with header
 *    `auth_token`, field message = JSON {target_type: 2 (registration id), target_value,
 *    notification: {title, content, channel_id, action_parameters}} → {code: 0, data: {messageId}}.
 * Errors come as a non-zero `code` with `message`; code 11 is an invalid auth token.
 */
export const oppoConfigSchema = z.object({
  app_key: requiredText,
  master_secret: requiredText,
  /** Notification channel id (SPEC message platform oppo_ch_id). */
  channel_id: z.string().optional(),
  /** Default https://api.push.oppomobile.com. */
  endpoint: endpointField.optional(),
});

export type OppoConfig = z.output<typeof oppoConfigSchema>;

export const OPPO_ENDPOINT = 'https://api.push.oppomobile.com';
const TOKEN_LIFETIME_MS = 23 * 3600_000;
const INVALID_AUTH_TOKEN = '11';
/** -1 "service busy", -2 "service currently unavailable". */
const TRANSIENT_CODES = new Set(['-1', '-2']);

export const createOppoProvider = (options: ProviderOptions = {}) => {
  const tokens = createTokenCache();
  const keyOf = (c: OppoConfig) => accountKey(c.endpoint, c.app_key, c.master_secret);
  const base = (c: OppoConfig) => c.endpoint ?? OPPO_ENDPOINT;

  const authenticate = async (ctx: AdapterContext, c: OppoConfig): Promise<IssuedToken> => {
    const timestamp = String(Date.now());
    const sign = crypto.createHash('sha256').update(`${c.app_key}${timestamp}${c.master_secret}`).digest('hex');
    const answer = await httpRequest(ctx, joinUrl(base(c), 'server/v1/auth'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ app_key: c.app_key, sign, timestamp }),
    });
    const code = field(answer.json, 'code');
    const token = field(answer.json, 'data', 'auth_token');
    if (answer.status !== 200 || code !== '0' || !token) {
      const detail = `auth: ${[code, field(answer.json, 'message')].filter(Boolean).join(' ') || answer.text}`;
      throw new DeliveryError(
        answer.status === 200
          ? fail('oppo', detail, code !== undefined && TRANSIENT_CODES.has(code), code ? { code } : {})
          : statusFailure(ctx, answer.status, detail, code ? { code } : {}),
      );
    }
    return { token, keepMs: TOKEN_LIFETIME_MS };
  };

  return defineProvider(
    {
      kind: 'oppo',
      configSchema: oppoConfigSchema,
      secretsOf: (c) => [c.master_secret],
      async send(config, message, recipient, ctx) {
        const form = new URLSearchParams({
          message: JSON.stringify({
            target_type: 2,
            target_value: recipient.to,
            notification: {
              title: message.title,
              content: message.body,
              ...(config.channel_id ? { channel_id: config.channel_id } : {}),
              ...(message.data && Object.keys(message.data).length > 0 ? { action_parameters: JSON.stringify(message.data) } : {}),
            },
          }),
        });
        const post = (token: string) =>
          httpRequest(ctx, joinUrl(base(config), 'server/v1/message/notification/unicast'), {
            method: 'POST',
            headers: { auth_token: token, 'content-type': 'application/x-www-form-urlencoded' },
            body: form,
          });
        const answer = await tokens.withToken(
          keyOf(config),
          () => authenticate(ctx, config),
          post,
          (a) => field(a.json, 'code') === INVALID_AUTH_TOKEN,
        );
        const code = field(answer.json, 'code');
        const detail = [code, field(answer.json, 'message')].filter(Boolean).join(' ');
        if (answer.status < 200 || answer.status >= 300)
          return statusFailure(ctx, answer.status, detail || answer.text, code ? { code } : {});
        if (code === '0') {
          const id = field(answer.json, 'data', 'messageId');
          return { ok: true, ...(id ? { providerId: id } : {}) };
        }
        return fail('oppo', detail || 'unexpected answer', code !== undefined && TRANSIENT_CODES.has(code), {
          status: answer.status,
          ...(code ? { code } : {}),
        });
      },
      async close() {
        tokens.clear();
      },
    },
    options,
  );
};
