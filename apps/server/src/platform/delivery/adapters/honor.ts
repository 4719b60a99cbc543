import { z } from 'zod';
import { endpointField, requiredText } from '../config-fields.js';
import { field, httpRequest, joinUrl, parseRetryAfter, statusFailure } from '../http.js';
import { type DeliveryResult, defineProvider, fail, type ProviderOptions } from '../provider.js';
import { clientCredentialsToken } from './huawei.js';
import { accountKey, createTokenCache } from './token-cache.js';

/**
 * Honor Push (server API v1), a close relative of Huawei's:
 * 1. OAuth 2.0 client credentials: POST <auth_endpoint>/auth/token as a form
 *    grant_type=client_credentials, client_id, client_secret → {access_token, expires_in (s)}.
 * 2. POST <endpoint>/api/v1/<app_id>/sendMessage with `Authorization: Bearer <token>` and a
 *    `timestamp` header (ms), JSON {notification: {title, body}, android: {notification: {title,
 *    body, clickAction: {type: 3 (open the app)}}}, token: [<push token>], data?: "<JSON>"}
 *    → {code: 200, message: "success", data: {…}}.
 * Assumed, not confirmed against Honor's documentation: error codes follow Huawei's (the
 * service was split off from it): 80200001 authentication error and 80200003 token expired (a
 * cached token is renewed once), 80300007 all tokens invalid (the recipient is gone), 81000001
 * internal error (tried again later, as HTTP 5xx and 429 are); and a 200 answer that lists our
 * token in `data.expireTokens` or `data.failTokens` is a failure (expired: the recipient is gone).
 */
export const honorConfigSchema = z.object({
  /** The app's App ID (in the send path). */
  app_id: requiredText,
  /** OAuth client id (Client ID of the app in Honor's developer console). */
  client_id: requiredText,
  /** OAuth client secret (Client Secret). */
  client_secret: requiredText,
  /** Default https://push-api.cloud.honor.com. */
  endpoint: endpointField.optional(),
  /** Default https://iam.developer.honor.com. */
  auth_endpoint: endpointField.optional(),
});

export type HonorConfig = z.output<typeof honorConfigSchema>;

export const HONOR_ENDPOINT = 'https://push-api.cloud.honor.com';
export const HONOR_AUTH_ENDPOINT = 'https://iam.developer.honor.com';
const SUCCESS = '200';
const TOKEN_REFUSED = new Set(['80200001', '80200003']);
const TRANSIENT_CODES = new Set(['81000001']);
const INVALID_TOKENS = '80300007';

/** Whether a token list of the answer's `data` names this recipient. */
const lists = (json: unknown, key: string, token: string): boolean => {
  const data = (json as { data?: Record<string, unknown> } | undefined)?.data;
  const list = data?.[key];
  return Array.isArray(list) && list.includes(token);
};

export const createHonorProvider = (options: ProviderOptions = {}) => {
  const tokens = createTokenCache();
  const authUrl = (c: HonorConfig) => joinUrl(c.auth_endpoint ?? HONOR_AUTH_ENDPOINT, 'auth/token');

  return defineProvider(
    {
      kind: 'honor',
      configSchema: honorConfigSchema,
      secretsOf: (c) => [c.client_secret],
      async send(config, message, recipient, ctx): Promise<DeliveryResult> {
        const notification = { title: message.title, body: message.body };
        const body = JSON.stringify({
          notification,
          android: { notification: { ...notification, clickAction: { type: 3 } } },
          token: [recipient.to],
          ...(message.data && Object.keys(message.data).length > 0 ? { data: JSON.stringify(message.data) } : {}),
        });
        const url = joinUrl(config.endpoint ?? HONOR_ENDPOINT, `api/v1/${encodeURIComponent(config.app_id)}/sendMessage`);
        const answer = await tokens.withToken(
          accountKey(authUrl(config), config.client_id, config.client_secret),
          () => clientCredentialsToken(ctx, authUrl(config), config.client_id, config.client_secret),
          (token) =>
            httpRequest(ctx, url, {
              method: 'POST',
              headers: {
                authorization: `Bearer ${token}`,
                timestamp: String(Date.now()),
                'content-type': 'application/json; charset=utf-8',
              },
              body,
            }),
          (a) => TOKEN_REFUSED.has(field(a.json, 'code') ?? ''),
        );
        const code = field(answer.json, 'code');
        const detail = [code, field(answer.json, 'message')].filter(Boolean).join(' ');
        const extra = { ...(code ? { code } : {}), ...(code === INVALID_TOKENS ? { invalidRecipient: true } : {}) };
        const transient = code !== undefined && TRANSIENT_CODES.has(code);
        if (answer.status < 200 || answer.status >= 300) {
          const retryAfterMs = parseRetryAfter(answer.headers.get('retry-after'));
          const failure = statusFailure(ctx, answer.status, detail || answer.text, { ...extra, ...(retryAfterMs ? { retryAfterMs } : {}) });
          return transient ? { ...failure, retryable: true } : failure;
        }
        if (code !== SUCCESS) return fail('honor', detail || 'unexpected answer', transient, { status: answer.status, ...extra });
        if (lists(answer.json, 'expireTokens', recipient.to))
          return fail('honor', 'token expired', false, { status: answer.status, code: 'expireTokens', invalidRecipient: true });
        if (lists(answer.json, 'failTokens', recipient.to))
          return fail('honor', 'token refused', false, { status: answer.status, code: 'failTokens' });
        const id = field(answer.json, 'data', 'requestId');
        return { ok: true, ...(id ? { providerId: id } : {}) };
      },
      async close() {
        tokens.clear();
      },
    },
    options,
  );
};
