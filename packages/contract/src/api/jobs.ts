import type { ApiDef } from './define.js';

/** Background jobs: device import and export, duplicates (issue 3). */
export const JOBS_API = {} as const satisfies Record<string, ApiDef>;
