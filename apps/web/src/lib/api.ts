import { type ApiDef, type Envelope, ErrorCode, type OutputOf } from '@iot/contract';
import type { z } from 'zod';
import { errorText, toastError } from './feedback';
import { currentLanguage, i18n } from './i18n';
import { beginRequest, endRequest } from './loading';
import { ruleMessage } from './rule-messages';
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

  /**
   * The `data.fields` of a refusal: field → failed rule. A 406 names the rules its input broke;
   * a 409 the field whose value is taken (`{uid: 'exists'}`, `{code: 'used'}`): both show on the field.
   */
  get fieldErrors(): Record<string, string> | null {
    if (this.code < 400 || typeof this.data !== 'object' || this.data === null) return null;
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
  signal?: AbortSignal | undefined;
}

/** A registry entry (`API.<name>`): its path, and the input and output schemas that type a call. */
export type AnyDef = ApiDef & { path: string };

declare const defType: unique symbol;
/**
 * A registry entry named by its path only, typed by the entry (see shell-paths.ts): the login
 * page calls the server without pulling every zod schema into its JavaScript.
 */
export interface Endpoint<D extends AnyDef> {
  readonly path: D['path'];
  readonly [defType]: D;
}
export const endpoint = <D extends AnyDef>(path: D['path']) => ({ path }) as Endpoint<D>;

export type Callable = AnyDef | Endpoint<AnyDef>;
type DefOf<C> = C extends Endpoint<infer D> ? D : C extends AnyDef ? C : never;

/** What a call sends: the input schema's input (before the server's coercion and defaults). */
export type PayloadOf<C> = z.input<DefOf<C>['input']>;
/** What a call answers: one row of a list, or the `data` of any other call. */
export type AnswerOf<C> = OutputOf<DefOf<C>>;
/** A list answer: its rows and how many match the filters. */
export interface ListResult<Row> {
  rows: Row[];
  count: number;
}
/** The rows of a list def. */
export type RowOf<C> = AnswerOf<C>;

/** Calls whose input has no required field may leave it out. */
type InputArgs<C> =
  Record<never, never> extends PayloadOf<C> ? [input?: PayloadOf<C>, options?: CallOptions] : [input: PayloadOf<C>, options?: CallOptions];

const isEnvelope = (v: unknown): v is Envelope => typeof v === 'object' && v !== null && typeof (v as { code?: unknown }).code === 'number';

/**
 * Headers of every call to the server (JSON calls and uploads): the token, and the console's
 * language, so messages and the files the server writes (exports, import reports) come in it.
 */
export const requestHeaders = (): Record<string, string> => {
  const headers: Record<string, string> = { 'Accept-Language': currentLanguage() };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
};

/**
 * The one way to reach the server (transport 3 of SPEC §7): `POST /api/<path>`, JSON body,
 * `Authorization: Bearer <token>`, `Accept-Language`. Answers the envelope whatever its code.
 */
const post = async (path: string, payload: unknown, options: CallOptions): Promise<Envelope<unknown>> => {
  const headers = { ...requestHeaders(), 'Content-Type': 'application/json' };
  beginRequest();
  let body: unknown;
  try {
    const res = await fetch(`/api/${path.replace(/^\/+/, '')}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(payload ?? {}),
      signal: options.signal ?? null,
    });
    body = await res.json().catch(() => ({ code: res.status === 200 ? NETWORK_ERROR : res.status, msg: res.statusText, data: null }));
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(NETWORK_ERROR, err instanceof Error ? err.message : String(err));
  } finally {
    endRequest();
  }
  if (!isEnvelope(body)) throw new ApiError(NETWORK_ERROR, 'Bad answer shape');
  return body;
};

/** Code 200 → the envelope; 401 → back to the login; anything else → ApiError. */
const send = async (path: string, payload: unknown, options: CallOptions): Promise<Envelope<unknown>> => {
  const body = await post(path, payload, options);
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
  return body;
};

/** A `data` answer, typed by the caller from the def's output schema (see `call`). */
export const fetchData = async <T>(api: Callable, input: unknown, options: CallOptions = {}): Promise<T> =>
  // The server answers what the contract's output schema says (its tests parse every answer with it).
  (await send(api.path, input, options)).data as T;

/** A list answer, typed by the caller from the def's output schema (see `listQueryOptions`). */
export const fetchList = async <Row>(api: Callable, input: unknown, options: CallOptions = {}): Promise<ListResult<Row>> => {
  const env = await send(api.path, input, options);
  const rows = (Array.isArray(env.data) ? env.data : []) as Row[];
  return { rows, count: env.count ?? rows.length };
};

/**
 * Call a registry entry: `call(API.roleGet, { id })`. The input is typed by the entry's input
 * schema, the answer (`data`) by its output schema. Throws ApiError unless the code is 200.
 */
export const call = <C extends Callable>(api: C, ...[input, options]: InputArgs<C>): Promise<AnswerOf<C>> =>
  fetchData<AnswerOf<C>>(api, input, options);

/** Any path with any body, answering the raw envelope whatever its code (the API test page only). */
export const callRaw = (path: string, payload: object): Promise<Envelope<unknown>> => post(path, payload, {});

/** Toast the translated message of any error thrown by `call` (401 already handled). */
export const showApiError = (err: unknown) => {
  if (err instanceof ApiError) {
    if (err.code === ErrorCode.UNAUTHORIZED) return;
    // A refused command names its rule (in_use, has_children…): say which rather than "wrong parameters".
    const [refusal] = Object.entries(err.fieldErrors ?? {});
    if (refusal) {
      const [field, rule] = refusal;
      toastError(ruleMessage(rule, i18n.t, { field }));
    } else toastError(errorText(err.code === NETWORK_ERROR ? 'network' : err.code));
    return;
  }
  if (err instanceof DOMException && err.name === 'AbortError') return;
  toastError(errorText('unknown_error'));
};
