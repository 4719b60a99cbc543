import { APP_API } from './api/app.js';
import { APPDATA_API } from './api/appdata.js';
import type { ApiDef } from './api/define.js';
import { DEVICE_API } from './api/device.js';
import { DEVICE_STATE_API } from './api/device-state.js';
import { JOBS_API } from './api/jobs.js';
import { OTA_API } from './api/ota.js';
import { PRODUCT_API } from './api/product.js';
import { PUSH_API } from './api/push.js';
import { STATS_API } from './api/stats.js';
import { USER_API } from './api/user.js';

export type { Access, ApiDef, ApiKind, InputOf, OutputOf } from './api/define.js';
/** GET downloads, the live stream and the file uploads: the paths outside the JSON pipeline. */
export {
  DOWNLOAD_LIST,
  DOWNLOADS,
  type DownloadAuth,
  type DownloadDef,
  downloadPathOf,
  JOB_FILE_DOWNLOADS,
  jobFileInput,
  pathParamsOf,
  UPLOAD_LIST,
  UPLOADS,
  type UploadDef,
  XLSX_CONTENT_TYPE,
} from './api/downloads.js';

/** Each area's registry: the web imports the areas a page calls, so a page carries only their schemas. */
export { APP_API, APPDATA_API, DEVICE_API, DEVICE_STATE_API, JOBS_API, OTA_API, PRODUCT_API, PUSH_API, STATS_API, USER_API };

/**
 * Every API path of the platform: one registry per area under api/, merged here.
 * The server registers routes from it; the web calls `API.<name>.path`.
 */
export const API = {
  ...USER_API,
  ...PRODUCT_API,
  ...DEVICE_API,
  ...DEVICE_STATE_API,
  ...JOBS_API,
  ...STATS_API,
  ...PUSH_API,
  ...APPDATA_API,
  ...OTA_API,
  ...APP_API,
} as const;

export type ApiName = keyof typeof API;
export type ApiPath = (typeof API)[ApiName]['path'];
export const API_LIST: ApiDef[] = Object.values(API);
export const apiByPath = new Map<string, ApiDef>(API_LIST.map((d) => [d.path, d]));

/** Calls that need no database and no token: the benchmark ceiling. */
export const PING_PATH = 'v2/ping';
