import crypto from 'node:crypto';
import { z } from 'zod';
import { endpointField, requiredText } from '../config-fields.js';
import { field, httpRequest, statusFailure } from '../http.js';
import { defineProvider, fail, type ProviderOptions } from '../provider.js';

/**
 * Aliyun SMS (Dysmsapi 2017-05-25, SendSms) with the RPC signature, version 1.0:
 *
 * 1. Parameters: the common ones (AccessKeyId, Action, Format, RegionId, SignatureMethod
 *    HMAC-SHA1, SignatureNonce, SignatureVersion 1.0, Timestamp `YYYY-MM-DDThh:mm:ssZ` UTC,
 *    Version) and the action's (PhoneNumbers, SignName, TemplateCode, TemplateParam JSON,
 *    OutId).
 * 2. Canonicalized query: keys sorted by code point, each key and value percent-encoded per
 *    RFC 3986 (only A–Z a–z 0–9 - _ . ~ left as they are; space is %20), joined `k=v&k=v`.
 * 3. StringToSign = METHOD & "%2F" & percentEncode(canonicalized query).
 * 4. Signature = base64(HMAC-SHA1(AccessKeySecret + "&", StringToSign)), sent as one more
 *    parameter. We POST the parameters as a form body (the method is in StringToSign).
 *
 * Answers are JSON: `Code` "OK" with `BizId`, else an error code (`isv.*`, `SignatureDoesNotMatch`).
 */
export const aliyunSmsConfigSchema = z.object({
  /** AccessKeyId. */
  key_id: requiredText,
  /** AccessKeySecret. */
  key_secret: requiredText,
  /** SignName: the approved signature shown in front of the text. */
  sign_name: requiredText,
  /** RegionId. Default cn-hangzhou. */
  zone: z.string().trim().min(1).optional(),
  /** Default https://dysmsapi.aliyuncs.com (international: https://dysmsapi.ap-southeast-1.aliyuncs.com). */
  endpoint: endpointField.optional(),
});

export type AliyunSmsConfig = z.output<typeof aliyunSmsConfigSchema>;

export const ALIYUN_SMS_ENDPOINT = 'https://dysmsapi.aliyuncs.com';

/** RFC 3986 encoding: encodeURIComponent leaves ! ' ( ) * as they are, Aliyun wants them encoded. */
export const percentEncode = (s: string): string =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const signRpc = (method: string, params: Readonly<Record<string, string>>, secret: string): string => {
  const canonical = Object.keys(params)
    .sort()
    .map((k) => `${percentEncode(k)}=${percentEncode(params[k] ?? '')}`)
    .join('&');
  const stringToSign = `${method}&${percentEncode('/')}&${percentEncode(canonical)}`;
  return crypto.createHmac('sha1', `${secret}&`).update(stringToSign).digest('base64');
};

/** Aliyun's answers that mean "later", not "never". */
const TRANSIENT_CODES = new Set(['isv.BUSINESS_LIMIT_CONTROL', 'Throttling', 'Throttling.User', 'ServiceUnavailable', 'InternalError']);

export const createAliyunSmsProvider = (options: ProviderOptions = {}) =>
  defineProvider(
    {
      kind: 'sms_aliyun',
      configSchema: aliyunSmsConfigSchema,
      secretsOf: (c) => [c.key_secret],
      async send(config, message, recipient, ctx) {
        if (!message.templateCode) return fail('sms_aliyun', 'no TemplateCode (the template code)', false, { code: 'CONFIG' });
        const params: Record<string, string> = {
          AccessKeyId: config.key_id,
          Action: 'SendSms',
          Format: 'JSON',
          RegionId: config.zone ?? 'cn-hangzhou',
          SignatureMethod: 'HMAC-SHA1',
          SignatureNonce: crypto.randomUUID(),
          SignatureVersion: '1.0',
          Timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
          Version: '2017-05-25',
          PhoneNumbers: recipient.to.replace(/^\+/, ''),
          SignName: config.sign_name,
          TemplateCode: message.templateCode,
          ...(message.params && Object.keys(message.params).length > 0 ? { TemplateParam: JSON.stringify(message.params) } : {}),
          ...(message.id ? { OutId: message.id } : {}),
        };
        const body = new URLSearchParams({ ...params, Signature: signRpc('POST', params, config.key_secret) });
        const answer = await httpRequest(ctx, `${(config.endpoint ?? ALIYUN_SMS_ENDPOINT).replace(/\/+$/, '')}/`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body,
        });
        const code = field(answer.json, 'Code');
        const detail = [code, field(answer.json, 'Message')].filter(Boolean).join(' ');
        if (answer.status >= 200 && answer.status < 300 && code === 'OK') {
          const bizId = field(answer.json, 'BizId');
          return { ok: true, ...(bizId ? { providerId: bizId } : {}) };
        }
        if (answer.status >= 200 && answer.status < 300) {
          return fail('sms_aliyun', detail || 'no Code in the answer', code !== undefined && TRANSIENT_CODES.has(code), {
            status: answer.status,
            ...(code ? { code } : {}),
            ...(code === 'isv.MOBILE_NUMBER_ILLEGAL' ? { invalidRecipient: true } : {}),
          });
        }
        return statusFailure(ctx, answer.status, detail || answer.text, code ? { code } : {});
      },
    },
    options,
  );
