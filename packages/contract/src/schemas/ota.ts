import { z } from 'zod';
import { id, oneOf, pagingSchema, requiredText, safeString, text } from './common.js';
import { crudSchemas } from './crud.js';
import { langCode } from './push.js';

/**
 * Product firmware (OTA, issue 8): a product's versions, offered to its devices through the
 * ingestion interface (`ota_check` events) within a rollout limit, and each device's upgrade.
 * docs/api.md "Product firmware (OTA)".
 */

/** SPEC §4 publish state of a version: only released versions are offered to devices. */
export const VersionState = { RELEASE: 1, DELIST: 2 } as const;
export const VERSION_STATES = [1, 2] as const;

/** How strongly the device should take a version: 1 optional, 2 recommended, 3 forced. */
export const VersionLevel = { OPTIONAL: 1, RECOMMENDED: 2, FORCED: 3 } as const;
export const VERSION_LEVELS = [1, 2, 3] as const;

/** OEM flag, as the product's: 1 the firmware of a partner-branded build, 0 not. */
export const VERSION_OEM_VALUES = [0, 1] as const;

/**
 * One device's upgrade to one version: `offered` (the device was told to take it), `upgrading`
 * (it reported progress), `succeeded`, `failed`, or `superseded` (a newer version was offered to
 * it before it finished).
 */
export const OTA_UPGRADE_STATES = ['offered', 'upgrading', 'succeeded', 'failed', 'superseded'] as const;
export type OtaUpgradeState = (typeof OTA_UPGRADE_STATES)[number];
/** Upgrades still under way: progress and results apply to them. */
export const OTA_OPEN_STATES = ['offered', 'upgrading'] as const satisfies readonly OtaUpgradeState[];

/** Largest version number (an integer column). */
export const VER_NUM_MAX = 2_147_483_647;
/** Languages a version describes itself in, at most. */
export const VERSION_DETAILS_MAX = 20;
/** Largest firmware size in bytes (1 TiB): beyond any device firmware, within a JSON number. */
export const FIRMWARE_SIZE_MAX = 1_099_511_627_776;

/**
 * A version as people write it: 1–4 numeric parts (`1.2.3`, `V5.6.2.1`), optionally a suffix
 * after `-`, `+` or `_` (`2.0.1-beta.1`, `3.1.0_build20240101`). The device side compares
 * `ver_num`, never this text.
 */
export const VERSION_PATTERN = /^[vV]?\d{1,9}(\.\d{1,9}){0,3}([-+_][0-9A-Za-z][0-9A-Za-z._-]{0,31})?$/;
/** Where the device downloads the firmware from: an absolute http(s) URL. */
export const FIRMWARE_URL_PATTERN = /^https?:\/\/[^\s/?#]+[^\s]*$/i;

const toIntLoose = (v: unknown) => (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v);

/** A version number: a positive integer (SPEC §5 "version numbers must be valid numbers"). */
const verNum = (min: number) => z.preprocess(toIntLoose, z.number().int().min(min).max(VER_NUM_MAX));

/** `size` in bytes; SPEC §5: an empty size is 0 (missing, null or ''). */
const firmwareSize = () =>
  z.preprocess(
    (v) => (v === undefined || v === null || (typeof v === 'string' && v.trim() === '') ? 0 : toIntLoose(v)),
    z.number().int().min(0).max(FIRMWARE_SIZE_MAX),
  );

export const versionDetailSchema = z.object({
  lang: langCode(),
  url: z.preprocess((v) => (typeof v === 'string' ? v.trim() : v), safeString().min(1).max(1024).regex(FIRMWARE_URL_PATTERN, 'format:url')),
  title: text(128).default(''),
  content: text(4000).default(''),
  size: firmwareSize(),
});
export type ProductVersionDetail = z.output<typeof versionDetailSchema>;

/** One detail per language (case-insensitive): a second one answers `{details.<i>.lang: "format:duplicate"}`. */
export const versionDetails = () =>
  z
    .array(versionDetailSchema)
    .min(1)
    .max(VERSION_DETAILS_MAX)
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      list.forEach((d, i) => {
        const key = d.lang.toLowerCase();
        if (seen.has(key)) ctx.addIssue({ code: 'custom', message: 'format:duplicate', path: [i, 'lang'] });
        seen.add(key);
      });
    });

/** The version's fields a console sends (pk chooses the product on add and never changes). */
export const versionFields = {
  ver: z.preprocess(
    (v) => (typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : v),
    safeString().min(1).max(64).regex(VERSION_PATTERN, 'format:version'),
  ),
  /** This version's number: devices below it (within the range) are offered it. */
  ver_num: verNum(1),
  /** Lowest device version that may take it. */
  min_ver_num: verNum(0),
  /** Highest device version that may take it; 0: no upper bound (any version below `ver_num`). */
  max_ver_num: verNum(0),
  oem: oneOf(VERSION_OEM_VALUES),
  link_id: text(64),
  link_type: z.preprocess(toIntLoose, z.number().int().min(0).max(VER_NUM_MAX)),
  batch_id: text(64),
  tag: text(64),
  /** The firmware's part or kind in the device's own numbering (0 the main firmware); sent with the offer. */
  type: z.preprocess(toIntLoose, z.number().int().min(0).max(VER_NUM_MAX)),
  level: oneOf(VERSION_LEVELS),
  state: oneOf(VERSION_STATES),
  /** Devices that may be offered this version; 0 unlimited. */
  limit: z.preprocess(toIntLoose, z.number().int().min(0).max(VER_NUM_MAX)),
  details: versionDetails(),
};

export interface VersionRange {
  ver_num: number;
  min_ver_num: number;
  max_ver_num: number;
}

/**
 * The rules across the range fields, on the values a version ends up with (add: the payload;
 * set: the stored row with the changes): some device version must be able to take it
 * (`min_ver_num` below `ver_num`), and a bounded range must not be empty (`max_ver_num` ≥
 * `min_ver_num`). Answers field → rule, empty when the range holds.
 */
export const versionRangeRules = (v: VersionRange): Record<string, string> => {
  const out: Record<string, string> = {};
  if (v.min_ver_num >= v.ver_num) out.min_ver_num = `too_big:${v.ver_num - 1}`;
  if (v.max_ver_num > 0 && v.max_ver_num < v.min_ver_num) out.max_ver_num = `too_small:${v.min_ver_num}`;
  return out;
};

/** Object-level refinement: `versionRangeRules` as zod issues on their fields. */
export const checkVersionRange = (v: Partial<VersionRange>, ctx: z.RefinementCtx) => {
  if (v.ver_num === undefined || v.min_ver_num === undefined || v.max_ver_num === undefined) return;
  for (const [field, rule] of Object.entries(versionRangeRules(v as VersionRange))) {
    const [kind, bound] = rule.split(':');
    const input = v[field as keyof VersionRange];
    // Issues of the bound's own kind, so the 406 names `too_big:<n>` / `too_small:<n>` as a field's own bound would.
    if (kind === 'too_big')
      ctx.addIssue({ code: 'too_big', origin: 'number', maximum: Number(bound), inclusive: true, input, path: [field] });
    else ctx.addIssue({ code: 'too_small', origin: 'number', minimum: Number(bound), inclusive: true, input, path: [field] });
  }
};

/** Upgrades of one version by state (the rollout); `count` on the row is every device offered it. */
export const rolloutSchema = z.object({
  offered: z.number().int(),
  upgrading: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  superseded: z.number().int(),
});
export type Rollout = z.infer<typeof rolloutSchema>;

/** One device's upgrade to one version (the firmware tab's rollout, the device's history). */
export const otaUpgradeRowSchema = z.object({
  id: z.number().int(),
  device_id: z.number().int(),
  uid: z.string(),
  comp_id: z.number().int(),
  comp_name: z.string(),
  version_id: z.number().int(),
  pk: z.string(),
  ver: z.string(),
  ver_num: z.number().int(),
  from_ver_num: z.number().int().describe('the firmware the device reported when it asked'),
  state: z.enum(OTA_UPGRADE_STATES),
  progress: z.number().int(),
  error: z.string(),
  gmt_offer: z.number().int(),
  gmt_update: z.number().int(),
  gmt_finish: z.number().int().nullable(),
});
export type OtaUpgradeRow = z.infer<typeof otaUpgradeRowSchema>;

/** Upgrades of a version (`version_id`), of a device (`uid`), or of a product (`pk`); by state. */
export const otaUpgradeListInput = pagingSchema.extend({
  version_id: id().optional(),
  uid: text(64).optional(),
  pk: text(64).optional(),
  state: z.enum(OTA_UPGRADE_STATES).optional(),
});
export type OtaUpgradeListInput = z.infer<typeof otaUpgradeListInput>;

/** What the device side is told about a version offered to it (the detail in its language). */
export const otaOfferSchema = z.object({
  version_id: z.number().int(),
  ver: z.string(),
  ver_num: z.number().int(),
  level: z.number().int(),
  type: z.number().int(),
  tag: z.string(),
  lang: z.string(),
  url: z.string(),
  title: z.string(),
  content: z.string(),
  size: z.number().int(),
});
export type OtaOffer = z.infer<typeof otaOfferSchema>;

/**
 * What became of one OTA event of an ingestion batch: `ota_check` answers `offered` (with the
 * offer) or `none`; `ota_progress` and `ota_result` answer `updated`, or `no_upgrade` when the
 * device has no upgrade under way.
 */
export const otaEventResultSchema = z.object({
  index: z.number().int(),
  uid: z.string(),
  result: z.enum(['offered', 'none', 'updated', 'no_upgrade']),
  offer: otaOfferSchema.optional(),
});
export type OtaEventResult = z.infer<typeof otaEventResultSchema>;

/** The OTA fields of an ingestion event (see device-state.ts `deviceEventSchema`). */
export const otaEventFields = {
  /** `ota_check`: the firmware the device runs now; `ota_result`: the firmware after the upgrade (optional). */
  ver_num: verNum(0).optional(),
  /** `ota_progress`: percent done, 0–100. */
  progress: z.preprocess(toIntLoose, z.number().int().min(0).max(100)).optional(),
  /** `ota_result`: 1 the upgrade succeeded, 0 it failed. */
  success: oneOf([0, 1]).optional(),
  /** `ota_result` on failure: why, in the device's words. */
  error: text(500).optional(),
  /** `ota_check`: the language the device wants the version's text in (else English, else the first). */
  lang: text(35).optional(),
};

/**
 * The version resource (CRUD kit): `pk` names the product on add and never changes (not in
 * `set`); `count` is the rollout's, never the console's. The add schema also holds the range
 * rules (`checkVersionRange`); the server checks them again on what a `set` makes of the row.
 */
const versionSchemas = crudSchemas({
  fields: {
    pk: requiredText(64),
    ...versionFields,
    min_ver_num: versionFields.min_ver_num.default(0),
    max_ver_num: versionFields.max_ver_num.default(0),
    oem: versionFields.oem.default(0),
    link_id: versionFields.link_id.default(''),
    link_type: versionFields.link_type.default(0),
    batch_id: versionFields.batch_id.default(''),
    tag: versionFields.tag.default(''),
    type: versionFields.type.default(0),
    level: versionFields.level.default(VersionLevel.OPTIONAL),
    state: versionFields.state.default(VersionState.DELIST),
    limit: versionFields.limit.default(0),
  },
  filters: {
    pk: text(64).optional(),
    ver: text(64).optional(),
    state: oneOf([0, ...VERSION_STATES]).optional(),
    /** The company owning the product. */
    comp_id: id().optional(),
  },
  rowExtra: {
    product_name: z.string(),
    comp_id: z.number().int(),
    comp_name: z.string(),
    count: z.number().int().describe('devices offered it so far'),
    rollout: rolloutSchema,
  },
  owned: false,
});

export const productVersion = {
  ...versionSchemas,
  add: versionSchemas.add.superRefine(checkVersionRange),
  set: versionSchemas.set.omit({ pk: true }),
};
export type ProductVersionRow = z.output<typeof productVersion.row>;
export type ProductVersionAddInput = z.output<typeof productVersion.add>;
export type ProductVersionListInput = z.output<typeof productVersion.list>;
