import type { ApiDef } from './define.js';

/** Device state ingestion, live state, wake state, licence codes (issue 3). */
export const DEVICE_STATE_API = {} as const satisfies Record<string, ApiDef>;
