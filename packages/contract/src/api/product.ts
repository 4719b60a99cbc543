import type { ApiDef } from './define.js';

/** IoT products, categories, sharing, uploads (issue 3). */
export const PRODUCT_API = {} as const satisfies Record<string, ApiDef>;
