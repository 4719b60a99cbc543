import { API, EXPORT_MAX_SECONDS, type LogExportAddInput } from '@iot/contract';
import { type RequestContext, sessionOf } from '../../platform/context.js';
import { AppError, badParams } from '../../platform/errors.js';
import { kickJobs } from '../../platform/jobs.js';
import { type Route, route } from '../../platform/transport.js';
import { createJob, getJobRow, jobEntity, listJobs } from './job.repository.js';
import { listDeviceLogs, listServiceLogs } from './log.repository.js';

/** SPEC §5: an export covers at most three months (406 `gmt_end` `range:3_months`); the end after the start. */
const addLogExport = async (ctx: RequestContext, input: LogExportAddInput) => {
  if (input.gmt_end <= input.gmt_start) throw badParams({ gmt_end: 'after:gmt_start' }, 'The end must be after the start');
  if (input.gmt_end - input.gmt_start > EXPORT_MAX_SECONDS)
    throw badParams({ gmt_end: 'range:3_months' }, 'Export period within three months');
  const session = sessionOf(ctx);
  const id = await createJob(ctx.conn, {
    kind: 'log_export',
    comp_id: session.compId,
    user_id: session.userId,
    scope: ctx.scope,
    params: { ...input, lang: ctx.lang },
  });
  // The job starts once this transaction has committed; the runner also polls.
  for (const ms of [20, 250]) setTimeout(() => kickJobs(ctx.services), ms).unref();
  const row = await getJobRow(ctx.conn, ctx.services, id);
  if (!row) throw new AppError(500);
  return row;
};

/** Device logs, service logs and the device-log export (applist/log_list, issue 8). */
export const logRoutes: Route[] = [
  route(API.deviceLogList, (ctx, input) => listDeviceLogs(ctx.conn, ctx.scope, input)),
  route(API.serviceLogList, (ctx, input) => listServiceLogs(ctx.conn, ctx.scope, input)),
  route(API.logExportAdd, addLogExport, jobEntity),
  route(API.logExportList, (ctx, input) => listJobs(ctx.conn, ctx.services, ctx.scope, 'log_export', input)),
];
