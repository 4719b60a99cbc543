import crypto from 'node:crypto';
import { z } from 'zod';
import { endpointField, pemField, requiredText } from '../config-fields.js';
import { field, type HttpAnswer, httpRequest, joinUrl, parseRetryAfter, statusFailure } from '../http.js';
import { privateKeyOf, signJwt } from '../jwt.js';
import { type AdapterContext, DeliveryError, type DeliveryResult, defineProvider, fail, type ProviderOptions } from '../provider.js';

/**
 * Firebase Cloud Messaging, HTTP v1, with a service account (OAuth 2.0 JWT bearer grant,
 * RFC 7523):
 *
 * 1. Assertion: JWT {alg: RS256, typ: JWT, kid: private_key_id} {iss: client_email,
 *    scope: …/auth/firebase.messaging, aud: token_uri, iat, exp: iat + 3600}, signed with the
 *    account's RSA key; POST token_uri as a form `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer
 *    &assertion=<jwt>` → {access_token, expires_in}. The token is kept until a minute before it expires.
 * 2. POST <endpoint>/v1/projects/<project_id>/messages:send, `authorization: Bearer <token>`,
 *    {message: {token, notification: {title, body}, data, android: {notification: {channel_id}}}}
 *    → {name: "projects/…/messages/…"}. Errors: {error: {code, status, details: [{errorCode}]}}.
 *
 * The config is the service-account JSON file's fields (SPEC "Message platform" secret_file),
 * either as one JSON text (`service_account`) or as fields.
 */
const serviceAccountFields = {
  project_id: requiredText,
  client_email: requiredText,
  private_key: pemField,
  private_key_id: z.string().optional(),
  /** The OAuth token endpoint; default https://oauth2.googleapis.com/token. */
  token_uri: endpointField.optional(),
};

export const fcmConfigSchema = z
  .object({
    /** The service-account JSON file's text; its fields fill what is not given separately. */
    service_account: z.string().optional(),
    project_id: z.string().optional(),
    client_email: z.string().optional(),
    private_key: z.string().optional(),
    private_key_id: z.string().optional(),
    token_uri: z.string().optional(),
    /** The send API's base; default https://fcm.googleapis.com. */
    endpoint: endpointField.optional(),
    /** Android notification channel (SPEC message platform's channel ids). */
    channel_id: z.string().optional(),
  })
  .transform((c, ctx) => {
    let file: Record<string, unknown> = {};
    if (c.service_account) {
      try {
        file = JSON.parse(c.service_account) as Record<string, unknown>;
      } catch {
        ctx.addIssue({ code: 'custom', path: ['service_account'], message: 'not JSON' });
        return z.NEVER;
      }
    }
    const merged = z.object(serviceAccountFields).safeParse({
      project_id: c.project_id ?? file.project_id,
      client_email: c.client_email ?? file.client_email,
      private_key: c.private_key ?? file.private_key,
      private_key_id: c.private_key_id ?? file.private_key_id,
      token_uri: c.token_uri ?? file.token_uri,
    });
    if (!merged.success) {
      for (const issue of merged.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
      return z.NEVER;
    }
    return { ...merged.data, endpoint: c.endpoint, channel_id: c.channel_id };
  });

export type FcmConfig = z.output<typeof fcmConfigSchema>;

export const FCM_ENDPOINT = 'https://fcm.googleapis.com';
export const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';
export const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';

/** The FCM v1 error code: details[].errorCode, else the status (UNREGISTERED, INVALID_ARGUMENT…). */
const fcmErrorCode = (json: unknown): string | undefined => {
  const details = (json as { error?: { details?: unknown } } | undefined)?.error?.details;
  if (Array.isArray(details)) {
    for (const d of details) {
      const code = field(d, 'errorCode');
      if (code) return code;
    }
  }
  return field(json, 'error', 'status');
};

export const createFcmProvider = (options: ProviderOptions = {}) => {
  const tokens = new Map<string, { token: string; expiresAt: number }>();
  // Tokens per account and key; the key is hashed rather than held as a map key.
  const tokenKey = (c: FcmConfig) =>
    crypto.createHash('sha256').update(`${c.client_email}\n${c.token_uri}\n${c.private_key}`).digest('base64url');

  const fetchAccessToken = async (ctx: AdapterContext, c: FcmConfig): Promise<string> => {
    const tokenUri = c.token_uri ?? GOOGLE_TOKEN_URI;
    const iat = Math.floor(Date.now() / 1000);
    const assertion = signJwt(
      'RS256',
      { typ: 'JWT', ...(c.private_key_id ? { kid: c.private_key_id } : {}) },
      { iss: c.client_email, scope: FCM_SCOPE, aud: tokenUri, iat, exp: iat + 3600 },
      privateKeyOf(c.private_key),
    );
    const answer = await httpRequest(ctx, tokenUri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }),
    });
    const token = field(answer.json, 'access_token');
    if (answer.status !== 200 || !token) {
      const error = field(answer.json, 'error');
      const detail = `token endpoint: ${[error, field(answer.json, 'error_description')].filter(Boolean).join(' ') || answer.text}`;
      // invalid_grant (bad signature, unknown account, clock) will not get better by itself.
      throw new DeliveryError(
        answer.status === 200
          ? fail('fcm', `${detail}: no access_token`, false)
          : statusFailure(ctx, answer.status, detail, error ? { code: error } : {}),
      );
    }
    const expiresIn = Number(field(answer.json, 'expires_in') ?? 3600);
    tokens.set(tokenKey(c), { token, expiresAt: Date.now() + Math.max(0, expiresIn - 60) * 1000 });
    return token;
  };

  return defineProvider(
    {
      kind: 'fcm',
      configSchema: fcmConfigSchema,
      secretsOf: (c) => [c.private_key],
      async send(config, message, recipient, ctx): Promise<DeliveryResult> {
        const url = joinUrl(config.endpoint ?? FCM_ENDPOINT, `v1/projects/${encodeURIComponent(config.project_id)}/messages:send`);
        const body = JSON.stringify({
          message: {
            token: recipient.to,
            notification: { title: message.title, body: message.body },
            ...(message.data && Object.keys(message.data).length > 0 ? { data: message.data } : {}),
            ...(config.channel_id ? { android: { notification: { channel_id: config.channel_id } } } : {}),
          },
        });
        const post = (token: string): Promise<HttpAnswer> =>
          httpRequest(ctx, url, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=utf-8' },
            body,
          });
        const cached = tokens.get(tokenKey(config));
        const fresh = !cached || cached.expiresAt <= Date.now();
        let answer = await post(fresh ? await fetchAccessToken(ctx, config) : cached.token);
        // A kept token Google no longer takes (revoked, key rotated): one new token, then the answer stands.
        if (answer.status === 401 && !fresh) answer = await post(await fetchAccessToken(ctx, config));
        if (answer.status === 200) {
          const name = field(answer.json, 'name');
          return { ok: true, ...(name ? { providerId: name } : {}) };
        }
        if (answer.status === 401) tokens.delete(tokenKey(config));
        const code = fcmErrorCode(answer.json);
        const retryAfterMs = parseRetryAfter(answer.headers.get('retry-after'));
        return statusFailure(ctx, answer.status, [code, field(answer.json, 'error', 'message')].filter(Boolean).join(' ') || answer.text, {
          ...(code ? { code } : {}),
          ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
          ...(code === 'UNREGISTERED' ? { invalidRecipient: true } : {}),
        });
      },
      async close() {
        tokens.clear();
      },
    },
    options,
  );
};
