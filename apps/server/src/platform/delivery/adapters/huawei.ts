import { z } from 'zod';
import { endpointField, requiredText } from '../config-fields.js';
import { field, httpRequest, joinUrl, parseRetryAfter, statusFailure } from '../http.js';
import { type AdapterContext, DeliveryError, type DeliveryResult, defineProvider, fail, type ProviderOptions } from '../provider.js';
import { accountKey, createTokenCache, type IssuedToken, keepForSeconds } from './token-cache.js';

/**
 * Huawei Push Kit (server API v1):
 * 1. OAuth 2.0 client credentials: POST <auth_endpoint>/oauth2/v3/token as a form
 *    grant_type=client_credentials, client_id, client_secret → {access_token, expires_in (s),
 *    token_type: "Bearer"}; an error is HTTP 4xx {error, sub_error, error_description}.
 * 2. POST <endpoint>/v1/<app_id>/messages:send with `Authorization: Bearer <token>`, JSON
 *    {validate_only: false, message: {notification: {title, body}, android: {notification:
 *    {title, body, click_action: {type: 3 (open the app)}}}, token: [<push token>], data?: "<JSON>"}}
 *    → {code: "80000000", msg: "Success", requestId}.
 * Other codes (with HTTP 400/401/500/503): 80200001 OAuth authentication error and 80200003 token
 * expired (a cached token is renewed once), 80300007 all tokens invalid (the recipient is gone),
 * 81000001 internal error (tried again later, as HTTP 5xx and 429 are); the rest (80100003
 * incorrect message structure, 80300002 no permission…) are final.
 */
export const huaweiConfigSchema = z.object({
  /** The app's App ID (in the send path). */
  app_id: requiredText,
  /** OAuth client id; AppGallery Connect's OAuth client of an app is its App ID (the default). */
  client_id: z.string().trim().min(1).optional(),
  /** OAuth client secret (the App Secret). */
  client_secret: requiredText,
  /** Default https://push-api.cloud.huawei.com. */
  endpoint: endpointField.optional(),
  /** Default https://oauth-login.cloud.huawei.com. */
  auth_endpoint: endpointField.optional(),
});

export type HuaweiConfig = z.output<typeof huaweiConfigSchema>;

export const HUAWEI_ENDPOINT = 'https://push-api.cloud.huawei.com';
export const HUAWEI_AUTH_ENDPOINT = 'https://oauth-login.cloud.huawei.com';
const SUCCESS = '80000000';
const TOKEN_REFUSED = new Set(['80200001', '80200003']);
const TRANSIENT_CODES = new Set(['81000001']);
const INVALID_TOKENS = '80300007';

/**
 * The client-credentials grant Huawei and Honor share: form in, `{access_token, expires_in}`
 * out; a refusal (4xx, or 200 without a token) is final, 5xx and 429 are tried again.
 */
export const clientCredentialsToken = async (
  ctx: AdapterContext,
  url: string,
  clientId: string,
  clientSecret: string,
): Promise<IssuedToken> => {
  const answer = await httpRequest(ctx, url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
  });
  const token = field(answer.json, 'access_token');
  if (answer.status === 200 && token) {
    const expiresIn = Number(field(answer.json, 'expires_in') ?? 3600);
    return { token, keepMs: keepForSeconds(Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : 3600) };
  }
  const code = field(answer.json, 'error');
  const detail = `auth: ${
    [code, field(answer.json, 'sub_error'), field(answer.json, 'error_description')].filter(Boolean).join(' ') ||
    answer.text ||
    'no access_token'
  }`;
  throw new DeliveryError(
    answer.status === 200
      ? fail(ctx.kind, detail, false, code ? { code } : {})
      : statusFailure(ctx, answer.status, detail, code ? { code } : {}),
  );
};

export const createHuaweiProvider = (options: ProviderOptions = {}) => {
  const tokens = createTokenCache();
  const authUrl = (c: HuaweiConfig) => joinUrl(c.auth_endpoint ?? HUAWEI_AUTH_ENDPOINT, 'oauth2/v3/token');
  const clientId = (c: HuaweiConfig) => c.client_id ?? c.app_id;

  return defineProvider(
    {
      kind: 'huawei',
      configSchema: huaweiConfigSchema,
      secretsOf: (c) => [c.client_secret],
      async send(config, message, recipient, ctx): Promise<DeliveryResult> {
        const notification = { title: message.title, body: message.body };
        const body = JSON.stringify({
          validate_only: false,
          message: {
            notification,
            android: { notification: { ...notification, click_action: { type: 3 } } },
            token: [recipient.to],
            ...(message.data && Object.keys(message.data).length > 0 ? { data: JSON.stringify(message.data) } : {}),
          },
        });
        const url = joinUrl(config.endpoint ?? HUAWEI_ENDPOINT, `v1/${encodeURIComponent(config.app_id)}/messages:send`);
        const answer = await tokens.withToken(
          accountKey(authUrl(config), clientId(config), config.client_secret),
          () => clientCredentialsToken(ctx, authUrl(config), clientId(config), config.client_secret),
          (token) =>
            httpRequest(ctx, url, {
              method: 'POST',
              headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=utf-8' },
              body,
            }),
          (a) => TOKEN_REFUSED.has(field(a.json, 'code') ?? ''),
        );
        const code = field(answer.json, 'code');
        const detail = [code, field(answer.json, 'msg')].filter(Boolean).join(' ');
        const extra = { ...(code ? { code } : {}), ...(code === INVALID_TOKENS ? { invalidRecipient: true } : {}) };
        if (answer.status >= 200 && answer.status < 300 && code === SUCCESS) {
          const id = field(answer.json, 'requestId');
          return { ok: true, ...(id ? { providerId: id } : {}) };
        }
        const transient = code !== undefined && TRANSIENT_CODES.has(code);
        if (answer.status < 200 || answer.status >= 300) {
          const retryAfterMs = parseRetryAfter(answer.headers.get('retry-after'));
          const failure = statusFailure(ctx, answer.status, detail || answer.text, { ...extra, ...(retryAfterMs ? { retryAfterMs } : {}) });
          return transient ? { ...failure, retryable: true } : failure;
        }
        return fail('huawei', detail || 'unexpected answer', transient, { status: answer.status, ...extra });
      },
      async close() {
        tokens.clear();
      },
    },
    options,
  );
};
