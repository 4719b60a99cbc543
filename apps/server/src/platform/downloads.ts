import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { companyRefFieldsOf, type DownloadDef, ErrorCode, fieldErrorsOf, requestLanguage } from '@iot/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { RequestContext, Services, Session } from './context.js';
import { readTicket } from './download-ticket.js';
import { AppError } from './errors.js';
import { assertCompanyRefs, scopeOf } from './scope.js';
import { assertAccess } from './transport.js';

/** What a download handler answers; the mechanism writes the headers. */
export interface FileAnswer {
  body: Buffer | Readable;
  /** The file name offered to save as (`Content-Disposition: attachment`); absent: shown inline. */
  name?: string;
  size?: number | null;
  /** The actual type, when the declared one is a range (`image/*`). */
  type?: string;
  /** `private` (default): no cache keeps it; `immutable`: the bytes under this URL never change. */
  cache?: 'private' | 'immutable';
  /** HTTP status of a page answered as such (a public link's 404 page); default 200. */
  status?: number;
  /** Answer a redirect (302) there instead of a body (a public link sending a phone to its package). */
  redirect?: string;
  /** More response headers (`vary`, what the answer chose). */
  headers?: Record<string, string>;
  /** The page's own Content-Security-Policy (a small HTML page with inline styles); default `default-src 'none'`. */
  csp?: string;
}

/** What a download handler may read of the request besides its validated input. */
export interface DownloadRequest {
  headers: IncomingHttpHeaders;
  /** The `lang` query parameter as sent (the context's `lang` is one of the console's languages). */
  lang: string | undefined;
}

/** Where a stream handler writes its events. */
export interface EventSink {
  /** One SSE event with JSON `data`; a client too far behind is dropped (EventSource reconnects). */
  send(event: string, data: unknown): void;
}

type Handle<D extends DownloadDef> = (ctx: RequestContext, input: z.output<D['input']>, request: DownloadRequest) => Promise<FileAnswer>;
/** Starts sending events; answers what stops it (called when the stream ends for any reason). */
type Open<D extends DownloadDef> = (ctx: RequestContext, input: z.output<D['input']>, sink: EventSink) => () => void;

export type Download =
  | { def: DownloadDef; kind: 'download'; handle: Handle<DownloadDef> }
  | { def: DownloadDef; kind: 'stream'; open: Open<DownloadDef> };

/** A file download declared in the contract (`DOWNLOADS.x`) with its handler. */
export const download = <D extends DownloadDef>(def: D, handle: Handle<D>): Download => ({ def, kind: 'download', handle }) as Download;

/** A server-sent event stream declared in the contract with what feeds it. */
export const stream = <D extends DownloadDef>(def: D, open: Open<D>): Download => ({ def, kind: 'stream', open }) as Download;

/** Query parameters the mechanism reads itself (never part of a path's input). */
const RESERVED = new Set(['ticket', 'token', 'lang']);
const KEEPALIVE_MS = 25_000;
/** A stream re-checks its session this often: a revoked token or a lost menu stops it. */
const RECHECK_MS = 30_000;
/** A client this far behind (bytes not yet sent) is dropped; EventSource reconnects. */
const MAX_BACKLOG = 1024 * 1024;

const first = (v: unknown): string | undefined => (Array.isArray(v) ? first(v[0]) : typeof v === 'string' && v !== '' ? v : undefined);

const bearerOf = (request: FastifyRequest) => request.headers.authorization?.replace(/^Bearer\s+/i, '').trim() || undefined;

/** A ticket's fixed fields hold only when the request names the same values (or none). */
const agrees = (fixed: Record<string, unknown>, given: Record<string, unknown>) =>
  Object.entries(fixed).every(([k, v]) => given[k] === undefined || String(given[k]) === String(v));

interface Caller {
  session: Session | null;
  scope: RequestContext['scope'];
  /** Input fields a ticket fixes. */
  fixed: Record<string, unknown>;
  /** The token the session came from (streams re-check it). */
  token?: string;
}

/**
 * Registers declared GET downloads and streams through one pipeline, the GET counterpart of
 * transport.ts: credentials (ticket and/or token, as declared), session and access (401, 513),
 * path parameters and query validated by the declared input with SPEC §5 coercion (406 with
 * `fields`), the caller's language (`lang`, else Accept-Language), then the handler. Refusals
 * are AppErrors: the same HTTP status and envelope as on every JSON path.
 */
export const registerDownloads = (app: FastifyInstance, services: Services, downloads: Download[]) => {
  const open = new Set<ServerResponse>();

  const callerOf = async (def: DownloadDef, request: FastifyRequest, query: Record<string, unknown>, given: Record<string, unknown>) => {
    if (def.access === 'public') return { session: null, scope: scopeOf(null), fixed: {} } satisfies Caller;
    const ticket = first(query.ticket);
    if (ticket && def.auth !== 'token') {
      const grant = readTicket(services, def, ticket);
      if (grant && agrees(grant.input ?? {}, given))
        return { session: null, scope: grant.scope, fixed: grant.input ?? {} } satisfies Caller;
    }
    if (def.auth === 'ticket') throw new AppError(ErrorCode.UNAUTHORIZED, 'The download ticket is invalid or expired');
    // EventSource sends no headers: a stream's token may come in the query.
    const token = bearerOf(request) ?? (def.kind === 'stream' ? first(query.token) : undefined);
    const session = token ? await services.sessions.resolve(token) : null;
    assertAccess(session, def.access);
    return { session, scope: scopeOf(session), fixed: {}, token } satisfies Caller;
  };

  const prepare = async (def: DownloadDef, request: FastifyRequest) => {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const given: Record<string, unknown> = { ...((request.params ?? {}) as Record<string, unknown>) };
    for (const [k, v] of Object.entries(query)) if (!RESERVED.has(k)) given[k] = v;
    const caller = await callerOf(def, request, query, given);
    const payload = { ...given, ...caller.fixed };
    const parsed = def.input.safeParse(payload);
    if (!parsed.success) throw new AppError(ErrorCode.BAD_PARAMS, 'Wrong parameters', { fields: fieldErrorsOf(parsed.error, payload) });
    // Declared company references, checked as on every JSON path (406 {field: not_found}).
    const refs = companyRefFieldsOf(def.input);
    if (refs.length > 0 && caller.scope.kind !== 'none')
      await assertCompanyRefs(services.db, caller.scope, parsed.data as Record<string, unknown>, refs);
    const ctx: RequestContext = {
      conn: services.db,
      session: caller.session,
      scope: caller.scope,
      ip: request.ip,
      requestId: String(request.id),
      lang: requestLanguage(first(query.lang), request.headers['accept-language']),
      log: request.log,
      services,
    };
    return { ctx, input: parsed.data, token: caller.token };
  };

  const sendFile = (def: DownloadDef, reply: FastifyReply, answer: FileAnswer) => {
    reply.header('cache-control', answer.cache === 'immutable' ? 'public, max-age=31536000, immutable' : 'private, no-store');
    for (const [name, value] of Object.entries(answer.headers ?? {})) reply.header(name, value);
    if (answer.redirect) return reply.redirect(answer.redirect, 302);
    reply
      .status(answer.status ?? 200)
      .type(answer.type ?? def.contentType)
      // A downloaded file is never run as a page of this origin.
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', answer.csp ?? "default-src 'none'");
    if (answer.name) reply.header('content-disposition', `attachment; filename="${answer.name.replace(/["\\\r\n]/g, '_')}"`);
    if (answer.size !== undefined && answer.size !== null) reply.header('content-length', String(answer.size));
    return reply.send(answer.body);
  };

  const startStream = (d: Extract<Download, { kind: 'stream' }>, reply: FastifyReply, prepared: Awaited<ReturnType<typeof prepare>>) => {
    const { ctx, input, token } = prepared;
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write('retry: 3000\n\n: connected\n\n');
    open.add(res);
    const stop = d.open(ctx, input, {
      send(event, data) {
        if (res.writableLength > MAX_BACKLOG) {
          res.end();
          return;
        }
        res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      },
    });
    const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
    const recheck = setInterval(() => {
      if (!token) return;
      void services.sessions.resolve(token).then(
        (s) => {
          try {
            assertAccess(s, d.def.access);
          } catch {
            res.end();
          }
        },
        () => res.end(),
      );
    }, RECHECK_MS);
    let cleaned = false;
    const cleanup = () => {
      if (cleaned) return;
      cleaned = true;
      stop();
      clearInterval(keepalive);
      clearInterval(recheck);
      open.delete(res);
    };
    res.on('close', cleanup);
    res.on('error', cleanup);
  };

  const seen = new Set<string>();
  for (const d of downloads) {
    if (seen.has(d.def.path)) throw new Error(`duplicate download ${d.def.path}`);
    seen.add(d.def.path);
    if (d.def.kind !== d.kind) throw new Error(`${d.def.path} is declared a ${d.def.kind}, registered as a ${d.kind}`);
    const url = `/api/${d.def.path.replace(/\{([a-z_]+)\}/g, ':$1')}`;
    // A stream's token may be in the query: its requests log only warnings, so the query never reaches the log.
    app.get(url, d.kind === 'stream' ? { logLevel: 'warn' } : {}, async (request, reply) => {
      if (d.kind === 'stream') return startStream(d, reply, await prepare(d.def, request));
      const answer = await services.inFlight.track(async () => {
        const { ctx, input } = await prepare(d.def, request);
        return d.handle(ctx, input, {
          headers: request.headers,
          lang: first((request.query as Record<string, unknown> | undefined)?.lang),
        });
      });
      return sendFile(d.def, reply, answer);
    });
  }
  // Open streams would keep close() waiting for ever: end them first.
  app.addHook('preClose', async () => {
    for (const res of open) res.end();
    open.clear();
  });
};
