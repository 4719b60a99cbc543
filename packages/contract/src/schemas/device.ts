import { z } from 'zod';
import { id, ids, pagingSchema, safeString, text, unixTime } from './common.js';
import { companyRef } from './company-ref.js';

/**
 * Device identifiers (docs/api.md "Devices"):
 * - UID: 6–32 characters of `A-Z 0-9 -`, case-insensitive, stored upper-case.
 * - MAC: 12 hex digits, optionally separated by `:` or `-` per byte, stored as
 *   `AA:BB:CC:DD:EE:FF`; empty is allowed (a device without a MAC).
 */
export const UID_PATTERN = /^[A-Z0-9-]{6,32}$/;
export const MAC_INPUT_PATTERN = /^[0-9A-F]{2}([:-]?[0-9A-F]{2}){5}$/;

/** Upper-case, trimmed UID, or null when it breaks the format. */
export const normalizeUid = (raw: unknown): string | null => {
  const uid = String(raw ?? '')
    .trim()
    .toUpperCase();
  return UID_PATTERN.test(uid) ? uid : null;
};

/** Canonical `AA:BB:CC:DD:EE:FF`, '' for an empty MAC, or null when it breaks the format. */
export const normalizeMac = (raw: unknown): string | null => {
  const mac = String(raw ?? '')
    .trim()
    .toUpperCase();
  if (mac === '') return '';
  if (!MAC_INPUT_PATTERN.test(mac)) return null;
  const hex = mac.replace(/[:-]/g, '');
  return hex.match(/../g)?.join(':') ?? null;
};

/** A MAC typed into a filter: any prefix of hex digits, answered in the stored form (`AABBC` → `AA:BB:C`). */
export const macFilterPrefix = (raw: string): string => {
  const hex = raw.toUpperCase().replace(/[^0-9A-F]/g, '');
  return (hex.match(/.{1,2}/g) ?? []).join(':');
};

const uidField = () =>
  z.preprocess(
    (v) => (typeof v === 'number' ? String(v) : v),
    safeString().transform((v, ctx) => {
      const uid = normalizeUid(v);
      if (uid === null) {
        ctx.addIssue({ code: 'custom', message: 'format:uid' });
        return z.NEVER;
      }
      return uid;
    }),
  );

const macField = () =>
  z.preprocess(
    (v) => (v === undefined || v === null ? '' : v),
    safeString().transform((v, ctx) => {
      const mac = normalizeMac(v);
      if (mac === null) {
        ctx.addIssue({ code: 'custom', message: 'format:mac' });
        return z.NEVER;
      }
      return mac;
    }),
  );

/** A registration row with its product, company and live state (list, query, add). */
export const deviceRowSchema = z.object({
  id: z.number().int(),
  uid: z.string(),
  mac: z.string(),
  pk: z.string(),
  product_name: z.string().nullable(),
  comp_id: z.number().int(),
  comp_name: z.string().nullable(),
  import_id: z.number().int().nullable(),
  gmt_create: z.number().int(),
  online: z.number().int().describe('0 offline, 1 online'),
  active: z.number().int().describe('0 inactive, 1 active (has connected once)'),
  network_type: z.number().int().describe('SPEC §4: 0 unknown … 5 symmetric NAT'),
  vendor: z.string(),
  protocol: z.string(),
  last_online: z.number().int().nullable(),
  last_offline: z.number().int().nullable(),
  last_seen: z.number().int().nullable(),
  offline_reason: z.number().int().describe('0 never seen, 1 explicit offline, 2 heartbeat timeout'),
});
export type DeviceRow = z.infer<typeof deviceRowSchema>;

/** -1 or absent: any. */
const flag = () => z.preprocess((v) => (typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v), z.number().int().min(-1).max(1));

/** The filters of the device list; bulk actions and exports take the same object. */
export const deviceFilterSchema = z.object({
  /** UID prefix (case-insensitive). */
  uid: text(32).optional(),
  /** MAC prefix, any separators. */
  mac: text(17).optional(),
  pk: text(64).optional(),
  comp_id: id().optional(),
  online: flag().optional(),
  active: flag().optional(),
  network_type: z
    .preprocess((v) => (typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v), z.number().int().min(-1).max(5))
    .optional(),
  vendor: text(64).optional(),
  /** Registration time range (Unix seconds, inclusive start, exclusive end). */
  gmt_start: unixTime().optional(),
  gmt_end: unixTime().optional(),
  /** Last-online time range. */
  online_start: unixTime().optional(),
  online_end: unixTime().optional(),
});
export type DeviceFilter = z.infer<typeof deviceFilterSchema>;

/**
 * Device list. Default order: newest first (`id` descending). `cursor` (an id of the
 * previous answer) pages sequentially in O(1): `cursor_dir` `next` answers the rows after
 * it in the list order, `prev` the rows before it; `page_no` is then ignored.
 */
export const deviceListInput = pagingSchema.extend({
  ...deviceFilterSchema.shape,
  cursor: id().optional(),
  cursor_dir: z.enum(['next', 'prev']).optional(),
});
export type DeviceListInput = z.infer<typeof deviceListInput>;

export const deviceAddInput = z.object({
  uid: uidField(),
  mac: macField().default(''),
  pk: z.preprocess((v) => (typeof v === 'string' ? v.trim() : v), safeString().min(1).max(64)),
  comp_id: companyRef(),
});
export type DeviceAddInput = z.infer<typeof deviceAddInput>;

/** Look up one device by UID or MAC. */
export const deviceQueryInput = z
  .object({ uid: text(32).optional(), mac: text(17).optional() })
  .refine((v) => Boolean(v.uid || v.mac), { message: 'required', path: ['uid'] });
export type DeviceQueryInput = z.infer<typeof deviceQueryInput>;

/** One device by id or UID. */
export const deviceGetInput = z
  .object({ id: id().optional(), uid: text(32).optional() })
  .refine((v) => v.id !== undefined || Boolean(v.uid), { message: 'required', path: ['id'] });
export type DeviceGetInput = z.infer<typeof deviceGetInput>;

export const DEVICE_BULK_ACTIONS = ['assign_company', 'change_product', 'delete'] as const;
export type DeviceBulkAction = (typeof DEVICE_BULK_ACTIONS)[number];

/**
 * A bulk action on selected devices (`ids`) or on every device matching `filter`
 * (within the caller's scope). `assign_company` needs `comp_id`, `change_product` needs `pk`.
 */
export const deviceBulkInput = z
  .object({
    action: z.enum(DEVICE_BULK_ACTIONS),
    comp_id: companyRef().optional(),
    pk: text(64).optional(),
    ids: ids().optional(),
    filter: deviceFilterSchema.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.action === 'assign_company' && v.comp_id === undefined) ctx.addIssue({ code: 'custom', message: 'required', path: ['comp_id'] });
    if (v.action === 'change_product' && !v.pk) ctx.addIssue({ code: 'custom', message: 'required', path: ['pk'] });
    if ((v.ids === undefined || v.ids.length === 0) === (v.filter === undefined))
      ctx.addIssue({ code: 'custom', message: 'ids_or_filter', path: ['ids'] });
  });
export type DeviceBulkInput = z.infer<typeof deviceBulkInput>;

export const deviceBulkOutput = z.object({ action: z.enum(DEVICE_BULK_ACTIONS), changed: z.number().int() });

/** One device in depth: registration, product, company, full state. */
export const deviceInfoSchema = deviceRowSchema.extend({
  dev_key: z.string().describe('masked'),
  gmt_update: z.number().int(),
  gmt_active: z.number().int().nullable(),
  wake_state: z.number().int(),
  country: z.string(),
  product: z
    .object({ id: z.number().int(), pk: z.string(), name: z.string(), node_type: z.number().int(), comp_id: z.number().int() })
    .nullable(),
  company: z.object({ comp_id: z.number().int(), comp_name: z.string(), dk: z.number().int(), dk_limit: z.number().int() }).nullable(),
});
export type DeviceInfo = z.infer<typeof deviceInfoSchema>;

export const devicePropertiesOutput = z.object({ id: z.number().int(), uid: z.string(), properties: z.record(z.string(), z.unknown()) });
