import crypto from 'node:crypto';
import { z } from 'zod';
import { endpointField, requiredText } from '../config-fields.js';
import { field, httpRequest, statusFailure } from '../http.js';
import { defineProvider, fail, type ProviderOptions } from '../provider.js';

/**
 * Tencent Cloud SMS (API 3.0, SendSms 2021-01-11) with the TC3-HMAC-SHA256 signature:
 *
 *   CanonicalRequest = "POST\n/\n\n" + "content-type:application/json; charset=utf-8\nhost:<host>\nx-tc-action:sendsms\n"
 *                      + "\ncontent-type;host;x-tc-action\n" + hex(SHA-256(body))
 *   CredentialScope  = <UTC date YYYY-MM-DD> + "/sms/tc3_request"
 *   StringToSign     = "TC3-HMAC-SHA256\n" + <unix seconds> + "\n" + CredentialScope + "\n" + hex(SHA-256(CanonicalRequest))
 *   key              = HMAC(HMAC(HMAC("TC3" + SecretKey, date), "sms"), "tc3_request")
 *   Authorization    = "TC3-HMAC-SHA256 Credential=<SecretId>/<CredentialScope>, SignedHeaders=content-type;host;x-tc-action,
 *                       Signature=" + hex(HMAC(key, StringToSign))
 *
 * with X-TC-Action, X-TC-Timestamp, X-TC-Version, X-TC-Region headers. The answer is always
 * HTTP 200: {Response: {SendStatusSet: [{Code: "Ok", SerialNo…}]}} or {Response: {Error: {Code, Message}}}.
 * Template parameters are positional (TemplateParamSet): `message.params` values in their order.
 */
export const tencentSmsConfigSchema = z.object({
  secret_id: requiredText,
  secret_key: requiredText,
  /** SmsSdkAppId. */
  app_id: requiredText,
  /** SignName: the approved signature. */
  sign_name: requiredText,
  /** Region. Default ap-guangzhou. */
  zone: z.string().trim().min(1).optional(),
  /** Default https://sms.tencentcloudapi.com. */
  endpoint: endpointField.optional(),
});

export type TencentSmsConfig = z.output<typeof tencentSmsConfigSchema>;

export const TENCENT_SMS_ENDPOINT = 'https://sms.tencentcloudapi.com';
const SERVICE = 'sms';
const ACTION = 'SendSms';
const VERSION = '2021-01-11';
const CONTENT_TYPE = 'application/json; charset=utf-8';

const sha256Hex = (data: string) => crypto.createHash('sha256').update(data, 'utf8').digest('hex');
const hmac = (key: string | Buffer, data: string) => crypto.createHmac('sha256', key).update(data, 'utf8').digest();

const tc3Authorization = (c: TencentSmsConfig, host: string, timestamp: number, body: string): string => {
  const date = new Date(timestamp * 1000).toISOString().slice(0, 10);
  const signedHeaders = 'content-type;host;x-tc-action';
  const canonicalHeaders = `content-type:${CONTENT_TYPE}\nhost:${host}\nx-tc-action:${ACTION.toLowerCase()}\n`;
  const canonicalRequest = `POST\n/\n\n${canonicalHeaders}\n${signedHeaders}\n${sha256Hex(body)}`;
  const scope = `${date}/${SERVICE}/tc3_request`;
  const stringToSign = `TC3-HMAC-SHA256\n${timestamp}\n${scope}\n${sha256Hex(canonicalRequest)}`;
  const key = hmac(hmac(hmac(`TC3${c.secret_key}`, date), SERVICE), 'tc3_request');
  const signature = crypto.createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex');
  return `TC3-HMAC-SHA256 Credential=${c.secret_id}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
};

/** Error codes worth another try later. */
const isTransient = (code: string) => code.startsWith('InternalError') || code === 'RequestLimitExceeded' || code === 'ResourceUnavailable';

const BAD_NUMBER = /PhoneNumber|IncorrectPhoneNumber|MobileNumber/i;

export const createTencentSmsProvider = (options: ProviderOptions = {}) =>
  defineProvider(
    {
      kind: 'sms_tencent',
      configSchema: tencentSmsConfigSchema,
      secretsOf: (c) => [c.secret_key],
      async send(config, message, recipient, ctx) {
        if (!message.templateCode) return fail('sms_tencent', 'no TemplateId (the template code)', false, { code: 'CONFIG' });
        const url = new URL(config.endpoint ?? TENCENT_SMS_ENDPOINT);
        const body = JSON.stringify({
          PhoneNumberSet: [recipient.to],
          SmsSdkAppId: config.app_id,
          SignName: config.sign_name,
          TemplateId: message.templateCode,
          TemplateParamSet: Object.values(message.params ?? {}),
          ...(message.id ? { SessionContext: message.id } : {}),
        });
        const timestamp = Math.floor(Date.now() / 1000);
        const answer = await httpRequest(ctx, url, {
          method: 'POST',
          headers: {
            authorization: tc3Authorization(config, url.host, timestamp, body),
            'content-type': CONTENT_TYPE,
            'x-tc-action': ACTION,
            'x-tc-timestamp': String(timestamp),
            'x-tc-version': VERSION,
            'x-tc-region': config.zone ?? 'ap-guangzhou',
          },
          body,
        });
        const errorCode = field(answer.json, 'Response', 'Error', 'Code');
        const errorText = [errorCode, field(answer.json, 'Response', 'Error', 'Message')].filter(Boolean).join(' ');
        if (answer.status < 200 || answer.status >= 300)
          return statusFailure(ctx, answer.status, errorText || answer.text, errorCode ? { code: errorCode } : {});
        if (errorCode) return fail('sms_tencent', errorText, isTransient(errorCode), { status: answer.status, code: errorCode });
        const status = (answer.json as { Response?: { SendStatusSet?: unknown[] } } | undefined)?.Response?.SendStatusSet?.[0];
        const code = field(status, 'Code');
        if (code === 'Ok') {
          const serial = field(status, 'SerialNo');
          return { ok: true, ...(serial ? { providerId: serial } : {}) };
        }
        const text = [code, field(status, 'Message')].filter(Boolean).join(' ') || 'no send status in the answer';
        return fail('sms_tencent', text, code !== undefined && isTransient(code), {
          status: answer.status,
          ...(code ? { code } : {}),
          ...(code && BAD_NUMBER.test(code) ? { invalidRecipient: true } : {}),
        });
      },
    },
    options,
  );
