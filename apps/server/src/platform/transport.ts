import crypto from 'node:crypto';
import {
  type Access,
  type ApiDef,
  companyRefFieldsOf,
  ErrorCode,
  errorMessages,
  fieldErrorsOf,
  httpStatusOf,
  requestLanguage,
  SECRET_MASK,
  secretFieldsOf,
} from '@iot/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { writeAudit } from './audit.js';
import type { RequestContext, Services, Session } from './context.js';
import type { Conn } from './db/database.js';
import { AppError, uniqueViolationOf } from './errors.js';
import { assertCompanyRefs, scopeOf } from './scope.js';

export interface ListResult<T = unknown> {
  rows: T[];
  count: number;
}

/** How the audit mechanism reads the rows a command touches, before and after. */
export interface AuditEntity {
  /** The id field in inputs and rows (`id`, `comp_id`, `menu_id`). */
  idField: string;
  load(conn: Conn, ids: number[]): Promise<Record<string, unknown>[]>;
}

export interface Route<D extends ApiDef = ApiDef> {
  api: D;
  handler: (ctx: RequestContext, input: z.output<D['input']>) => Promise<unknown>;
  /** Required for add/set/del: what the audit log records. */
  entity?: AuditEntity;
}

export const route = <D extends ApiDef>(
  api: D,
  handler: (ctx: RequestContext, input: z.output<D['input']>) => Promise<unknown>,
  entity?: AuditEntity,
): Route => ({ api, handler, entity }) as Route;

const envelope = (code: number, data: unknown = null, msg?: string, count?: number) => ({
  code,
  ...(msg !== undefined ? { msg } : {}),
  data,
  ...(count !== undefined ? { count } : {}),
});

/**
 * The three request shapes of CONTRACT §1 → payload and token. The legacy envelope
 * is recognised by a `params` object together with `api_ver` or `acc_token`.
 */
export const unwrapRequest = (
  body: unknown,
  authorization: string | undefined,
): { payload: Record<string, unknown>; token: string | null } => {
  // No body at all is an empty payload; a JSON `null` is a body that is not an object.
  const raw = body === undefined ? {} : body;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new AppError(ErrorCode.BAD_PARAMS, 'The body must be a JSON object');
  const obj = raw as Record<string, unknown>;
  const isLegacy =
    typeof obj.params === 'object' && obj.params !== null && !Array.isArray(obj.params) && ('api_ver' in obj || 'acc_token' in obj);
  const payload = isLegacy ? (obj.params as Record<string, unknown>) : obj;
  let token: string | null = null;
  if (authorization) token = authorization.replace(/^Bearer\s+/i, '').trim() || null;
  if (!token && isLegacy && typeof obj.acc_token === 'string' && obj.acc_token) token = obj.acc_token;
  return { payload, token };
};

/** Constant-time comparison of the `X-Service-Key` header with the configured key (none configured: refused). */
const hasServiceKey = (configured: string | undefined, sent: string | string[] | undefined): boolean => {
  if (!configured || typeof sent !== 'string' || sent === '') return false;
  const digest = (v: string) => crypto.createHash('sha256').update(v).digest();
  return crypto.timingSafeEqual(digest(configured), digest(sent));
};

const checkAccess = (api: Pick<ApiDef, 'access'>, session: Session | null) => {
  if (api.access === 'public' || api.access === 'service') return;
  if (!session) throw new AppError(ErrorCode.UNAUTHORIZED);
  if (session.isSuper || api.access === 'user') return;
  if (api.access === 'super') throw new AppError(ErrorCode.NO_PERMISSION);
  if (!api.access.some((key) => session.menuKeys.has(key))) throw new AppError(ErrorCode.NO_PERMISSION);
};

/**
 * For routes outside the JSON pipeline (multipart uploads, file PUTs): the same token
 * lookup, session cache and access check as every JSON path. Answers the session.
 */
export const authenticate = async (services: Services, request: FastifyRequest, access: Access): Promise<Session | null> => {
  const token = request.headers.authorization?.replace(/^Bearer\s+/i, '').trim() || null;
  const session = access === 'public' || !token ? null : await services.sessions.resolve(token);
  checkAccess({ access }, session);
  return session;
};

/** A further check inside such a route (e.g. per upload folder), same rules as `access` in the registry. */
export const assertAccess = (session: Session | null, access: Access) => checkAccess({ access }, session);

const idsTouched = (api: ApiDef, entity: AuditEntity, input: Record<string, unknown>): number[] => {
  const ids = new Set<number>();
  for (const key of [entity.idField, 'id']) if (typeof input[key] === 'number') ids.add(input[key] as number);
  if (Array.isArray(input.ids)) for (const v of input.ids) if (typeof v === 'number') ids.add(v);
  return api.kind === 'add' ? [] : [...ids];
};

const isSecretName = (field: string) => /password|secret|private_key/.test(field);

/** before/after per changed field; secrets show only that they changed. */
const diff = (before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined, secretFields: Set<string>) => {
  const changes: Record<string, { before: unknown; after: unknown }> = {};
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const key of keys) {
    // Bookkeeping, not a change anyone made: the audit row has its own time.
    if (key === 'gmt_update') continue;
    const b = before?.[key] ?? null;
    const a = after?.[key] ?? null;
    if (JSON.stringify(b) === JSON.stringify(a)) continue;
    const secret = secretFields.has(key) || isSecretName(key);
    changes[key] = secret ? { before: b === null ? null : SECRET_MASK, after: a === null ? null : SECRET_MASK } : { before: b, after: a };
  }
  return changes;
};

const recordAudit = async (
  ctx: RequestContext,
  api: ApiDef,
  entity: AuditEntity,
  input: Record<string, unknown>,
  beforeRows: Record<string, unknown>[],
  result: unknown,
) => {
  const secretFields = new Set(api.input instanceof z.ZodObject ? secretFieldsOf(api.input) : []);
  const addedId =
    api.kind === 'add' && result && typeof result === 'object' ? (result as Record<string, unknown>)[entity.idField] : undefined;
  const ids = api.kind === 'add' ? (typeof addedId === 'number' ? [addedId] : []) : beforeRows.map((r) => r[entity.idField] as number);
  const afterRows = api.kind === 'del' ? [] : await entity.load(ctx.conn, ids);
  const entries = ids.map((id) => {
    const before = beforeRows.find((r) => r[entity.idField] === id);
    const after = afterRows.find((r) => r[entity.idField] === id);
    const changes = diff(before, after, secretFields);
    // A secret supplied on set changes nothing visible in the row: still say it changed.
    for (const key of Object.keys(input)) {
      if ((secretFields.has(key) || isSecretName(key)) && api.kind === 'set') changes[key] = { before: SECRET_MASK, after: SECRET_MASK };
    }
    return {
      path: api.path,
      // An `action` path with an audit entity changes rows: recorded as a change.
      action: api.kind === 'add' || api.kind === 'del' ? api.kind : ('set' as const),
      target_id: String(id),
      changes,
      comp_id: (after?.comp_id ?? before?.comp_id ?? 0) as number,
      user_id: String(input.user_id ?? ''),
    };
  });
  await writeAudit(ctx.conn, ctx, entries);
};

/**
 * Registers every route on `POST /api/<path>` through one pipeline: request shape,
 * token, menu-key permission, validation with SPEC §5 coercion, the handler (in a
 * transaction for commands, with the audit record in the same transaction), and the
 * envelope. No route does any of this by hand.
 */
export const registerRoutes = (app: FastifyInstance, services: Services, routes: Route[]) => {
  const seen = new Set<string>();
  for (const r of routes) {
    if (seen.has(r.api.path)) throw new Error(`duplicate route ${r.api.path}`);
    seen.add(r.api.path);
    if (['add', 'set', 'del'].includes(r.api.kind) && !r.entity) throw new Error(`command ${r.api.path} declares no audit entity`);
    const companyRefs = companyRefFieldsOf(r.api.input);
    // Declared in the registry: only calls that can change a session (users, roles, menus, companies, tokens) clear the cache.
    const changesSessions = r.api.changesSessions === true;
    const handle = async (request: FastifyRequest): Promise<unknown> => {
      if (r.api.access === 'service' && !hasServiceKey(services.config.ingestServiceKey, request.headers['x-service-key'])) {
        throw new AppError(ErrorCode.UNAUTHORIZED, 'A valid X-Service-Key is required');
      }
      const { payload, token } = unwrapRequest(request.body, request.headers.authorization);
      const session = r.api.access === 'public' || r.api.access === 'service' || !token ? null : await services.sessions.resolve(token);
      checkAccess(r.api, session);
      const parsed = r.api.input.safeParse(payload);
      if (!parsed.success) throw new AppError(ErrorCode.BAD_PARAMS, 'Wrong parameters', { fields: fieldErrorsOf(parsed.error, payload) });
      const input = parsed.data as Record<string, unknown>;
      // Declared company references (contract `companyRef()`): one check, one answer, every path.
      if (session && companyRefs.length > 0) await assertCompanyRefs(services.db, scopeOf(session), input, companyRefs);
      // `lang` of the payload, or the legacy envelope's `language`, or Accept-Language.
      const lang = requestLanguage(
        payload.lang ?? (request.body as { language?: unknown } | null | undefined)?.language,
        request.headers['accept-language'],
      );
      const base = { session, scope: scopeOf(session), ip: request.ip, requestId: String(request.id), lang, log: request.log, services };
      if (!r.entity) return r.handler({ ...base, conn: services.db }, input);
      const entity = r.entity;
      try {
        return await services.db.transaction().execute(async (trx) => {
          const ctx: RequestContext = { ...base, conn: trx };
          const ids = idsTouched(r.api, entity, input);
          const before = ids.length > 0 ? await entity.load(trx, ids) : [];
          const out = await r.handler(ctx, input);
          await recordAudit(ctx, r.api, entity, input, before, out);
          return out;
        });
      } catch (err) {
        // A refusal that keeps a record (after the rollback, so the refusal stores nothing else).
        if (err instanceof AppError && err.afterRollback) {
          await err.afterRollback().catch((e: unknown) => request.log.error({ err: e }, 'refusal record failed'));
        }
        throw err;
      }
    };
    const checkAnswer = services.config.checkAnswers && r.api.output ? answerChecker(r.api) : null;
    app.post(`/api/${r.api.path}`, async (request: FastifyRequest, reply: FastifyReply) => {
      const result = await services.inFlight.track(() => handle(request));
      checkAnswer?.(result);
      if (changesSessions) services.sessions.invalidate();
      if (r.api.kind === 'list') {
        const list = result as ListResult;
        return reply.send(envelope(ErrorCode.OK, list.rows, undefined, list.count));
      }
      return reply.send(envelope(ErrorCode.OK, result ?? null));
    });
  }
};

/**
 * With CHECK_ANSWERS=1 (the test harness) every answer is parsed with its path's output schema:
 * a list's rows one by one, any other path's data. A mismatch throws (a logged 500), so every API
 * test also proves the registry describes what the server answers.
 */
const answerChecker = (api: ApiDef) => {
  const schema = api.output as z.ZodType;
  return (result: unknown) => {
    const values = api.kind === 'list' ? (result as ListResult).rows : [result ?? null];
    for (const value of values) {
      if (api.kind !== 'list' && value === null) continue;
      const parsed = schema.safeParse(value);
      if (!parsed.success)
        throw new Error(`answer of ${api.path} does not match its output schema: ${JSON.stringify(parsed.error.issues.slice(0, 3))}`);
    }
  };
};

interface FastifyLikeError {
  code?: string;
  statusCode?: number;
  message: string;
}

/** The one error handler: catalogue codes pass through; anything else is a logged 500. */
export const installErrorHandling = (app: FastifyInstance) => {
  app.setErrorHandler((error: unknown, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(httpStatusOf(error.code)).send(envelope(error.code, error.data, error.message));
    }
    const conflict = uniqueViolationOf(error);
    if (conflict) return reply.send(envelope(conflict.code, null, conflict.message));
    const err = error as FastifyLikeError;
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err.statusCode === 413) {
      return reply.status(413).send(envelope(ErrorCode.PAYLOAD_TOO_LARGE, null, errorMessages[413]));
    }
    if (err.statusCode === 400 || err instanceof SyntaxError) {
      return reply.status(400).send(envelope(ErrorCode.BAD_PARAMS, null, 'Malformed JSON body'));
    }
    if (err.statusCode === 415) {
      return reply.status(400).send(envelope(ErrorCode.BAD_PARAMS, null, 'Unsupported content type'));
    }
    request.log.error({ err }, 'unhandled error');
    return reply.status(200).send(envelope(ErrorCode.SERVER_ERROR, null, errorMessages[500]));
  });
  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send(envelope(ErrorCode.NOT_FOUND_PATH, null, `Unknown path ${request.method} ${request.url.split('?')[0]}`));
  });
};
