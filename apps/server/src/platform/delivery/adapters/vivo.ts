import crypto from 'node:crypto';
import { z } from 'zod';
import { endpointField, requiredText } from '../config-fields.js';
import { field, httpRequest, joinUrl, parseRetryAfter, statusFailure } from '../http.js';
import { type AdapterContext, DeliveryError, type DeliveryResult, defineProvider, fail, type ProviderOptions } from '../provider.js';
import { accountKey, createTokenCache, type IssuedToken } from './token-cache.js';

/**
 * vivo push (server API):
 * 1. POST <endpoint>/message/auth, JSON {appId, appKey, timestamp (ms), sign = lowercase hex
 *    MD5(appId + appKey + timestamp + appSecret)} → {result: 0, desc, authToken}; the token lasts
 *    24 hours, kept here for 23.
 * 2. POST <endpoint>/message/send with header `authToken`, JSON {regId, notifyType: 4 (sound and
 *    vibration), title, content, skipType: 1 (open the app), requestId (unique per request: vivo
 *    drops repeats), classification?, clientCustomMap? (key/values for the app)} → {result: 0,
 *    desc, taskId}.
 * Errors come as a non-zero `result` with `desc`; 10000 is an invalid auth token (a cached one is
 * renewed once). Other results are taken as final (parameters, quotas of the day); HTTP 5xx and
 * 429 are tried again.
 */
export const vivoConfigSchema = z.object({
  /** AppID. */
  app_id: requiredText,
  /** AppKey. */
  app_key: requiredText,
  /** AppSecret. */
  app_secret: requiredText,
  /** 0 operation message, 1 system message (vivo's message classes; unset: the app's default). */
  classification: z.union([z.literal(0), z.literal(1)]).optional(),
  /** Default https://api-push.vivo.com.cn. */
  endpoint: endpointField.optional(),
});

export type VivoConfig = z.output<typeof vivoConfigSchema>;

export const VIVO_ENDPOINT = 'https://api-push.vivo.com.cn';
const TOKEN_LIFETIME_MS = 23 * 3600_000;
const INVALID_AUTH_TOKEN = '10000';

/** vivo's app ids are numbers (its SDK sends an int); other values go as they are. */
const appIdValue = (id: string): string | number => (/^[1-9]\d{0,14}$/.test(id) ? Number(id) : id);

export const createVivoProvider = (options: ProviderOptions = {}) => {
  const tokens = createTokenCache();
  const base = (c: VivoConfig) => c.endpoint ?? VIVO_ENDPOINT;

  const authenticate = async (ctx: AdapterContext, c: VivoConfig): Promise<IssuedToken> => {
    const timestamp = Date.now();
    const sign = crypto.createHash('md5').update(`${c.app_id}${c.app_key}${timestamp}${c.app_secret}`, 'utf8').digest('hex');
    const answer = await httpRequest(ctx, joinUrl(base(c), 'message/auth'), {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ appId: appIdValue(c.app_id), appKey: c.app_key, timestamp, sign }),
    });
    const result = field(answer.json, 'result');
    const token = field(answer.json, 'authToken');
    if (answer.status === 200 && result === '0' && token) return { token, keepMs: TOKEN_LIFETIME_MS };
    const detail = `auth: ${[result, field(answer.json, 'desc')].filter(Boolean).join(' ') || answer.text}`;
    throw new DeliveryError(
      answer.status === 200
        ? fail('vivo', detail, false, result ? { code: result } : {})
        : statusFailure(ctx, answer.status, detail, result ? { code: result } : {}),
    );
  };

  return defineProvider(
    {
      kind: 'vivo',
      configSchema: vivoConfigSchema,
      secretsOf: (c) => [c.app_secret],
      async send(config, message, recipient, ctx): Promise<DeliveryResult> {
        const post = (token: string) =>
          httpRequest(ctx, joinUrl(base(config), 'message/send'), {
            method: 'POST',
            headers: { authToken: token, 'content-type': 'application/json; charset=utf-8' },
            body: JSON.stringify({
              regId: recipient.to,
              notifyType: 4,
              title: message.title,
              content: message.body,
              skipType: 1,
              // A new id per request: a renewed-token retry is another request, and record ids repeat across databases.
              requestId: crypto.randomUUID(),
              ...(config.classification !== undefined ? { classification: config.classification } : {}),
              ...(message.data && Object.keys(message.data).length > 0 ? { clientCustomMap: message.data } : {}),
            }),
          });
        const answer = await tokens.withToken(
          accountKey(config.endpoint, config.app_id, config.app_key, config.app_secret),
          () => authenticate(ctx, config),
          post,
          (a) => field(a.json, 'result') === INVALID_AUTH_TOKEN,
        );
        const result = field(answer.json, 'result');
        const detail = [result, field(answer.json, 'desc')].filter(Boolean).join(' ');
        if (answer.status < 200 || answer.status >= 300) {
          const retryAfterMs = parseRetryAfter(answer.headers.get('retry-after'));
          return statusFailure(ctx, answer.status, detail || answer.text, {
            ...(result ? { code: result } : {}),
            ...(retryAfterMs ? { retryAfterMs } : {}),
          });
        }
        if (result === '0') {
          const id = field(answer.json, 'taskId');
          return { ok: true, ...(id ? { providerId: id } : {}) };
        }
        return fail('vivo', detail || 'unexpected answer', false, { status: answer.status, ...(result ? { code: result } : {}) });
      },
      async close() {
        tokens.clear();
      },
    },
    options,
  );
};
