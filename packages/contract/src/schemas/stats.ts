import { z } from 'zod';
import { text, unixTime } from './common.js';
import { companyRef } from './company-ref.js';

/** Longest range one statistics call covers (days). */
export const STATS_MAX_DAYS = 366;
/** Rows of each breakdown (countries, products, companies). */
export const STATS_TOP = 10;
export const SECONDS_PER_DAY = 86_400;

/** UTC day number of a unix time (the rollups' `day`). */
export const dayOf = (unix: number): number => Math.floor(unix / SECONDS_PER_DAY);
/** `YYYY-MM-DD` of a UTC day number. */
export const dayLabel = (day: number): string => new Date(day * SECONDS_PER_DAY * 1000).toISOString().slice(0, 10);

/**
 * A statistics range: `gmt_end` after `gmt_start`, and at most STATS_MAX_DAYS UTC days (406
 * `gmt_end`). Shared by the device and app-user statistics.
 */
export const checkDayRange = (v: { gmt_start: number; gmt_end: number }, ctx: z.RefinementCtx) => {
  if (v.gmt_end <= v.gmt_start) {
    ctx.addIssue({ code: 'too_small', origin: 'number', minimum: v.gmt_start + 1, inclusive: true, path: ['gmt_end'], input: v.gmt_end });
    return;
  }
  if (dayOf(v.gmt_end - 1) - dayOf(v.gmt_start) + 1 > STATS_MAX_DAYS) {
    // The rule names the day limit (the web says "at most 366 days").
    ctx.addIssue({ code: 'too_big', origin: 'number', maximum: STATS_MAX_DAYS, inclusive: true, path: ['gmt_end'], input: v.gmt_end });
  }
};

/**
 * Device statistics over whole UTC days: `gmt_start` (inclusive) and `gmt_end` (exclusive,
 * CONTRACT §1) are unix seconds; the range covers the days they touch, at most 366.
 * `comp_id` narrows to a company and its subsidiaries (within the caller's scope), `pk` to a product.
 */
export const statsInput = z
  .object({
    gmt_start: unixTime(),
    gmt_end: unixTime(),
    comp_id: companyRef().optional(),
    pk: text(64).optional(),
    group: z.enum(['day']).optional(),
  })
  .superRefine(checkDayRange);
export type StatsInput = z.infer<typeof statsInput>;

export const statsDaySchema = z.object({
  /** `YYYY-MM-DD` (UTC). */
  day: z.string(),
  registered: z.number().int(),
  activated: z.number().int(),
  /** Peak of the sampled online devices that day (0 before sampling began). */
  online: z.number().int(),
});
export type StatsDay = z.infer<typeof statsDaySchema>;

export const statsCountrySchema = z.object({ country: z.string(), devices: z.number().int() });
export const statsProductSchema = z.object({
  pk: z.string(),
  product_name: z.string().nullable(),
  registered: z.number().int(),
  activated: z.number().int(),
});
export const statsCompanySchema = z.object({
  comp_id: z.number().int(),
  comp_name: z.string().nullable(),
  registered: z.number().int(),
  activated: z.number().int(),
});

export const statsOutput = z.object({
  gmt_start: z.number().int(),
  gmt_end: z.number().int(),
  series: z.array(statsDaySchema),
  totals: z.object({
    /** Registered and activated within the range. */
    registered: z.number().int(),
    activated: z.number().int(),
    /** Highest daily online peak within the range. */
    online_peak: z.number().int(),
    /** All devices registered (all time) and activated (all time), in the filter. */
    devices: z.number().int(),
    active_devices: z.number().int(),
    /** Online at the last sample, and online / devices (0–1). */
    online: z.number().int(),
    online_share: z.number(),
    /** When online devices were last sampled (null: never). */
    gmt_sample: z.number().int().nullable(),
  }),
  /** Top 10 countries by devices (all time; devices that reported none are not counted). */
  countries: z.array(statsCountrySchema),
  /** Top 10 products and companies by registrations within the range. */
  products: z.array(statsProductSchema),
  companies: z.array(statsCompanySchema),
  /** For `GET /api/v2/iot/dev/statistics.xlsx?…&ticket=`: the same question as a browser download. */
  download_ticket: z.string(),
});
export type StatsOutput = z.infer<typeof statsOutput>;

/** The .xlsx download of the same numbers (outside the POST registry; docs/api.md). */
export const STATS_XLSX_PATH = 'v2/iot/dev/statistics.xlsx';
