import { API } from '@iot/contract';
import type { Conn } from '../../platform/db/database.js';
import { atLeast, below, contains, defineList, eq } from '../../platform/list.js';

const selectAudit = (conn: Conn) =>
  conn
    .selectFrom('audit_log as a')
    .leftJoin('company as c', 'c.comp_id', 'a.comp_id')
    .select([
      'a.id',
      'a.user_id',
      'a.comp_id',
      'c.comp_name',
      'a.path',
      'a.action',
      'a.target_id',
      'a.changes',
      'a.ip',
      'a.request_id',
      'a.gmt_create',
    ]);

/** The audit log, scoped by the acting user's company. Newest first. */
export const listAudit = defineList(API.auditList, {
  from: (conn) => conn.selectFrom('audit_log as a'),
  scope: 'a.comp_id',
  filters: {
    user_id: contains('a.user_id'),
    comp_id: eq('a.comp_id'),
    path: contains('a.path'),
    action: eq('a.action'),
    target_id: eq('a.target_id'),
    gmt_start: atLeast('a.gmt_create'),
    gmt_end: below('a.gmt_create'),
  },
  sorts: { id: 'a.id', gmt_create: 'a.gmt_create', user_id: 'a.user_id', path: 'a.path' },
  defaultSort: { column: 'a.id', direction: 'desc' },
  key: 'a.id',
  select: selectAudit,
  toRow: (r) => r,
});
