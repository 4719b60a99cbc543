import { z } from 'zod';
import { id, int, oneOf, pagingSchema, requiredText, safeString, secret, text, timeRangeSchema, toText } from './common.js';
import { companyRef } from './company-ref.js';
import { crudSchemas } from './crud.js';

/** The languages the console offers for messages; the API takes any well-formed code (`pt-BR`). */
export const MESSAGE_LANGUAGES = ['en', 'zh-CN', 'zh-TW', 'ja', 'ko', 'de', 'fr', 'es', 'pt', 'ru', 'it', 'th', 'vi', 'id', 'ar'] as const;

/** A message's language: `en`, `zh-CN`, `zh-TW`, `ja`, `pt-BR` … (the recipient's). */
export const langCode = () =>
  z
    .preprocess(
      toText,
      safeString()
        .trim()
        .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,4})?$/, { message: 'format:lang' }),
    )
    .meta({ enum: [...MESSAGE_LANGUAGES] });

/** SPEC §4: notice template types 1–10, message template types 1–12, alarm types 1–7. */
export const NOTICE_TEMPLATE_TYPES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;
export const MSG_TEMPLATE_TYPES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] as const;
/** Message template type 7 is the alarm: what the dispatcher sends for a device alarm. */
export const MSG_TYPE_ALARM = 7;

/** Delivery channels (push platform `type`, template `type`): 1 SMS, 2 email, 3 app push, 4 webhook. */
export const PushChannel = { SMS: 1, EMAIL: 2, PUSH: 3, WEBHOOK: 4 } as const;
export const PUSH_CHANNELS = [1, 2, 3, 4] as const;
/** The provider a push platform speaks to (`platform`). */
export const PUSH_PROVIDERS = [
  'smtp',
  'aliyun_sms',
  'tencent_sms',
  'apns',
  'fcm',
  'xiaomi',
  'oppo',
  'huawei',
  'vivo',
  'honor',
  'webhook',
] as const;
export type PushProvider = (typeof PUSH_PROVIDERS)[number];
/** The app push providers: a phone's push token is issued by one of them (`user_login.push_provider`). */
export const APP_PUSH_PROVIDERS = ['apns', 'fcm', 'xiaomi', 'oppo', 'huawei', 'vivo', 'honor'] as const satisfies readonly PushProvider[];
export type AppPushProvider = (typeof APP_PUSH_PROVIDERS)[number];
/** Which providers send over each channel (`type`): a platform of another pair is refused (406 `{platform: "channel"}`). */
export const PROVIDERS_OF_CHANNEL: Record<(typeof PUSH_CHANNELS)[number], readonly PushProvider[]> = {
  1: ['aliyun_sms', 'tencent_sms'],
  2: ['smtp'],
  3: APP_PUSH_PROVIDERS,
  4: ['webhook'],
};

const lang = langCode().default('en');
const enabled = oneOf([1, 2]).default(1);

/** Notice templates (v2/user/notice/user/template/*): what users are told about their subscriptions. */
export const noticeTemplate = crudSchemas({
  owned: true,
  fields: {
    lang,
    name: requiredText(64),
    title: requiredText(128),
    body: requiredText(4000),
    type: oneOf(NOTICE_TEMPLATE_TYPES),
  },
  filters: { lang: langCode().optional(), type: oneOf(NOTICE_TEMPLATE_TYPES).optional(), name: text(64).optional() },
});

/** Message templates (v2/umh/admin/msg/template/*): codes, alarms, notices sent to app users. */
export const msgTemplate = crudSchemas({
  owned: true,
  fields: {
    lang,
    name: requiredText(64),
    title: requiredText(128),
    body: requiredText(4000),
    type: oneOf(MSG_TEMPLATE_TYPES),
  },
  filters: { lang: langCode().optional(), type: oneOf(MSG_TEMPLATE_TYPES).optional(), name: text(64).optional() },
});

/** Event configs (v2/umh/admin/msg/eventcfg/*): which message types an app sends, on which channels. */
export const eventCfg = crudSchemas({
  owned: true,
  fields: {
    name: requiredText(64),
    type: oneOf(MSG_TEMPLATE_TYPES),
    app_id: int().default(0),
    channels: z.array(oneOf(PUSH_CHANNELS)).max(4).default([PushChannel.PUSH]),
    state: enabled,
    remark: text(255).default(''),
  },
  filters: { type: oneOf(MSG_TEMPLATE_TYPES).optional(), app_id: int().optional(), state: oneOf([1, 2]).optional() },
});

/**
 * Push platforms (v2/push/platform/*): one provider account. Which fields a provider reads is in
 * docs/api.md; `endpoint` (an extension) points a provider at another base URL.
 */
export const pushPlatform = crudSchemas({
  owned: true,
  fields: {
    name: requiredText(64),
    type: oneOf(PUSH_CHANNELS),
    platform: z.enum(PUSH_PROVIDERS),
    zone: text(32).default(''),
    area_type: oneOf([0, 1, 2]).default(0),
    endpoint: text(255).default(''),
    app_id: text(255).default(''),
    secret_id: text(255).default(''),
    secret_key: secret().default(''),
    key_id: text(255).default(''),
    key_secret: secret(8192).default(''),
    sign_name: text(64).default(''),
    smtp_addr: text(255).default(''),
    smtp_port: int().default(0),
    ssl: oneOf([0, 1]).default(0),
    user_id: text(255).default(''),
    password: secret().default(''),
    state: enabled,
  },
  filters: { name: text(64).optional(), type: oneOf(PUSH_CHANNELS).optional(), state: oneOf([1, 2]).optional() },
});

/** Message platforms (v2/push/admin/msg/platform/*): an app's vendor push channels (Xiaomi, OPPO …). */
export const msgPlatform = crudSchemas({
  owned: true,
  fields: {
    app_id: id(),
    type: oneOf([1, 2, 3, 4, 5]),
    access_id: text(255).default(''),
    access_key: secret().default(''),
    secret_key: secret().default(''),
    xm_ch_id: text(64).default(''),
    oppo_ch_id: text(64).default(''),
    open_type: oneOf([0, 1, 2, 3]).default(0),
    open_param: text(1024).default(''),
    /** The vendor's key file (a service-account JSON, a PEM key): its text, sealed like the keys (at most 16 KiB). */
    secret_file: secret(16_384).default(''),
  },
  filters: { app_id: id().optional(), type: oneOf([1, 2, 3, 4, 5]).optional() },
});

/** Push templates (v2/push/template/*): per language and code; `param` names the parameter group. */
export const pushTemplate = crudSchemas({
  owned: true,
  fields: {
    name: requiredText(64),
    code: requiredText(64),
    lang,
    param: z.enum(['system', 'total_count', 'alarm']).default('system'),
    title: text(255).default(''),
    body: requiredText(4000),
    type: oneOf(PUSH_CHANNELS),
    notify_type: oneOf([0, 1, 2]).default(0),
    mode: oneOf([0, 1]).default(0),
  },
  filters: {
    name: text(64).optional(),
    code: text(64).optional(),
    lang: langCode().optional(),
    type: oneOf(PUSH_CHANNELS).optional(),
  },
});

/** Push links (v2/push/link/*): which template and platform serve an event (`type`) of an app or product. */
export const pushLink = crudSchemas({
  owned: true,
  fields: {
    link_id: id(),
    link_type: oneOf([1, 2]),
    type: oneOf(MSG_TEMPLATE_TYPES),
    platform_id: id(),
    template_id: id(),
  },
  filters: { link_id: id().optional(), link_type: oneOf([1, 2]).optional(), type: oneOf(MSG_TEMPLATE_TYPES).optional() },
  rowExtra: { platform_name: z.string(), template_name: z.string() },
});

/** Push record states. */
export const PushState = { PENDING: 1, SENT: 2, FAILED: 3, RETRYING: 4 } as const;
export const PUSH_STATES = [1, 2, 3, 4] as const;

export const pushRecordRow = z.object({
  id: z.number().int(),
  comp_id: z.number().int(),
  comp_name: z.string(),
  channel: z.number().int(),
  platform_id: z.number().int(),
  template_id: z.number().int(),
  event_type: z.number().int(),
  recipient: z.string(),
  lang: z.string(),
  lang_fallback: z.boolean(),
  title: z.string(),
  state: z.number().int(),
  attempts: z.number().int(),
  error: z.string(),
  provider_id: z.string(),
  source: z.string(),
  gmt_create: z.number().int(),
  gmt_send: z.number().int(),
});
export type PushRecordRow = z.infer<typeof pushRecordRow>;

export const pushRecordListInput = pagingSchema
  .extend({
    comp_id: companyRef().optional(),
    state: oneOf(PUSH_STATES).optional(),
    channel: oneOf(PUSH_CHANNELS).optional(),
    platform_id: id().optional(),
    template_id: id().optional(),
    recipient: text(255).optional(),
    source: text(64).optional(),
  })
  .extend(timeRangeSchema.shape);

/** A test send through one platform: a fixed message, or a template rendered with sample values. */
export const pushPlatformTestInput = z.object({
  id: id(),
  recipient: requiredText(255),
  template_id: id().optional(),
  lang: langCode().optional(),
});
/** A template sent with sample values through a platform of its channel. */
export const pushTemplateTestInput = z.object({
  id: id(),
  platform_id: id(),
  recipient: requiredText(255),
});

/** The pushes alarms caused (`v2/umh/admin/alarmpush/list`): push records of alarms, by alarm. */
export const alarmPushListInput = pushRecordListInput.extend({ alarm_id: id().optional() });
