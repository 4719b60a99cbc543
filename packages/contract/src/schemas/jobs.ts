import { z } from 'zod';
import { id, int, pagingSchema, text, unixTime } from './common.js';
import { companyRef } from './company-ref.js';

/**
 * Background jobs of issue 3: device imports (SPEC §4 import states), exports (SPEC §4
 * export states) and the duplicates imports and registrations run into (product/dev_dup).
 */
export const JOB_KINDS = ['device_import', 'device_export', 'state_export', 'log_export'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/** SPEC §4 import states, plus failed (the file was unreadable or vanished). */
export const ImportState = { AWAITING: 1, IMPORTING: 2, IMPORTED: 3, FAILED: 4 } as const;
export const IMPORT_STATES = [1, 2, 3, 4] as const;
/** SPEC §4 export states. A queued export already shows "exporting". */
export const ExportState = { EXPORTING: 1, SUCCESS: 2, FAILURE: 3 } as const;
export const EXPORT_STATES = [1, 2, 3] as const;

/** Why one import row was refused (report column `reason`, web `jobs.reasons.<code>`). */
export const IMPORT_ROW_REASONS = [
  'uid_required',
  'uid_format',
  'mac_format',
  'pk_required',
  'unknown_pk',
  'duplicate_in_file',
  'duplicate_uid',
  'duplicate_mac',
  'dk_limit',
  'formula_without_value',
] as const;
export type ImportRowReason = (typeof IMPORT_ROW_REASONS)[number];

/** Why a whole job failed (`error`). */
export const JOB_ERRORS = [
  'file_missing',
  'file_corrupt',
  'no_sheet',
  /** The first worksheet holds no device row, and no other does either. */
  'no_rows',
  /** The first worksheet holds no device row, another worksheet does. */
  'data_not_on_first_sheet',
  'too_many_rows',
  'internal',
] as const;

/** Rows one import may hold. */
export const IMPORT_MAX_ROWS = 1_000_000;
/** SPEC §5: an export covers at most three months of registration time (92 days). */
export const EXPORT_MAX_SECONDS = 92 * 24 * 3600;

export const jobRowSchema = z.object({
  id: z.number().int(),
  kind: z.enum(JOB_KINDS),
  /** import: 1 awaiting, 2 importing, 3 imported, 4 failed; export: 1 exporting, 2 success, 3 failure. */
  state: z.number().int(),
  comp_id: z.number().int(),
  comp_name: z.string().nullable(),
  user_id: z.string(),
  file_name: z.string(),
  /** Rows processed and rows expected (0 while unknown). */
  done: z.number().int(),
  total: z.number().int(),
  ok_count: z.number().int(),
  fail_count: z.number().int(),
  /** Times the job was picked up again after a restart or a lost process. */
  resumed: z.number().int(),
  /** A JOB_ERRORS code when the job failed. */
  error: z.string(),
  /** Path (under /api/) of the report (imports with refused rows) or of the export file; '' when none. */
  download_path: z.string(),
  /** A short-lived ticket for the download link (browser downloads cannot send headers). */
  download_ticket: z.string(),
  gmt_create: z.number().int(),
  gmt_start: z.number().int().nullable(),
  gmt_finish: z.number().int().nullable(),
});
export type JobRow = z.infer<typeof jobRowSchema>;

export const jobListInput = pagingSchema.extend({
  state: int().optional(),
  comp_id: id().optional(),
  id: id().optional(),
});
export type JobListInput = z.infer<typeof jobListInput>;

export const importAddInput = z.object({
  /** Key of the uploaded file (`v2/oss/upload` with folder `imports`). */
  file_key: text(200).pipe(z.string().min(1, 'required')),
  /** Original file name, shown in the list; must end in .xlsx. */
  file_name: text(200).optional(),
  /** Owner company of every imported device (in the caller's scope). */
  comp_id: companyRef(),
  /** Product key for rows whose PK cell is empty. */
  pk: text(64).optional(),
});
export type ImportAddInput = z.infer<typeof importAddInput>;

/** Filters of the device list that an export takes, plus the registration range (required, ≤ 3 months). */
export const exportAddInput = z.object({
  gmt_start: unixTime(),
  gmt_end: unixTime(),
  uid: text(64).optional(),
  mac: text(64).optional(),
  pk: text(64).optional(),
  comp_id: companyRef().optional(),
  online: int().optional(),
  active: int().optional(),
  network_type: int().optional(),
  vendor: text(64).optional(),
  online_start: unixTime().optional(),
  online_end: unixTime().optional(),
});
export type ExportAddInput = z.infer<typeof exportAddInput>;

export const DuplicateState = { PENDING: 1, RESOLVED: 2 } as const;
export const DUPLICATE_RESOLUTIONS = ['keep_existing', 'replace', 'ignore'] as const;
export type DuplicateResolution = (typeof DUPLICATE_RESOLUTIONS)[number];

export const duplicateRowSchema = z.object({
  id: z.number().int(),
  uid: z.string(),
  mac: z.string(),
  pk: z.string(),
  /** Owner company the new registration asked for. */
  comp_id: z.number().int(),
  comp_name: z.string().nullable(),
  /** `duplicate_uid` or `duplicate_mac`. */
  reason: z.string(),
  existing_device_id: z.number().int(),
  existing_uid: z.string().nullable(),
  existing_mac: z.string().nullable(),
  existing_pk: z.string().nullable(),
  existing_comp_id: z.number().int().nullable(),
  existing_comp_name: z.string().nullable(),
  /** The import job it came from; null for a single registration. */
  import_id: z.number().int().nullable(),
  state: z.number().int(),
  resolution: z.string().nullable(),
  resolved_by: z.string().nullable(),
  resolved_at: z.number().int().nullable(),
  gmt_create: z.number().int(),
});
export type DuplicateRow = z.infer<typeof duplicateRowSchema>;

export const duplicateListInput = pagingSchema.extend({
  state: int().optional(),
  uid: text(64).optional(),
  import_id: id().optional(),
});
export type DuplicateListInput = z.infer<typeof duplicateListInput>;

export const duplicateSetInput = z.object({
  id: id(),
  resolution: z.enum(DUPLICATE_RESOLUTIONS),
});
export type DuplicateSetInput = z.infer<typeof duplicateSetInput>;
