import { type Envelope, ErrorCode } from '@iot/contract';
import { errorText, toastError } from './feedback';
import { serverRuleMessage } from './form-rules';
import { i18n } from './i18n';
import { beginRequest, endRequest } from './loading';
import { clearSession, clearUserInfo, getToken } from './session';

/** Any answer whose code is not 200 (or a network/shape failure, code 0). */
export class ApiError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, msg: string, data: unknown = null) {
    super(msg || `Request failed, CODE: ${code}`);
    this.name = 'ApiError';
    this.code = code;
    this.data = data;
  }

  /** The `data.fields` of a 406 answer: field → failed rule. */
  get fieldErrors(): Record<string, string> | null {
    if (this.code !== ErrorCode.BAD_PARAMS || typeof this.data !== 'object' || this.data === null) return null;
    const fields = (this.data as { fields?: unknown }).fields;
    if (typeof fields !== 'object' || fields === null) return null;
    return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)]));
  }
}

/** Network failure or an answer that is not our envelope. */
export const NETWORK_ERROR = 0;

let onUnauthorized: () => void = () => window.location.assign(`/login${window.location.search}`);

/** The router installs a navigate-based handler (keeps the SPA alive). */
export const setUnauthorizedHandler = (fn: () => void) => {
  onUnauthorized = fn;
};

export interface CallOptions {
  /** Return the envelope whatever its code (api test page); no 401 handling. */
  raw?: boolean;
  signal?: AbortSignal;
}

const isEnvelope = (v: unknown): v is Envelope => typeof v === 'object' && v !== null && typeof (v as { code?: unknown }).code === 'number';

/**
 * The one way to reach the server (transport 3 of SPEC §7): `POST /api/<path>`,
 * JSON body, `Authorization: Bearer <token>`. Resolves with the envelope on
 * code 200, throws ApiError otherwise.
 */
export async function call<T = unknown>(path: string, payload: object = {}, options: CallOptions = {}): Promise<Envelope<T>> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  beginRequest();
  let body: unknown;
  try {
    const res = await fetch(`/api/${path.replace(/^\/+/, '')}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(payload),
      signal: options.signal,
    });
    body = await res.json().catch(() => ({ code: res.status === 200 ? NETWORK_ERROR : res.status, msg: res.statusText, data: null }));
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(NETWORK_ERROR, err instanceof Error ? err.message : String(err));
  } finally {
    endRequest();
  }
  if (!isEnvelope(body)) throw new ApiError(NETWORK_ERROR, 'Bad answer shape');
  if (options.raw) return body as Envelope<T>;
  if (body.code === ErrorCode.UNAUTHORIZED) {
    if (path.startsWith('other_api_')) {
      // Third-party calls: the console session may still be fine; say so and drop the user info only.
      toastError(errorText(ErrorCode.UNAUTHORIZED));
      clearUserInfo();
    } else {
      clearSession();
      onUnauthorized();
    }
    throw new ApiError(body.code, body.msg ?? '', body.data);
  }
  if (body.code !== ErrorCode.OK) throw new ApiError(body.code, body.msg ?? '', body.data);
  return body as Envelope<T>;
}

/** Toast the translated message of any error thrown by `call` (401 already handled). */
export const showApiError = (err: unknown) => {
  if (err instanceof ApiError) {
    if (err.code === ErrorCode.UNAUTHORIZED) return;
    // A refused command names its rule (in_use, has_children…): say which rather than "wrong parameters".
    const [rule] = Object.values(err.fieldErrors ?? {});
    toastError(rule ? serverRuleMessage(rule, i18n.t) : errorText(err.code === NETWORK_ERROR ? 'network' : err.code));
    return;
  }
  if (err instanceof DOMException && err.name === 'AbortError') return;
  toastError(errorText('unknown_error'));
};
