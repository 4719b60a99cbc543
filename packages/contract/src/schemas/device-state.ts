import { z } from 'zod';
import { APP_EVENT_REFUSALS, APP_EVENT_SCHEMAS } from './appdata.js';
import { id, ids, int, jsonObject, oneOf, pagingSchema, requiredText, safeString, text, unixTime } from './common.js';
import { companyRef } from './company-ref.js';
import { otaEventFields, otaEventResultSchema } from './ota.js';

/** SPEC §4 device network (NAT) types: 0 unknown, 1 public, 2 full-cone, 3 IP-restricted, 4 port-restricted, 5 symmetric. */
export const NETWORK_TYPES = [0, 1, 2, 3, 4, 5] as const;

/** Why a device is offline (device_state.offline_reason). */
export const OfflineReason = { NEVER_SEEN: 0, EXPLICIT: 1, HEARTBEAT_TIMEOUT: 2 } as const;
export const OFFLINE_REASONS = [0, 1, 2] as const;

/**
 * Wake state of low-power devices: 0 none reported (not a low-power device, or never said),
 * 1 asleep, 2 awake. A device is "low-power" for the wake screen once it has reported one.
 */
export const WakeState = { NONE: 0, ASLEEP: 1, AWAKE: 2 } as const;
export const WAKE_STATES = [0, 1, 2] as const;

export const DEVICE_EVENT_TYPES = [
  'online',
  'offline',
  'heartbeat',
  'network',
  'vendor',
  'protocol',
  'properties',
  'wake',
  'licence',
  'ota_check',
  'ota_progress',
  'ota_result',
] as const;
export type DeviceEventType = (typeof DEVICE_EVENT_TYPES)[number];

/** Largest batch `v2/iot/ingest/events` accepts (and the MQTT path per message). */
export const INGEST_BATCH_MAX = 5000;
/** Header carrying the ingestion service key. */
export const SERVICE_KEY_HEADER = 'x-service-key';

/**
 * One state event from the device side. Every event also counts as "seen"; payload
 * fields are read by the types that carry them (and accepted on `online`, so a device
 * can say everything in its first message). `ts` defaults to the server's clock.
 */
export const deviceEventSchema = z
  .object({
    uid: safeString().trim().min(1).max(64),
    type: z.enum(DEVICE_EVENT_TYPES),
    ts: unixTime().optional(),
    network_type: oneOf(NETWORK_TYPES).optional(),
    vendor: text(64).optional(),
    protocol: text(64).optional(),
    properties: jsonObject().optional(),
    wake_state: oneOf(WAKE_STATES).optional(),
    country: text(8).optional(),
    /** `licence` events: the licence code the device uses (bound once; see docs/api.md "Licence codes"). */
    code: text(64).optional(),
    /** OTA events (docs/api.md "Product firmware (OTA)"): ver_num, progress, success, error, lang. */
    ...otaEventFields,
  })
  .superRefine((e, ctx) => {
    // The field each OTA event is about must be there.
    const needs = { ota_check: 'ver_num', ota_progress: 'progress', ota_result: 'success' } as const;
    const field = needs[e.type as keyof typeof needs];
    if (field && e[field] === undefined) ctx.addIssue({ code: 'custom', message: 'required', path: [field] });
  });
export type DeviceEvent = z.infer<typeof deviceEventSchema>;

/**
 * Every kind the ingestion path takes, told apart by `type`: the device state kinds above and
 * the app side's (schemas/appdata.ts: app users, bindings and shares, alarms, device and service logs).
 */
export const ingestEventSchema = z.discriminatedUnion('type', [deviceEventSchema, ...APP_EVENT_SCHEMAS]);
export type IngestEvent = z.infer<typeof ingestEventSchema>;

export const ingestInput = z.object({
  events: z.array(ingestEventSchema).min(1).max(INGEST_BATCH_MAX),
});
export type IngestInput = z.infer<typeof ingestInput>;

export const ingestOutput = z.object({
  /** Events applied. */
  accepted: z.number().int(),
  /** Events naming a uid that is not registered: position in the batch and the uid; the rest is applied. */
  unknown: z.array(z.object({ index: z.number().int(), uid: z.string() })),
  /** Present when the batch carried `licence` events of registered devices: what became of each. */
  licences: z
    .array(
      z.object({
        index: z.number().int(),
        uid: z.string(),
        result: z.enum(['bound', 'not_found', 'used', 'revoked', 'wrong_product', 'wrong_company']),
      }),
    )
    .optional(),
  /** App-side events not applied (the rest is): position in the batch and why. */
  refused: z.array(z.object({ index: z.number().int(), reason: z.enum(APP_EVENT_REFUSALS) })).optional(),
  /** Present when the batch carried OTA events of registered devices: what became of each (offers included). */
  ota: z.array(otaEventResultSchema).optional(),
});
export type IngestOutput = z.infer<typeof ingestOutput>;

export const deviceStateRowSchema = z.object({
  device_id: z.number().int(),
  uid: z.string(),
  mac: z.string(),
  pk: z.string(),
  comp_id: z.number().int(),
  comp_name: z.string().nullable(),
  online: z.number().int(),
  active: z.number().int(),
  gmt_active: z.number().int().nullable(),
  network_type: z.number().int(),
  vendor: z.string(),
  protocol: z.string(),
  last_online: z.number().int().nullable(),
  last_offline: z.number().int().nullable(),
  last_seen: z.number().int().nullable(),
  offline_reason: z.number().int(),
  wake_state: z.number().int(),
  country: z.string(),
  properties: z.record(z.string(), z.unknown()),
});
export type DeviceStateRow = z.infer<typeof deviceStateRowSchema>;

export const deviceStateListInput = pagingSchema.extend({
  uid: text(64).optional(),
  pk: text(64).optional(),
  comp_id: id().optional(),
  online: oneOf([0, 1]).optional(),
  active: oneOf([0, 1]).optional(),
  network_type: oneOf(NETWORK_TYPES).optional(),
  offline_reason: oneOf(OFFLINE_REASONS).optional(),
});
export type DeviceStateListInput = z.infer<typeof deviceStateListInput>;

/** Wake state: one device (`uid`) or the list of low-power devices in scope. */
export const wolStateGetInput = pagingSchema.extend({
  uid: text(64).optional(),
  pk: text(64).optional(),
  comp_id: id().optional(),
  wake_state: oneOf([1, 2]).optional(),
});
export type WolStateGetInput = z.infer<typeof wolStateGetInput>;

export const LICENCE_STATES = ['unused', 'used', 'revoked'] as const;
export type LicenceState = (typeof LICENCE_STATES)[number];
/** Characters of a generated code: RFC 4648 base32 of 10 random bytes (80 bits). */
export const LICENCE_CODE_LENGTH = 16;
/** Codes one `liccode/add` call generates at most. */
export const LICENCE_BATCH_MAX = 10_000;
/** Rows one licence .xlsx holds at most (narrow the filters beyond it). */
export const LICENCE_EXPORT_MAX = 50_000;
/** The .xlsx of licence codes (GET, `?ticket=` from `v2/umh/admin/liccode/export`; docs/api.md). */
export const LICENCE_XLSX_PATH = 'v2/umh/admin/liccode/export.xlsx';

export const licenceRowSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  uid: z.string().nullable(),
  pk: z.string(),
  comp_id: z.number().int(),
  comp_name: z.string().nullable(),
  state: z.enum(LICENCE_STATES),
  /** The generated batch (null for codes that predate batches). */
  batch_id: z.number().int().nullable(),
  gmt_create: z.number().int(),
  gmt_use: z.number().int().nullable(),
  gmt_revoke: z.number().int().nullable(),
});
export type LicenceRow = z.infer<typeof licenceRowSchema>;

const licenceFilters = {
  code: text(64).optional(),
  uid: text(64).optional(),
  pk: text(64).optional(),
  comp_id: id().optional(),
  state: z.enum(LICENCE_STATES).optional(),
  batch_id: id().optional(),
};
export const licenceListInput = pagingSchema.extend(licenceFilters);
export type LicenceListInput = z.infer<typeof licenceListInput>;

/** Generate `count` codes for a product the caller sees, owned by a company in scope. */
export const licenceAddInput = z.object({
  pk: requiredText(64),
  comp_id: companyRef(),
  count: int().pipe(z.number().min(1).max(LICENCE_BATCH_MAX)),
});
export type LicenceAddInput = z.infer<typeof licenceAddInput>;

export const licenceBatchSchema = z.object({
  batch_id: z.number().int(),
  pk: z.string(),
  comp_id: z.number().int(),
  count: z.number().int(),
  gmt_create: z.number().int(),
});
export type LicenceBatch = z.infer<typeof licenceBatchSchema>;

/** Revoke unused codes (a used code cannot be revoked: 409, nothing changed). */
export const licenceSetInput = z.object({
  ids: ids().pipe(z.array(z.number()).min(1)),
  state: z.literal('revoked'),
});
export type LicenceSetInput = z.infer<typeof licenceSetInput>;
/** Codes that changed (already revoked ones are left as they are). */
export const licenceSetOutput = z.object({ revoked: z.number().int() });

/** Bind an unused code to a device of its product, in its owner's company tree. */
export const licenceUseInput = z.object({
  code: requiredText(64),
  uid: requiredText(64),
});
export type LicenceUseInput = z.infer<typeof licenceUseInput>;

/** The list's filters; answers a link to the .xlsx of the matching codes. */
export const licenceExportInput = z.object(licenceFilters);
export type LicenceExportInput = z.infer<typeof licenceExportInput>;
export const licenceExportOutput = z.object({
  count: z.number().int(),
  download_path: z.string(),
  download_ticket: z.string(),
});
export type LicenceExportOutput = z.infer<typeof licenceExportOutput>;

export const stateHistoryInput = pagingSchema.extend({
  uid: safeString().trim().min(1).max(64),
  type: z.enum(DEVICE_EVENT_TYPES).optional(),
  gmt_start: unixTime().optional(),
  gmt_end: unixTime().optional(),
});
export type StateHistoryInput = z.infer<typeof stateHistoryInput>;

export const stateHistoryRowSchema = z.object({
  id: z.number().int(),
  type: z.enum([...DEVICE_EVENT_TYPES, 'timeout']),
  /** What the event said (network_type, vendor, properties…); `timeout` rows carry last_seen. */
  detail: z.record(z.string(), z.unknown()),
  ts: z.number().int(),
});
export type StateHistoryRow = z.infer<typeof stateHistoryRowSchema>;

/** Path of the live stream (GET, server-sent events); the token goes in `?token=` (EventSource sends no headers). */
export const LIVE_PATH = 'v2/iot/live';
/** Name of the SSE event carrying state changes. */
export const LIVE_STATE_EVENT = 'state';

/**
 * One device's state after a change, as the live stream sends it (`data` of an SSE
 * `state` event is an array of these). Same fields as the state list row minus the joins.
 */
export const liveStateSchema = deviceStateRowSchema.omit({ mac: true, pk: true, comp_name: true, properties: true });
export type LiveState = z.infer<typeof liveStateSchema>;
