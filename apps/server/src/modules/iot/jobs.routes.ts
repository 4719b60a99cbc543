import { API, EXPORT_MAX_SECONDS, type ExportAddInput, type ImportAddInput, type JobKind } from '@iot/contract';
import { type RequestContext, sessionOf } from '../../platform/context.js';
import { AppError, badParams, notFound } from '../../platform/errors.js';
import { kickJobs } from '../../platform/jobs.js';
import { isStorageKey } from '../../platform/storage.js';
import { type Route, route } from '../../platform/transport.js';
import { visibleProductPks } from './device.repository.js';
import { duplicateEntity, listDuplicates, resolveDuplicate } from './duplicate.repository.js';
import { createJob, getJobRow, jobEntity, listJobs } from './job.repository.js';
import { hasZipMagic, isXlsxName } from './xlsx.js';

const ONLY_XLSX = 'Only xlsx files may be uploaded';

/** A new job starts once its transaction has committed; the runner also polls. */
const startSoon = (ctx: RequestContext) => {
  for (const ms of [20, 250]) setTimeout(() => kickJobs(ctx.services), ms).unref();
};

const addImport = async (ctx: RequestContext, input: ImportAddInput) => {
  // comp_id is a declared company reference: the transport checked it (406 fields.comp_id).
  const session = sessionOf(ctx);
  // The default product is checked as every row's is (registerDevices): own or shared into the scope.
  const pk = input.pk ?? '';
  if (pk !== '' && !(await visibleProductPks(ctx.conn, ctx.scope, [pk])).has(pk)) {
    throw badParams({ pk: 'not_found' }, 'product does not exist');
  }
  const key = input.file_key;
  if (!isStorageKey(key) || !key.startsWith('imports/')) throw badParams({ file_key: 'not_found' }, 'file does not exist');
  if ((await ctx.services.storage.size(key)) === null) throw badParams({ file_key: 'not_found' }, 'file does not exist');
  // SPEC §5: only xlsx, by name and by content (a ZIP archive). A refused file is removed: its
  // key is dead (another try needs a new upload).
  const isXlsx =
    key.endsWith('.xlsx') &&
    (input.file_name === undefined || input.file_name === '' || isXlsxName(input.file_name)) &&
    (await hasZipMagic(ctx.services.storage, key));
  if (!isXlsx) {
    await ctx.services.storage.remove(key);
    throw badParams({ file_key: 'format:xlsx' }, ONLY_XLSX);
  }
  const id = await createJob(ctx.conn, {
    kind: 'device_import',
    comp_id: input.comp_id,
    user_id: session.userId,
    scope: ctx.scope,
    params: { pk: input.pk ?? '', lang: ctx.lang },
    file_name: input.file_name || key.slice(key.indexOf('/') + 1),
    input_key: key,
  });
  startSoon(ctx);
  const row = await getJobRow(ctx.conn, ctx.services, id);
  if (!row) throw notFound('job');
  return row;
};

const addExport = (kind: JobKind) => async (ctx: RequestContext, input: ExportAddInput) => {
  const session = sessionOf(ctx);
  // SPEC §5: an export covers at most three months of registration time.
  if (input.gmt_end <= input.gmt_start) throw badParams({ gmt_end: 'after:gmt_start' }, 'The end must be after the start');
  if (input.gmt_end - input.gmt_start > EXPORT_MAX_SECONDS) {
    throw badParams({ gmt_end: 'range:3_months' }, 'Export period within three months');
  }
  const id = await createJob(ctx.conn, {
    kind,
    comp_id: session.compId,
    user_id: session.userId,
    scope: ctx.scope,
    params: { ...input, lang: ctx.lang },
  });
  startSoon(ctx);
  const row = await getJobRow(ctx.conn, ctx.services, id);
  if (!row) throw new AppError(500);
  return row;
};

/** Import, export and duplicates (issue 3); the downloads are in job-files.ts. */
export const jobRoutes: Route[] = [
  route(API.devImportAdd, addImport, jobEntity),
  route(API.devImportList, (ctx, input) => listJobs(ctx.conn, ctx.services, ctx.scope, 'device_import', input)),
  // The legacy data-file paths are the same import (docs/api.md).
  route(API.dataImportAdd, addImport, jobEntity),
  route(API.dataImportList, (ctx, input) => listJobs(ctx.conn, ctx.services, ctx.scope, 'device_import', input)),
  route(API.devExportAdd, addExport('device_export'), jobEntity),
  route(API.devExportList, (ctx, input) => listJobs(ctx.conn, ctx.services, ctx.scope, 'device_export', input)),
  route(API.stateExportAdd, addExport('state_export'), jobEntity),
  route(API.stateExportList, (ctx, input) => listJobs(ctx.conn, ctx.services, ctx.scope, 'state_export', input)),
  route(API.duplicateList, (ctx, input) => listDuplicates(ctx.conn, ctx.scope, input)),
  route(API.duplicateSet, (ctx, input) => resolveDuplicate(ctx.conn, ctx.scope, sessionOf(ctx).userId, input), duplicateEntity),
];
