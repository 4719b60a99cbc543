import type { ApiDef } from './define.js';

/** Device registration, bulk actions, device detail (issue 3). */
export const DEVICE_API = {} as const satisfies Record<string, ApiDef>;
