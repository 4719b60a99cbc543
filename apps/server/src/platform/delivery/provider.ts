import type { z } from 'zod';

/**
 * One interface for every channel that delivers a message: email (SMTP), webhook, SMS
 * (Aliyun, Tencent Cloud), push (APNs, FCM, Xiaomi, OPPO, Huawei, vivo, Honor). An adapter builds and signs the
 * provider's own request; the base URL of every HTTP provider is a config field
 * (`endpoint`), so tests and private deployments point it elsewhere.
 *
 * A send never throws: it answers ok, or an error with `retryable` (4xx and authentication
 * failures are not worth repeating, except 429; 5xx, timeouts and refused connections are).
 * Error texts are safe to store and show: every secret of the config is masked in them.
 */

export interface DeliveryMessage {
  /** Rendered title: email subject, push title. SMS ignores it. */
  title: string;
  /** Rendered body: email body (HTML when `html`), push text. */
  body: string;
  /** The body is HTML (email only; render() escaped the values). */
  html?: boolean;
  /** The provider-side template for channels that render there (SMS: Aliyun TemplateCode, Tencent TemplateId). */
  templateCode?: string;
  /** Template parameters for channels that render on the provider's side (SMS), in the template's order. */
  params?: Readonly<Record<string, string>>;
  /** Extra key/values carried to the app (push payload data, webhook body). */
  data?: Readonly<Record<string, string>>;
  /** Our id of this delivery (push record id): sent where the provider takes one, for tracing and deduplication. */
  id?: string;
}

export interface Recipient {
  /** Email address, phone number (E.164 or national), device token or registration id; unused by webhooks. */
  to: string;
  /** Display name (email). */
  name?: string;
  /** The recipient's language (BCP 47). */
  lang?: string;
}

export type DeliveryResult = DeliverySuccess | DeliveryFailure;

export interface DeliverySuccess {
  ok: true;
  /** The provider's id of the message (SMTP Message-ID, APNs apns-id, FCM message name, SMS BizId…). */
  providerId?: string;
}

export interface DeliveryFailure {
  ok: false;
  /** What went wrong, without any secret: `apns: HTTP 410 Unregistered`. */
  error: string;
  retryable: boolean;
  /** HTTP status (or SMTP reply code) when the provider answered. */
  status?: number;
  /** The provider's own error code (`BadDeviceToken`, `UNREGISTERED`, `isv.MOBILE_NUMBER_ILLEGAL`, `EAUTH`…). */
  code?: string;
  /** The provider asked to wait this long (Retry-After). */
  retryAfterMs?: number;
  /** The recipient address is gone for good (APNs 410, FCM UNREGISTERED): stop sending to it. */
  invalidRecipient?: boolean;
}

export type ProviderKind =
  | 'email'
  | 'webhook'
  | 'sms_aliyun'
  | 'sms_tencent'
  | 'apns'
  | 'fcm'
  | 'xiaomi'
  | 'oppo'
  | 'huawei'
  | 'vivo'
  | 'honor';

export interface DeliveryProvider<K extends ProviderKind = ProviderKind, C = unknown, I = C> {
  readonly kind: K;
  /** Validates a config (a platform row mapped onto this provider's fields): `I` in, `C` out. */
  readonly configSchema: z.ZodType<C, I>;
  /** `config` is validated here (an invalid one answers a non-retryable failure naming the fields). */
  send(config: I, message: DeliveryMessage, recipient: Recipient, signal?: AbortSignal): Promise<DeliveryResult>;
  /** Ends pooled connections (SMTP pools, HTTP/2 sessions) and forgets cached tokens. */
  close(): Promise<void>;
}

export interface ProviderOptions {
  /** Per send, unless the caller's signal ends it sooner. Default 10 s. */
  timeoutMs?: number;
}

export const DEFAULT_TIMEOUT_MS = 10_000;

/** Thrown inside an adapter to answer a failure from deep in its code; defineProvider turns it into the result. */
export class DeliveryError extends Error {
  constructor(readonly failure: Omit<DeliveryFailure, 'ok'>) {
    super(failure.error);
  }
}

export const fail = (kind: ProviderKind, error: string, retryable: boolean, extra: Partial<DeliveryFailure> = {}): DeliveryFailure => ({
  ...extra,
  ok: false,
  error: `${kind}: ${error}`,
  retryable,
});

/** Masks each secret, also as it appears URL- or base64-encoded, in a text meant for logs and records. */
export const redact = (text: string, secrets: readonly (string | undefined)[]): string => {
  const forms = new Set<string>();
  for (const secret of secrets) {
    // Very short values would mask ordinary words; secrets are never that short.
    if (!secret || secret.length < 4) continue;
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
    forms.add(Buffer.from(secret).toString('base64'));
    forms.add(Buffer.from(secret).toString('base64url'));
    // PEM keys: any line of the key body.
    for (const line of secret.split(/\r?\n/)) if (line.length >= 16 && !line.startsWith('-----')) forms.add(line);
  }
  let out = text;
  for (const form of [...forms].sort((a, b) => b.length - a.length)) out = out.split(form).join('***');
  return out;
};

/** Why a signal ended: our own timeout, or the caller (shutdown). */
const abortReason = (signal: AbortSignal, timeoutMs: number): string =>
  signal.reason instanceof DOMException && signal.reason.name === 'TimeoutError' ? `timed out after ${timeoutMs} ms` : 'aborted';

export interface AdapterContext {
  kind: ProviderKind;
  signal: AbortSignal;
  timeoutMs: number;
}

export interface AdapterSpec<K extends ProviderKind, C, I> {
  kind: K;
  configSchema: z.ZodType<C, I>;
  /** The config values to mask in error texts. */
  secretsOf(config: C): (string | undefined)[];
  send(config: C, message: DeliveryMessage, recipient: Recipient, ctx: AdapterContext): Promise<DeliveryResult>;
  close?(): Promise<void>;
}

/**
 * Wraps an adapter with what every provider shares: config validation, the timeout joined
 * to the caller's signal, no throw escaping, and secrets masked in every error text.
 */
export const defineProvider = <K extends ProviderKind, C, I>(
  spec: AdapterSpec<K, C, I>,
  options: ProviderOptions = {},
): DeliveryProvider<K, C, I> => {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return {
    kind: spec.kind,
    configSchema: spec.configSchema,
    async send(rawConfig, message, recipient, callerSignal) {
      const parsed = spec.configSchema.safeParse(rawConfig);
      if (!parsed.success) {
        // Field names only: zod issue texts can quote the offending value.
        const fields = [...new Set(parsed.error.issues.map((i) => i.path.join('.') || '(config)'))].join(', ');
        return fail(spec.kind, `invalid config: ${fields}`, false, { code: 'CONFIG' });
      }
      const config = parsed.data;
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
      let result: DeliveryResult;
      try {
        if (signal.aborted) throw signal.reason;
        result = await spec.send(config, message, recipient, { kind: spec.kind, signal, timeoutMs });
      } catch (err) {
        if (err instanceof DeliveryError) result = { ok: false, ...err.failure };
        else if (signal.aborted) result = fail(spec.kind, abortReason(signal, timeoutMs), true, { code: 'TIMEOUT' });
        else result = fail(spec.kind, `unexpected error: ${err instanceof Error ? err.message : String(err)}`, false);
      }
      if (result.ok) return result;
      return { ...result, error: redact(result.error, spec.secretsOf(config)) };
    },
    close: () => spec.close?.() ?? Promise.resolve(),
  };
};
