import {
  type DeviceLogListInput,
  type DeviceLogRow,
  type LogExportAddInput,
  resolvePaging,
  type ServiceLogListInput,
  type ServiceLogRow,
} from '@iot/contract';
import { type SqlBool, sql } from 'kysely';
import type { Scope } from '../../platform/context.js';
import type { Conn } from '../../platform/db/database.js';
import type { ListResult } from '../../platform/list.js';
import { inScope } from '../../platform/scope.js';
import { newestFirst, pageTimeline, type TimelineSpec } from '../../platform/timeline.js';

export const DEVICE_LOGS: TimelineSpec = { table: 'device_log', log: 2, part: { column: 'comp_id', scoped: true }, kind: 'level' };
export const SERVICE_LOGS: TimelineSpec = { table: 'service_log', log: 3, part: { column: 'service_id', scoped: false }, kind: 'level' };

/**
 * The device a uid filter names (any company: the log rows themselves are scoped), or null when
 * none does (nothing matches). Logs keep their rows after the device is gone, by device id.
 */
export const deviceIdOfUid = async (conn: Conn, uid: string): Promise<number | null> => {
  const r = await conn.selectFrom('device').select('id').where(sql<boolean>`upper(uid) = ${uid.toUpperCase()}`).executeTakeFirst();
  return r ? Number(r.id) : null;
};

const afterOf = (f: { after_ts?: number | undefined; after_id?: number | undefined }) =>
  f.after_ts !== undefined && f.after_id !== undefined ? { ts: f.after_ts, id: f.after_id } : undefined;

const selectDeviceLogs = (conn: Conn) =>
  conn
    .selectFrom('device_log as l')
    .leftJoin('company as c', 'c.comp_id', 'l.comp_id')
    .select(['l.id', 'l.uid', 'l.comp_id', 'c.comp_name', 'l.level', 'l.text', 'l.ts']);

/** Device log lines (applist/log_list) of devices in scope, newest first, at any depth. */
export const listDeviceLogs = async (conn: Conn, scope: Scope, f: DeviceLogListInput): Promise<ListResult<DeviceLogRow>> => {
  newestFirst(f);
  const { offset, pageSize } = resolvePaging(f);
  return pageTimeline(
    conn,
    DEVICE_LOGS,
    scope,
    {
      part: f.comp_id,
      kind: f.level,
      deviceId: f.uid ? await deviceIdOfUid(conn, f.uid) : undefined,
      start: f.gmt_start,
      end: f.gmt_end,
      after: afterOf(f),
      offset,
      limit: pageSize,
    },
    async (keys) =>
      (await selectDeviceLogs(conn).where(sql<SqlBool>`l.id in (${keys})`).orderBy('l.ts', 'desc').orderBy('l.id', 'desc').execute()).map(
        (r) => ({ ...r, id: Number(r.id), ts: Number(r.ts) }),
      ),
  );
};

/** Service log lines (platform rows: a scope of everything only), newest first, at any depth. */
export const listServiceLogs = async (conn: Conn, scope: Scope, f: ServiceLogListInput): Promise<ListResult<ServiceLogRow>> => {
  newestFirst(f);
  const { offset, pageSize } = resolvePaging(f);
  return pageTimeline(
    conn,
    SERVICE_LOGS,
    scope,
    { part: f.service_id, kind: f.level, start: f.gmt_start, end: f.gmt_end, after: afterOf(f), offset, limit: pageSize },
    async (keys) =>
      (
        await conn
          .selectFrom('service_log as s')
          .select(['s.id', 's.service_id', 's.level', 's.node', 's.text', 's.ts'])
          .where(sql<SqlBool>`s.id in (${keys})`)
          .orderBy('s.ts', 'desc')
          .orderBy('s.id', 'desc')
          .execute()
      ).map((r) => ({ ...r, id: Number(r.id), ts: Number(r.ts) })),
  );
};

export type LogExportFilter = Omit<LogExportAddInput, 'uid'> & { deviceId?: number | null };

const exportFiltered = (conn: Conn, scope: Scope, f: LogExportFilter) => {
  let q = selectDeviceLogs(conn).where(inScope(scope, 'l.comp_id')).where('l.ts', '>=', f.gmt_start).where('l.ts', '<', f.gmt_end);
  if (f.comp_id !== undefined) q = q.where('l.comp_id', '=', f.comp_id);
  if (f.level !== undefined) q = q.where('l.level', '=', f.level);
  if (f.deviceId !== undefined) q = q.where('l.device_id', '=', f.deviceId ?? -1);
  return q;
};

/** Rows an export will write (its progress total). */
export const countLogExport = async (conn: Conn, scope: Scope, f: LogExportFilter): Promise<number> =>
  Number((await exportFiltered(conn, scope, f).clearSelect().select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n);

/** One keyset batch of an export, newest first, after (ts, id) of the previous batch's last row. */
export const logExportBatch = async (
  conn: Conn,
  scope: Scope,
  f: LogExportFilter,
  after: { ts: number; id: number } | null,
  limit: number,
): Promise<DeviceLogRow[]> => {
  let q = exportFiltered(conn, scope, f);
  if (after) q = q.where(sql<boolean>`(l.ts, l.id) < (${after.ts}, ${after.id})`);
  const rows = await q.orderBy('l.ts', 'desc').orderBy('l.id', 'desc').limit(limit).execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), ts: Number(r.ts) }));
};
