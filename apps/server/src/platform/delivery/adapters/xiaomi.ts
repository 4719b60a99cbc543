import { z } from 'zod';
import { endpointField, requiredText } from '../config-fields.js';
import { field, httpRequest, joinUrl, statusFailure } from '../http.js';
import { defineProvider, fail, type ProviderOptions } from '../provider.js';

/**
 * Xiaomi push (MiPush server API v3): POST <endpoint>/v3/message/regid as a form, with
 * `Authorization: key=<app secret>`; fields registration_id, restricted_package_name, title,
 * description, payload, pass_through=0 (notification bar), notify_type=-1 (sound, vibration,
 * light), extra.channel_id. The answer is JSON {result: "ok", code: 0, data: {id}} or
 * {result: "error", code, reason}.
 */
export const xiaomiConfigSchema = z.object({
  /** AppSecret. */
  app_secret: requiredText,
  /** The app's package name (restricted_package_name). */
  package_name: requiredText,
  /** Notification channel id (SPEC message platform xm_ch_id). */
  channel_id: z.string().optional(),
  /** Default https://api.xmpush.xiaomi.com (global: https://api.xmpush.global.xiaomi.com). */
  endpoint: endpointField.optional(),
});

export type XiaomiConfig = z.output<typeof xiaomiConfigSchema>;

export const XIAOMI_ENDPOINT = 'https://api.xmpush.xiaomi.com';

export const createXiaomiProvider = (options: ProviderOptions = {}) =>
  defineProvider(
    {
      kind: 'xiaomi',
      configSchema: xiaomiConfigSchema,
      secretsOf: (c) => [c.app_secret],
      async send(config, message, recipient, ctx) {
        const form = new URLSearchParams({
          registration_id: recipient.to,
          restricted_package_name: config.package_name,
          title: message.title,
          description: message.body,
          pass_through: '0',
          notify_type: '-1',
          ...(message.data && Object.keys(message.data).length > 0 ? { payload: JSON.stringify(message.data) } : {}),
          ...(config.channel_id ? { 'extra.channel_id': config.channel_id } : {}),
        });
        const answer = await httpRequest(ctx, joinUrl(config.endpoint ?? XIAOMI_ENDPOINT, 'v3/message/regid'), {
          method: 'POST',
          headers: { authorization: `key=${config.app_secret}`, 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
          body: form,
        });
        const code = field(answer.json, 'code');
        const detail = [code, field(answer.json, 'reason') ?? field(answer.json, 'description')].filter(Boolean).join(' ');
        if (answer.status < 200 || answer.status >= 300)
          return statusFailure(ctx, answer.status, detail || answer.text, code ? { code } : {});
        if (field(answer.json, 'result') === 'ok' && (code === undefined || code === '0')) {
          const id = field(answer.json, 'data', 'id');
          return { ok: true, ...(id ? { providerId: id } : {}) };
        }
        // An error in a 200 answer is about this request (parameters, quota of the day): not retried.
        return fail('xiaomi', detail || 'unexpected answer', false, { status: answer.status, ...(code ? { code } : {}) });
      },
    },
    options,
  );
