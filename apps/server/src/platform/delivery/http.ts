import { type AdapterContext, DeliveryError, type DeliveryFailure, fail } from './provider.js';

/** Network errors worth trying again: the provider was not reached or dropped the line. */
const TRANSIENT_NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'ERR_HTTP2_STREAM_ERROR',
  'ERR_HTTP2_SESSION_ERROR',
  'ERR_HTTP2_GOAWAY_SESSION',
  'ERR_HTTP2_STREAM_CANCEL',
]);

/** The innermost error code: fetch's TypeError and http2's stream cancel carry the socket's error as their cause. */
const errorCodeOf = (err: unknown): string | undefined => {
  let found: string | undefined;
  for (let e: unknown = err, depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') found = code;
    e = (e as { cause?: unknown }).cause;
  }
  return found;
};

/** A thrown network error (fetch, http2, net) as a failure: transient codes retryable, others not. */
export const networkFailure = (ctx: AdapterContext, err: unknown): DeliveryFailure => {
  if (ctx.signal.aborted) {
    const timedOut = ctx.signal.reason instanceof DOMException && ctx.signal.reason.name === 'TimeoutError';
    return fail(ctx.kind, timedOut ? `timed out after ${ctx.timeoutMs} ms` : 'aborted', true, { code: 'TIMEOUT' });
  }
  const code = errorCodeOf(err);
  if (code && TRANSIENT_NETWORK_CODES.has(code)) return fail(ctx.kind, `connection failed: ${code}`, true, { code });
  const message = err instanceof Error ? err.message : String(err);
  return fail(ctx.kind, `request failed: ${code ?? message}`, code?.startsWith('UND_ERR') === true, code ? { code } : {});
};

/** Retry-After as seconds or an HTTP date, in ms. */
export const parseRetryAfter = (value: string | null | undefined, now = Date.now()): number | undefined => {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
};

/** HTTP semantics: 429 and 5xx (and 408) are worth repeating; other 4xx are not. */
export const isRetryableStatus = (status: number): boolean => status === 408 || status === 429 || status >= 500;

/** A non-2xx answer as a failure; `detail` is the provider's reason, kept short. */
export const statusFailure = (
  ctx: AdapterContext,
  status: number,
  detail: string | undefined,
  extra: Partial<DeliveryFailure> = {},
): DeliveryFailure => {
  const short = detail ? ` ${detail.replace(/\s+/g, ' ').slice(0, 200)}` : '';
  return fail(ctx.kind, `HTTP ${status}${short}`, isRetryableStatus(status), { status, ...extra });
};

export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

/** fetch with the adapter's signal; network errors become a DeliveryError carrying the failure. */
export const httpRequest = async (ctx: AdapterContext, url: string | URL, init: Omit<RequestInit, 'signal'>): Promise<HttpAnswer> => {
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, { ...init, signal: ctx.signal, redirect: 'error' });
    text = await response.text();
  } catch (err) {
    throw new DeliveryError(networkFailure(ctx, err));
  }
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
};

/** A string field of a parsed JSON object, if there is one. */
export const field = (json: unknown, ...path: string[]): string | undefined => {
  let v: unknown = json;
  for (const key of path) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
};

/** Joins a base URL (with or without a path or trailing slash) and a path. */
export const joinUrl = (base: string, path: string): string => `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
