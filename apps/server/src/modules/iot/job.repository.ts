import {
  API,
  downloadPathOf,
  ExportState,
  ImportState,
  JOB_FILE_DOWNLOADS,
  type JobKind,
  type JobListInput,
  type JobRow,
} from '@iot/contract';
import { type SqlBool, sql } from 'kysely';
import type { Scope, Services } from '../../platform/context.js';
import type { Conn } from '../../platform/db/database.js';
import { issueTicket } from '../../platform/download-ticket.js';
import { defineList, eq } from '../../platform/list.js';
import { inScope } from '../../platform/scope.js';
import { nowSeconds } from '../../platform/time.js';
import type { AuditEntity } from '../../platform/transport.js';

/** A ticket for one job's file (platform/download-ticket.ts): it names the job, whoever holds it. */
export const ticketFor = (services: Services, kind: JobKind, jobId: number) =>
  issueTicket(services, JOB_FILE_DOWNLOADS[kind], { scope: { kind: 'all' }, input: { id: jobId } });

const isImport = (kind: string) => kind === 'device_import';

/** The wire state of SPEC §4 for a job's kind. */
export const wireStateOf = (kind: string, state: string): number => {
  if (isImport(kind)) {
    return { queued: ImportState.AWAITING, running: ImportState.IMPORTING, done: ImportState.IMPORTED, failed: ImportState.FAILED }[
      state
    ] as number;
  }
  return state === 'done' ? ExportState.SUCCESS : state === 'failed' ? ExportState.FAILURE : ExportState.EXPORTING;
};

const internalStatesOf = (kind: string, wire: number): string[] => {
  if (isImport(kind)) return [[], ['queued'], ['running'], ['done'], ['failed']][wire] ?? [];
  return [[], ['queued', 'running'], ['done'], ['failed']][wire] ?? [];
};

const jobColumns = [
  'j.id',
  'j.kind',
  'j.state',
  'j.comp_id',
  'c.comp_name',
  'j.user_id',
  'j.file_name',
  'j.done',
  'j.total',
  'j.ok_count',
  'j.fail_count',
  'j.attempts',
  'j.error',
  'j.output_key',
  'j.gmt_create',
  'j.gmt_start',
  'j.gmt_finish',
] as const;

type JobDbRow = {
  id: number;
  kind: string;
  state: string;
  comp_id: number;
  comp_name: string | null;
  user_id: string;
  file_name: string;
  done: number;
  total: number;
  ok_count: number;
  fail_count: number;
  attempts: number;
  error: string;
  output_key: string;
  gmt_create: number;
  gmt_start: number | null;
  gmt_finish: number | null;
};

/** A finished job's file gets a ticket (signed per answer, so not part of the stored row). */
const withTicket = (services: Services, row: JobRow): JobRow =>
  row.download_path ? { ...row, download_ticket: ticketFor(services, row.kind, row.id) } : row;

const toJobRow = (r: JobDbRow): JobRow => {
  const hasFile = r.output_key !== '' && r.state === 'done';
  return {
    id: r.id,
    kind: r.kind as JobKind,
    state: wireStateOf(r.kind, r.state),
    comp_id: r.comp_id,
    comp_name: r.comp_name,
    user_id: r.user_id,
    file_name: r.file_name,
    done: r.done,
    total: r.total,
    ok_count: r.ok_count,
    fail_count: r.fail_count,
    resumed: Math.max(r.attempts - 1, 0),
    error: r.error,
    download_path: hasFile ? downloadPathOf(JOB_FILE_DOWNLOADS[r.kind as JobKind], { id: r.id }) : '',
    download_ticket: '',
    gmt_create: r.gmt_create,
    gmt_start: r.gmt_start,
    gmt_finish: r.gmt_finish,
  };
};

export const createJob = async (
  conn: Conn,
  job: {
    kind: JobKind;
    comp_id: number;
    user_id: string;
    scope: Scope;
    params: Record<string, unknown>;
    file_name?: string;
    input_key?: string;
  },
): Promise<number> => {
  const row = await conn
    .insertInto('job')
    .values({
      kind: job.kind,
      comp_id: job.comp_id,
      user_id: job.user_id,
      scope: JSON.stringify(job.scope),
      params: JSON.stringify(job.params),
      file_name: job.file_name ?? '',
      input_key: job.input_key ?? '',
      gmt_create: nowSeconds(),
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
};

/** Jobs of any kind (a route fixes the kind), newest first, scoped by the owner company. */
const jobList = defineList(API.devImportList, {
  from: (conn) => conn.selectFrom('job as j'),
  scope: 'j.comp_id',
  filters: {
    id: eq('j.id'),
    comp_id: eq('j.comp_id'),
    // The wire state (SPEC §4) names different stored states for imports and exports.
    state: (wire) =>
      sql<SqlBool>`((j.kind = 'device_import' and j.state = any(${internalStatesOf('device_import', wire)}::text[]))
        or (j.kind <> 'device_import' and j.state = any(${internalStatesOf('device_export', wire)}::text[])))`,
  },
  sorts: { id: 'j.id', gmt_create: 'j.gmt_create', state: 'j.state' },
  defaultSort: { column: 'j.id', direction: 'desc' },
  key: 'j.id',
  select: (conn: Conn) => conn.selectFrom('job as j').leftJoin('company as c', 'c.comp_id', 'j.comp_id').select(jobColumns),
  toRow: (r) => toJobRow(r as JobDbRow),
});

/** The caller's jobs of one kind, each finished file with a download ticket. */
export const listJobs = async (conn: Conn, services: Services, scope: Scope, kind: JobKind, input: JobListInput) => {
  const page = await jobList(conn, scope, input, { where: [sql<SqlBool>`j.kind = ${kind}`] });
  return { ...page, rows: page.rows.map((r) => withTicket(services, r)) };
};

/** A job of one kind in the caller's scope (its file's download). */
export const findJobInScope = (conn: Conn, scope: Scope, kind: JobKind, id: number) =>
  conn
    .selectFrom('job')
    .select(['id', 'kind', 'state', 'output_key'])
    .where('id', '=', id)
    .where('kind', '=', kind)
    .where(inScope(scope, 'comp_id'))
    .executeTakeFirst();

export const getJobRow = async (conn: Conn, services: Services, id: number): Promise<JobRow | undefined> => {
  const row = await conn
    .selectFrom('job as j')
    .leftJoin('company as c', 'c.comp_id', 'j.comp_id')
    .select(jobColumns)
    .where('j.id', '=', id)
    .executeTakeFirst();
  return row ? withTicket(services, toJobRow(row as JobDbRow)) : undefined;
};

/** Audit: a job as created (kind, owner, file). */
export const jobEntity: AuditEntity = {
  idField: 'id',
  load: async (conn, ids) =>
    ids.length === 0
      ? []
      : conn
          .selectFrom('job')
          .select(['id', 'kind', 'comp_id', 'user_id', 'file_name', 'input_key', 'params'])
          .where('id', 'in', ids)
          .execute(),
};

/** One refused import row, as the report shows it. */
export interface JobRowError {
  row_no: number;
  uid: string;
  mac: string;
  pk: string;
  reason: string;
}

/** Refused rows of an import chunk (in the chunk's transaction, with its checkpoint). */
export const insertRowErrors = async (conn: Conn, jobId: number, rows: JobRowError[]): Promise<void> => {
  if (rows.length === 0) return;
  await conn
    .insertInto('job_row_error')
    .values(rows.map((r) => ({ job_id: jobId, ...r })))
    .execute();
};

/** A job's refused rows after `afterRowNo`, in sheet order (keyset pages of the report). */
export const listRowErrors = (conn: Conn, jobId: number, afterRowNo: number, limit: number): Promise<JobRowError[]> =>
  conn
    .selectFrom('job_row_error')
    .select(['row_no', 'uid', 'mac', 'pk', 'reason'])
    .where('job_id', '=', jobId)
    .where('row_no', '>', afterRowNo)
    .orderBy('row_no')
    .limit(limit)
    .execute();
