import { API, type InputOf, MSG_TYPE_ALARM, PushState, resolvePaging } from '@iot/contract';
import { type SqlBool, sql } from 'kysely';
import type { Scope } from '../../platform/context.js';
import type { Conn } from '../../platform/db/database.js';
import { atLeast, below, contains, defineList, eq } from '../../platform/list.js';
import { pageTimeline, type TimelineSpec } from '../../platform/timeline.js';

/** A delivery to queue (or, for a test send, to record as it happens). */
export interface NewRecord {
  comp_id: number;
  channel: number;
  platform_id: number;
  template_id: number;
  event_type: number;
  recipient: string;
  lang: string;
  lang_fallback: boolean;
  title: string;
  body: string;
  params: Record<string, string>;
  source: string;
}

export interface DueRecord extends NewRecord {
  id: number;
  attempts: number;
}

export const insertRecord = async (conn: Conn, r: NewRecord, now: number): Promise<number> =>
  Number(
    (
      await conn
        .insertInto('push_record')
        .values({ ...r, params: JSON.stringify(r.params), state: PushState.PENDING, gmt_create: now, next_attempt: now })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id,
  );

/**
 * Claims up to `limit` records due now (pending, or retrying whose time came): their next attempt
 * moves `leaseSeconds` ahead in the same statement, so no other dispatcher takes them meanwhile and
 * a dispatcher that dies mid-send leaves them to be tried again after the lease.
 */
export const claimDue = async (conn: Conn, now: number, limit: number, leaseSeconds: number): Promise<DueRecord[]> => {
  const { rows } = await sql<DueRecord>`
    update push_record set next_attempt = ${now + leaseSeconds}
    where id in (
      select id from push_record
      where state in (${PushState.PENDING}, ${PushState.RETRYING}) and next_attempt <= ${now}
      order by next_attempt, id limit ${limit} for update skip locked
    )
    returning id, comp_id, channel, platform_id, template_id, event_type, recipient, lang, lang_fallback, title, body, params,
      source, attempts`.execute(conn);
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
};

export interface Outcome {
  state: number;
  attempts: number;
  error: string;
  provider_id: string;
  gmt_send: number;
  next_attempt: number;
}

export const finishRecord = async (conn: Conn, id: number, o: Outcome) => {
  await conn.updateTable('push_record').set(o).where('id', '=', id).execute();
};

/** When the next record is due (unix seconds), or null when none waits. */
export const nextDue = async (conn: Conn): Promise<number | null> => {
  const row = await conn
    .selectFrom('push_record')
    .select((e) => e.fn.min('next_attempt').as('at'))
    .where('state', 'in', [PushState.PENDING, PushState.RETRYING])
    .executeTakeFirst();
  return row?.at == null ? null : Number(row.at);
};

/** A record as the list answers it (no body or params: they may hold codes). */
const selectRecords = (conn: Conn) =>
  conn
    .selectFrom('push_record as r')
    .leftJoin('company as c', 'c.comp_id', 'r.comp_id')
    .select([
      'r.id',
      'r.comp_id',
      'r.channel',
      'r.platform_id',
      'r.template_id',
      'r.event_type',
      'r.recipient',
      'r.lang',
      'r.lang_fallback',
      'r.title',
      'r.state',
      'r.attempts',
      'r.error',
      'r.provider_id',
      'r.source',
      'r.gmt_create',
      'r.gmt_send',
      sql<string>`coalesce(c.comp_name, '')`.as('comp_name'),
    ]);

export const getRecord = async (conn: Conn, id: number) => selectRecords(conn).where('r.id', '=', id).executeTakeFirstOrThrow();

/** The filters of push record lists. */
const recordFilters = {
  comp_id: eq('r.comp_id'),
  state: eq('r.state'),
  channel: eq('r.channel'),
  platform_id: eq('r.platform_id'),
  template_id: eq('r.template_id'),
  recipient: contains('r.recipient'),
  source: eq('r.source'),
  gmt_start: atLeast('r.gmt_create'),
  gmt_end: below('r.gmt_create'),
};

/** Push records with any filter (state, recipient, platform…): the list kit. */
const filteredRecords = defineList(API.pushRecordList, {
  from: (conn) => conn.selectFrom('push_record as r'),
  scope: 'r.comp_id',
  filters: recordFilters,
  sorts: { id: 'r.id', gmt_create: 'r.id' },
  defaultSort: { column: 'r.id', direction: 'desc' },
  key: 'r.id',
  select: selectRecords,
  toRow: (r) => r,
});

export const RECORDS: TimelineSpec = {
  table: 'push_record',
  ts: 'gmt_create',
  log: 4,
  part: { column: 'comp_id', scoped: true },
  kind: 'channel',
};
/** What the day counters can answer: company, channel, time range, newest first. */
const TIMELINE_INPUT = new Set(['comp_id', 'channel', 'gmt_start', 'gmt_end', 'page_no', 'page_index', 'page_size', 'order_by', 'order']);

/**
 * Push records, newest first within the caller's companies. Unfiltered, or by company, channel
 * and time, at any depth from the day counters (platform/timeline.ts: page 1 and deep pages
 * alike fast at millions of records); other filters through the list kit.
 */
export const listPushRecords = async (conn: Conn, scope: Scope, input: InputOf<typeof API.pushRecordList>) => {
  const newestFirst = (input.order_by === undefined || input.order_by === 'id' || input.order_by === 'gmt_create') && input.order !== 'asc';
  const onTimeline = newestFirst && Object.entries(input).every(([k, v]) => v === undefined || TIMELINE_INPUT.has(k));
  if (!onTimeline) return filteredRecords(conn, scope, input);
  const { offset, pageSize } = resolvePaging(input);
  return pageTimeline(
    conn,
    RECORDS,
    scope,
    { part: input.comp_id, kind: input.channel, start: input.gmt_start, end: input.gmt_end, offset, limit: pageSize },
    (keys) => selectRecords(conn).where(sql<SqlBool>`r.id in (${keys})`).orderBy('r.gmt_create', 'desc').orderBy('r.id', 'desc').execute(),
  );
};

/** The pushes alarms caused: records of alarm events (`source` alarm:<id>). */
export const listAlarmPushes = defineList(API.alarmPushList, {
  from: (conn) => conn.selectFrom('push_record as r').where('r.event_type', '=', MSG_TYPE_ALARM).where('r.source', 'like', 'alarm:%'),
  scope: 'r.comp_id',
  filters: { ...recordFilters, alarm_id: (id: number) => sql<SqlBool>`r.source = ${`alarm:${id}`}` },
  sorts: { id: 'r.id', gmt_create: 'r.id' },
  defaultSort: { column: 'r.id', direction: 'desc' },
  key: 'r.id',
  select: selectRecords,
  toRow: (r) => r,
});

/** The templates sharing a code and channel with one template, in every language (the recipient's is picked). */
export const templateLanguages = async (conn: Conn, templateId: number) =>
  conn
    .selectFrom('push_template as t')
    .innerJoin('push_template as base', (j) =>
      j.onRef('base.comp_id', '=', 't.comp_id').onRef('base.code', '=', 't.code').onRef('base.type', '=', 't.type'),
    )
    .select(['t.id', 't.lang', 't.title', 't.body', 't.param', 't.code', 't.type', 't.comp_id'])
    .where('base.id', '=', templateId)
    .execute();

/** The links serving an event of an app or product. */
export const linksFor = async (conn: Conn, linkType: number, linkId: number, eventType: number) =>
  conn
    .selectFrom('push_link')
    .select(['id', 'platform_id', 'template_id', 'comp_id'])
    .where('link_type', '=', linkType)
    .where('link_id', '=', linkId)
    .where('type', '=', eventType)
    .execute();

/**
 * Makes sure a `push_dispatch` job waits in the queue (platform/jobs.ts runs it): one is added
 * unless one is queued already; a running one may have looked before this record existed.
 */
export const queueDispatchJob = async (conn: Conn, now: number) => {
  await sql`
    insert into job (kind, comp_id, user_id, scope, params, file_name, input_key, gmt_create)
    select 'push_dispatch', 1, 'system', ${JSON.stringify({ kind: 'all' })}, '{}', '', '', ${now}
    where not exists (select 1 from job where kind = 'push_dispatch' and state = 'queued')`.execute(conn);
};
