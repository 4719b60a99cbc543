import { z } from 'zod';
import { id, oneOf, pagingSchema, requiredText, safeString, text, unixTime } from './common.js';
import { companyRef } from './company-ref.js';
import { APP_PUSH_PROVIDERS } from './push.js';
import { checkDayRange } from './stats.js';

/**
 * What the app side reports (issue 8): app users, device bindings and shares, device alarms,
 * device and service log lines. They arrive as further event kinds of `v2/iot/ingest/events`
 * (schemas/device-state.ts) and are read by the applist screens and info/user.
 */

/** SPEC §4: alarm types 1–7. */
export const ALARM_TYPES = [1, 2, 3, 4, 5, 6, 7] as const;
/** Log levels of device and service log lines. */
export const LogLevel = { DEBUG: 1, INFO: 2, WARN: 3, ERROR: 4 } as const;
export const LOG_LEVELS = [1, 2, 3, 4] as const;
/** SPEC §9 server type ids (a service log line names its service by one of them). */
export const ServerType = {
  AUTH: 2,
  GW: 4,
  NAT: 5,
  HKSP: 6,
  RTSP: 7,
  HTTP: 8,
  ALARM: 9,
  VOD: 10,
  SP: 11,
  UST: 12,
  UTD: 14,
  CSI: 15,
  CSF: 16,
  UMH: 17,
  DS: 18,
  WOL: 19,
  REGISTRATION: 20,
  USER: 21,
  OPEN_API: 22,
  MALL: 23,
  PAY: 24,
  OSS: 25,
  IOT: 26,
  PUSH: 27,
  OTA: 28,
  DATA_ANALYSIS: 29,
  GUMH: 30,
  KLS: 34,
} as const;
export const SERVER_TYPE_IDS = Object.values(ServerType) as readonly number[];
/** A binding's role: the device's owner, or an app user the owner shared it with. */
export const BindRole = { OWNER: 1, SHARED: 2 } as const;
export const BIND_ROLES = [1, 2] as const;

const uidField = () => safeString().trim().min(1).max(64);
const userIdField = () => safeString().trim().min(1).max(64);

/**
 * An app user signed up. Its company is the app's (`app.comp_id`); `comp_id` only names it for an
 * app id the platform has no app for (ignored otherwise; docs/api.md).
 */
export const userRegisterEventSchema = z.object({
  type: z.literal('user_register'),
  app_id: id(),
  comp_id: id().optional(),
  user_id: userIdField(),
  country: text(8).optional(),
  lang: text(16).optional(),
  email: text(128).optional(),
  phone: text(32).optional(),
  ts: unixTime().optional(),
});
/**
 * An app user signed in (counts them active that UTC day). A phone that can receive app push
 * also names its push token and the provider that issued it: alarms reach the user there (the
 * newest token per provider is kept).
 */
export const userLoginEventSchema = z
  .object({
    type: z.literal('user_login'),
    app_id: id(),
    user_id: userIdField(),
    push_provider: z.enum(APP_PUSH_PROVIDERS).optional(),
    push_token: requiredText(512).optional(),
    ts: unixTime().optional(),
  })
  .refine((e) => (e.push_provider === undefined) === (e.push_token === undefined), {
    message: 'push_provider and push_token come together',
    path: ['push_token'],
  });
/** `bind`: the app user becomes the device's owner (a previous owner and its shares go); `unbind`: the owner lets go. */
export const bindEventSchema = z.object({
  type: z.enum(['bind', 'unbind']),
  uid: uidField(),
  app_id: id(),
  user_id: userIdField(),
  ts: unixTime().optional(),
});
/** The owner (`user_id`) shares the device with another app user of the same app, or stops. */
export const shareEventSchema = z.object({
  type: z.enum(['share', 'unshare']),
  uid: uidField(),
  app_id: id(),
  user_id: userIdField(),
  to_user_id: userIdField(),
  ts: unixTime().optional(),
});
export const alarmEventSchema = z.object({
  type: z.literal('alarm'),
  uid: uidField(),
  alarm_type: oneOf(ALARM_TYPES),
  text: text(255).optional(),
  ts: unixTime().optional(),
});
export const deviceLogEventSchema = z.object({
  type: z.literal('device_log'),
  uid: uidField(),
  level: oneOf(LOG_LEVELS),
  text: requiredText(1024),
  ts: unixTime().optional(),
});
export const serviceLogEventSchema = z.object({
  type: z.literal('service_log'),
  service_id: oneOf(SERVER_TYPE_IDS),
  level: oneOf(LOG_LEVELS),
  text: requiredText(1024),
  /** The reporting node (host or instance name). */
  node: text(64).optional(),
  ts: unixTime().optional(),
});
export const APP_EVENT_SCHEMAS = [
  userRegisterEventSchema,
  userLoginEventSchema,
  bindEventSchema,
  shareEventSchema,
  alarmEventSchema,
  deviceLogEventSchema,
  serviceLogEventSchema,
] as const;
export type UserRegisterEvent = z.infer<typeof userRegisterEventSchema>;
export type UserLoginEvent = z.infer<typeof userLoginEventSchema>;
export type BindEvent = z.infer<typeof bindEventSchema>;
export type ShareEvent = z.infer<typeof shareEventSchema>;
export type AlarmEvent = z.infer<typeof alarmEventSchema>;
export type DeviceLogEvent = z.infer<typeof deviceLogEventSchema>;
export type ServiceLogEvent = z.infer<typeof serviceLogEventSchema>;
export type AppEvent = UserRegisterEvent | UserLoginEvent | BindEvent | ShareEvent | AlarmEvent | DeviceLogEvent | ServiceLogEvent;
export const APP_EVENT_TYPES = [
  'user_register',
  'user_login',
  'bind',
  'unbind',
  'share',
  'unshare',
  'alarm',
  'device_log',
  'service_log',
] as const;

/** Why an app-side event was not applied (`refused` of the ingestion answer). */
export const APP_EVENT_REFUSALS = ['unknown_app', 'unknown_company', 'unknown_user', 'not_owner'] as const;

// ───────────── masking ─────────────

/** `ab***@example.com`: the first two characters of the local part, the domain. */
export const maskEmail = (email: string): string => {
  if (email === '') return '';
  const at = email.lastIndexOf('@');
  if (at <= 0) return `${email.slice(0, 1)}***`;
  return `${email.slice(0, Math.min(2, at))}***${email.slice(at)}`;
};
/** `138****5678`: the first three and last four digits of a long number, less of a short one. */
export const maskPhone = (phone: string): string => {
  if (phone === '') return '';
  if (phone.length <= 4) return `${phone.slice(0, 1)}***`;
  const keep = phone.length >= 11 ? 3 : 1;
  return `${phone.slice(0, keep)}****${phone.slice(-4)}`;
};

// ───────────── app users ─────────────

export const appUserRowSchema = z.object({
  id: z.number().int(),
  app_id: z.number().int(),
  /** The app's name (null: an app id the platform has no app for). */
  app_name: z.string().nullable(),
  comp_id: z.number().int(),
  comp_name: z.string().nullable(),
  user_id: z.string(),
  country: z.string(),
  lang: z.string(),
  /** Masked in the list (`ab***@example.com`); whole in `user/get`. */
  email: z.string(),
  /** Masked in the list (`138****5678`); whole in `user/get`. */
  phone: z.string(),
  gmt_register: z.number().int(),
  gmt_login: z.number().int().nullable(),
});
export type AppUserRow = z.infer<typeof appUserRowSchema>;

export const appUserListInput = pagingSchema.extend({
  app_id: id().optional(),
  comp_id: companyRef().optional(),
  country: text(8).optional(),
  /** Registration time range (inclusive start, exclusive end). */
  gmt_start: unixTime().optional(),
  gmt_end: unixTime().optional(),
  /** Contains, case-insensitive. */
  user_id: text(64).optional(),
  email: text(128).optional(),
});
export type AppUserListInput = z.infer<typeof appUserListInput>;

export const appUserGetInput = z.object({ id: id() });
export const appUserDetailSchema = appUserRowSchema.extend({
  /** Devices the user owns and devices shared with the user. */
  owned: z.number().int(),
  shared: z.number().int(),
  /** The push providers of the phones the user signed in with (alarms reach them there). */
  push_providers: z.array(z.enum(APP_PUSH_PROVIDERS)),
});
export type AppUserDetail = z.infer<typeof appUserDetailSchema>;

// ───────────── bindings and shares ─────────────

export const devBindRowSchema = z.object({
  id: z.number().int(),
  app_id: z.number().int(),
  app_name: z.string().nullable(),
  /** The device's company. */
  comp_id: z.number().int(),
  comp_name: z.string().nullable(),
  uid: z.string(),
  user_id: z.string(),
  /** 1 owner, 2 shared with `user_id` by `owner_user_id`. */
  role: z.number().int(),
  owner_user_id: z.string(),
  gmt_create: z.number().int(),
});
export type DevBindRow = z.infer<typeof devBindRowSchema>;

export const devBindListInput = pagingSchema.extend({
  app_id: id().optional(),
  comp_id: companyRef().optional(),
  uid: text(64).optional(),
  user_id: text(64).optional(),
  role: oneOf(BIND_ROLES).optional(),
});
export type DevBindListInput = z.infer<typeof devBindListInput>;

// ───────────── alarm, device and service logs ─────────────

/**
 * Keyset paging of the time-ordered logs (newest first): `after_ts` and `after_id` of the last
 * row of a page answer the rows after it, whatever page it was (`page_no` is then ignored).
 */
const afterFields = {
  after_ts: unixTime().optional(),
  after_id: id().optional(),
};

export const alarmLogRowSchema = z.object({
  id: z.number().int(),
  uid: z.string(),
  pk: z.string(),
  comp_id: z.number().int(),
  comp_name: z.string().nullable(),
  alarm_type: z.number().int(),
  text: z.string(),
  ts: z.number().int(),
});
export type AlarmLogRow = z.infer<typeof alarmLogRowSchema>;

export const alarmLogListInput = pagingSchema.extend({
  uid: text(64).optional(),
  alarm_type: oneOf(ALARM_TYPES).optional(),
  comp_id: companyRef().optional(),
  gmt_start: unixTime().optional(),
  gmt_end: unixTime().optional(),
  ...afterFields,
});
export type AlarmLogListInput = z.infer<typeof alarmLogListInput>;

export const deviceLogRowSchema = z.object({
  id: z.number().int(),
  uid: z.string(),
  comp_id: z.number().int(),
  comp_name: z.string().nullable(),
  level: z.number().int(),
  text: z.string(),
  ts: z.number().int(),
});
export type DeviceLogRow = z.infer<typeof deviceLogRowSchema>;

export const deviceLogListInput = pagingSchema.extend({
  uid: text(64).optional(),
  level: oneOf(LOG_LEVELS).optional(),
  comp_id: companyRef().optional(),
  gmt_start: unixTime().optional(),
  gmt_end: unixTime().optional(),
  ...afterFields,
});
export type DeviceLogListInput = z.infer<typeof deviceLogListInput>;

export const serviceLogRowSchema = z.object({
  id: z.number().int(),
  service_id: z.number().int(),
  level: z.number().int(),
  node: z.string(),
  text: z.string(),
  ts: z.number().int(),
});
export type ServiceLogRow = z.infer<typeof serviceLogRowSchema>;

export const serviceLogListInput = pagingSchema.extend({
  service_id: oneOf(SERVER_TYPE_IDS).optional(),
  level: oneOf(LOG_LEVELS).optional(),
  gmt_start: unixTime().optional(),
  gmt_end: unixTime().optional(),
  ...afterFields,
});
export type ServiceLogListInput = z.infer<typeof serviceLogListInput>;

/** A device-log export: the list's filters over a required range of at most three months (406 `gmt_end` `range:3_months`). */
export const logExportAddInput = z.object({
  gmt_start: unixTime(),
  gmt_end: unixTime(),
  uid: text(64).optional(),
  level: oneOf(LOG_LEVELS).optional(),
  comp_id: companyRef().optional(),
});
export type LogExportAddInput = z.infer<typeof logExportAddInput>;

// ───────────── app-user statistics ─────────────

/** Apps on the dashboard's card. */
export const TOP_APPS = 5;
/** Days the dashboard's active users are averaged over. */
export const TOP_APPS_DAYS = 30;

export const appStatsInput = z
  .object({
    gmt_start: unixTime(),
    gmt_end: unixTime(),
    comp_id: companyRef().optional(),
    app_id: id().optional(),
  })
  .superRefine(checkDayRange);
export type AppStatsInput = z.infer<typeof appStatsInput>;

export const appStatsDaySchema = z.object({
  /** `YYYY-MM-DD` (UTC). */
  day: z.string(),
  new_users: z.number().int(),
  /** Distinct users who registered or signed in that day. */
  active_users: z.number().int(),
});
export const appStatsAppSchema = z.object({
  app_id: z.number().int(),
  app_name: z.string().nullable(),
  comp_id: z.number().int(),
  comp_name: z.string().nullable(),
  /** Registered within the range. */
  new_users: z.number().int(),
  /** Daily active users averaged over the range's days (one decimal). */
  active_users: z.number(),
  /** Registered, all time. */
  users: z.number().int(),
});
export type AppStatsApp = z.infer<typeof appStatsAppSchema>;
export const appStatsCountrySchema = z.object({ country: z.string(), users: z.number().int() });

export const appStatsOutput = z.object({
  gmt_start: z.number().int(),
  gmt_end: z.number().int(),
  series: z.array(appStatsDaySchema),
  totals: z.object({
    new_users: z.number().int(),
    /** Daily active users averaged over the range (one decimal), and the busiest day's. */
    active_avg: z.number(),
    active_peak: z.number().int(),
    /** Registered, all time, in the filter. */
    users: z.number().int(),
  }),
  /** Apps by new users within the range (every app in the filter, most first). */
  apps: z.array(appStatsAppSchema),
  /** Top 10 countries by registered users (all time; users that reported none are not counted). */
  countries: z.array(appStatsCountrySchema),
  /** For `GET /api/v2/umh/admin/user/statistics.xlsx?…&ticket=`. */
  download_ticket: z.string(),
});
export type AppStatsOutput = z.infer<typeof appStatsOutput>;
export const APP_STATS_XLSX_PATH = 'v2/umh/admin/user/statistics.xlsx';

/** The dashboard's top apps: by daily active users averaged over the last TOP_APPS_DAYS days. */
export const appRankInput = z.object({});
export const appRankRowSchema = appStatsAppSchema;
