import type { AUDIT_ACTIONS } from '@iot/contract';
import type { RequestContext } from './context.js';
import type { Conn } from './db/database.js';
import { nowSeconds } from './time.js';

export type AuditChanges = Record<string, { before: unknown; after: unknown }>;

export interface AuditEntry {
  path: string;
  action: (typeof AUDIT_ACTIONS)[number];
  target_id: string;
  changes: AuditChanges;
  /** The company the entry belongs to when there is no caller (public paths). */
  comp_id?: number;
  /** The acting account when there is no session (e.g. a self-registration). */
  user_id?: string;
}

/**
 * The one writer of audit rows: who (the session, or the entry's account), company, path,
 * action, target, changes, address, request id, time. The transport calls it for every
 * add/set/del; the few commands that act on a selection rather than rows by id (bulk device
 * actions, binding a licence code) call it inside their own transaction.
 */
export const writeAudit = async (conn: Conn, ctx: Pick<RequestContext, 'session' | 'ip' | 'requestId'>, entries: AuditEntry[]) => {
  if (entries.length === 0) return;
  const now = nowSeconds();
  await conn
    .insertInto('audit_log')
    .values(
      entries.map((e) => ({
        user_id: ctx.session?.userId ?? e.user_id ?? '',
        comp_id: ctx.session?.compId ?? e.comp_id ?? 0,
        path: e.path,
        action: e.action,
        target_id: e.target_id,
        changes: JSON.stringify(e.changes) as never,
        ip: ctx.ip,
        request_id: ctx.requestId,
        gmt_create: now,
      })),
    )
    .execute();
};
