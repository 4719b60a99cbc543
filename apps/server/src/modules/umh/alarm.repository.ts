import { type AlarmLogListInput, type AlarmLogRow, resolvePaging } from '@iot/contract';
import { type SqlBool, sql } from 'kysely';
import type { Scope } from '../../platform/context.js';
import type { Conn } from '../../platform/db/database.js';
import type { ListResult } from '../../platform/list.js';
import { newestFirst, pageTimeline, type TimelineSpec } from '../../platform/timeline.js';
import { deviceIdOfUid } from '../iot/log.repository.js';

export const ALARMS: TimelineSpec = { table: 'alarm_log', log: 1, part: { column: 'comp_id', scoped: true }, kind: 'alarm_type' };

/** Alarm logs (applist/alarm) of devices in scope, newest first, at any depth (platform/timeline.ts). */
export const listAlarms = async (conn: Conn, scope: Scope, f: AlarmLogListInput): Promise<ListResult<AlarmLogRow>> => {
  newestFirst(f);
  const { offset, pageSize } = resolvePaging(f);
  return pageTimeline(
    conn,
    ALARMS,
    scope,
    {
      part: f.comp_id,
      kind: f.alarm_type,
      deviceId: f.uid ? await deviceIdOfUid(conn, f.uid) : undefined,
      start: f.gmt_start,
      end: f.gmt_end,
      after: f.after_ts !== undefined && f.after_id !== undefined ? { ts: f.after_ts, id: f.after_id } : undefined,
      offset,
      limit: pageSize,
    },
    async (keys) =>
      (
        await conn
          .selectFrom('alarm_log as a')
          .leftJoin('company as c', 'c.comp_id', 'a.comp_id')
          .select(['a.id', 'a.uid', 'a.pk', 'a.comp_id', 'c.comp_name', 'a.alarm_type', 'a.text', 'a.ts'])
          .where(sql<SqlBool>`a.id in (${keys})`)
          .orderBy('a.ts', 'desc')
          .orderBy('a.id', 'desc')
          .execute()
      ).map((r) => ({ ...r, id: Number(r.id), ts: Number(r.ts) })),
  );
};
