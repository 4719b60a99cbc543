import { z } from 'zod';
import { APP_DOWNLOAD_PATH, appDownloadInput } from '../schemas/app.js';
import { APP_STATS_XLSX_PATH, appStatsInput } from '../schemas/appdata.js';
import { id } from '../schemas/common.js';
import { LICENCE_XLSX_PATH, LIVE_PATH, LIVE_STATE_EVENT, licenceExportInput, liveStateSchema } from '../schemas/device-state.js';
import type { JobKind } from '../schemas/jobs.js';
import { UPLOAD_FOLDERS, uploadOutput } from '../schemas/product.js';
import { STATS_XLSX_PATH, statsInput } from '../schemas/stats.js';
import { APPDATA_API } from './appdata.js';
import { type Access, empty } from './define.js';
import { DEVICE_STATE_API } from './device-state.js';
import { JOBS_API } from './jobs.js';
import { STATS_API } from './stats.js';

/**
 * How a GET path's caller proves who it is (public paths need nothing):
 * - `ticket`: `?ticket=` handed out by the POST answer that offers the link (a browser link
 *   cannot send headers); sealed by the server, it carries the caller's scope and may fix
 *   input fields (the query cannot change them);
 * - `token`: the session token in `Authorization` (streams also take `?token=`: EventSource
 *   sends no headers);
 * - `either`: a valid ticket, or else the token.
 */
export type DownloadAuth = 'ticket' | 'token' | 'either';

/**
 * A GET path outside the JSON pipeline: a file download or a server-sent event stream.
 * `path` may hold `{name}` segments (path parameters); `input` validates path parameters
 * and query together, with SPEC §5 coercion (query values are text), answering 406 with
 * `fields` like every JSON path. `lang` (and `ticket`, `token`) are read by the mechanism,
 * not by `input`.
 */
export interface DownloadDef<I extends z.ZodType = z.ZodType> {
  path: string;
  access: Access;
  kind: 'download' | 'stream';
  input: I;
  summary: string;
  auth: DownloadAuth;
  /** The media type answered (a range such as `image/*` when it depends on the file). */
  contentType: string;
  /** Streams: each event's name and the schema of its `data` (JSON). */
  events?: Record<string, z.ZodType>;
}

export const download = <const P extends string, I extends z.ZodType>(
  path: P,
  access: Access,
  input: I,
  summary: string,
  opts: { auth?: DownloadAuth; contentType: string },
): DownloadDef<I> & { path: P } => ({
  path,
  access,
  kind: 'download',
  input,
  summary,
  auth: opts.auth ?? 'either',
  contentType: opts.contentType,
});

export const stream = <const P extends string, I extends z.ZodType>(
  path: P,
  access: Access,
  input: I,
  summary: string,
  opts: { auth?: DownloadAuth; events: Record<string, z.ZodType> },
): DownloadDef<I> & { path: P } => ({
  path,
  access,
  kind: 'stream',
  input,
  summary,
  auth: opts.auth ?? 'token',
  contentType: 'text/event-stream',
  events: opts.events,
});

/**
 * A path taking a file in the request body (multipart POST or a raw PUT), outside the JSON
 * pipeline; declared for the OpenAPI document and the route's access. Errors answer HTTP
 * status = code (CONTRACT §1).
 */
export interface UploadDef {
  path: string;
  method: 'post' | 'put';
  access: Access;
  summary: string;
  /** The request body's media type. */
  contentType: string;
  /** Multipart: the form fields besides `file`. */
  fields?: z.ZodObject;
  /** `data` of the answer. */
  output: z.ZodType;
}

/** The names of a path's `{name}` segments. */
export const pathParamsOf = (path: string): string[] => [...path.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1] as string);

/** A declared path with its `{name}` segments filled in (values URL-encoded). */
export const downloadPathOf = (def: Pick<DownloadDef, 'path'>, params: Record<string, string | number>): string =>
  def.path.replace(/\{([a-z_]+)\}/g, (_, name: string) => encodeURIComponent(String(params[name] ?? '')));

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** A job's file: the job id in the path. */
export const jobFileInput = z.object({ id: id() });

/** Every GET download and stream (registered by the server's platform/downloads.ts). */
export const DOWNLOADS = {
  importTemplate: download('v2/iot/import/template.xlsx', 'public', empty, 'The device import template (header UID, MAC, PK)', {
    contentType: XLSX_CONTENT_TYPE,
  }),
  importReport: download(
    'v2/iot/file/{id}/report.xlsx',
    JOBS_API.devImportList.access,
    jobFileInput,
    "An import's report of refused rows (the job row's download_path and download_ticket)",
    { contentType: XLSX_CONTENT_TYPE },
  ),
  deviceExportFile: download(
    'v2/iot/file/{id}/device-export.xlsx',
    JOBS_API.devExportList.access,
    jobFileInput,
    "A device export's file (the job row's download_path and download_ticket)",
    { contentType: XLSX_CONTENT_TYPE },
  ),
  stateExportFile: download(
    'v2/iot/file/{id}/state-export.xlsx',
    JOBS_API.stateExportList.access,
    jobFileInput,
    "A device state export's file (the job row's download_path and download_ticket)",
    { contentType: XLSX_CONTENT_TYPE },
  ),
  logExportFile: download(
    'v2/iot/file/{id}/log-export.xlsx',
    APPDATA_API.logExportList.access,
    jobFileInput,
    "A device log export's file (the job row's download_path and download_ticket)",
    { contentType: XLSX_CONTENT_TYPE },
  ),
  appStatsXlsx: download(
    APP_STATS_XLSX_PATH,
    APPDATA_API.appStatistics.access,
    appStatsInput,
    'The numbers of v2/umh/admin/user/statistics/get as .xlsx (ticket: download_ticket of that answer, scope of its caller)',
    { contentType: XLSX_CONTENT_TYPE },
  ),
  statsXlsx: download(
    STATS_XLSX_PATH,
    STATS_API.devStatistics.access,
    statsInput,
    'The numbers of v2/iot/dev/statistics/get as .xlsx (ticket: download_ticket of that answer, scope of its caller)',
    { contentType: XLSX_CONTENT_TYPE },
  ),
  licenceXlsx: download(
    LICENCE_XLSX_PATH,
    DEVICE_STATE_API.licCodeExport.access,
    licenceExportInput,
    'Licence codes as .xlsx (ticket: download_ticket of v2/umh/admin/liccode/export, which fixes its filters)',
    { contentType: XLSX_CONTENT_TYPE },
  ),
  ossFile: download(
    'v2/oss/file/{folder}/{name}',
    'public',
    z.object({ folder: z.string().max(32), name: z.string().max(64) }),
    'A stored file of a public folder (images); keys are unguessable and never reused',
    { contentType: 'image/*' },
  ),
  appDownload: download(
    APP_DOWNLOAD_PATH,
    'public',
    appDownloadInput,
    "An app's public download link (its QR code): a phone is redirected (302) to its package in its language — iPhone/iPad to the app's iOS store url, Android to the newest released version's package; a desktop browser gets a page listing both; an unknown app or one without a released version answers a 404 page",
    { contentType: 'text/html' },
  ),
  live: stream(
    LIVE_PATH,
    ['product/device_state', 'product/device', 'product/awake', 'operate/device'],
    empty,
    "Server-sent events of device state changes in the caller's scope",
    { events: { [LIVE_STATE_EVENT]: z.array(liveStateSchema) } },
  ),
} as const satisfies Record<string, DownloadDef>;

/** The download of each job kind's file (its list's menus). */
export const JOB_FILE_DOWNLOADS: Record<JobKind, DownloadDef<typeof jobFileInput>> = {
  device_import: DOWNLOADS.importReport,
  device_export: DOWNLOADS.deviceExportFile,
  state_export: DOWNLOADS.stateExportFile,
  log_export: DOWNLOADS.logExportFile,
};

/** The paths taking a file (modules/oss/upload.routes.ts). */
export const UPLOADS = {
  upload: {
    path: 'v2/oss/upload',
    method: 'post',
    access: 'user',
    summary:
      'Upload one file (multipart: `folder` then `file`); the folder decides who may (images: product/iot or applist/app, imports: product/device)',
    contentType: 'multipart/form-data',
    fields: z.object({ folder: z.enum(UPLOAD_FOLDERS).default('images') }),
    output: uploadOutput,
  },
  put: {
    path: 'v2/oss/put/{token}',
    method: 'put',
    access: 'public',
    summary: 'Store the body as the file of a put URL (v2/oss/upload/puturl/get): HMAC-signed, single use, no token',
    contentType: '*/*',
    output: uploadOutput.omit({ name: true }),
  },
} as const satisfies Record<string, UploadDef>;

export const DOWNLOAD_LIST: DownloadDef[] = Object.values(DOWNLOADS);
export const UPLOAD_LIST: UploadDef[] = Object.values(UPLOADS);
