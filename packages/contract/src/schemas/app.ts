import { z } from 'zod';
import { CLIENT_TYPES } from '../constants.js';
import { id, oneOf, pagingSchema, requiredText, safeString, text, toText, unixTime } from './common.js';
import { companyRef } from './company-ref.js';
import { crudSchemas } from './crud.js';
import { imgKey } from './product.js';
import { langCode } from './push.js';

/**
 * Apps (applist/app, issue 8): the app base, its detail per client type, its versions with
 * per-language details, its store urls, its image/url resources and its config. Every row
 * belongs to the app's company. docs/api.md "Apps".
 */

/** App `type`: 1 own-brand app, 2 OEM (white-label) app, 3 SDK integration. */
export const APP_TYPES = [1, 2, 3] as const;
/** The phones an app is published for; each has its own package name and app key. */
export const APP_PLATFORMS = ['ios', 'android'] as const;
export type AppPlatform = (typeof APP_PLATFORMS)[number];
/** SPEC §4 publish state: 1 release, 2 delist. Only released versions are offered. */
export const AppVerState = { RELEASE: 1, DELIST: 2 } as const;
export const APP_VER_STATES = [1, 2] as const;
/** State of a client detail or a resource: 1 enabled, 2 disabled. */
export const APP_ENABLED_STATES = [1, 2] as const;
/** `zone_type` of a version detail: 0 everywhere, 1 mainland China, 2 overseas. */
export const APP_ZONE_TYPES = [0, 1, 2] as const;
/** `type` of a resource url: 1 image, 2 web page. */
export const APP_RESOURCE_URL_TYPES = [1, 2] as const;
/** Languages a version or a resource describes itself in, at most. */
export const APP_LANGS_MAX = 20;
/** Largest package size in bytes (1 TiB), within a JSON number. */
export const APP_PACKAGE_SIZE_MAX = 1_099_511_627_776;

/**
 * An app key: 32 characters of base64url from 24 random bytes (192 bits), made by the server.
 * Stored only as its SHA-256; rows show the mask and its last 4 characters.
 */
export const APP_KEY_PATTERN = /^[A-Za-z0-9_-]{32}$/;
/** What a row shows of a stored key: the mask and the key's last characters. */
export const maskedAppKey = (hint: string) => (hint ? `******${hint}` : '');

/** An iOS bundle id or Android package name (`com.example.cam`), or '' (none). */
export const packageName = () =>
  z.preprocess(
    toText,
    safeString()
      .trim()
      .max(155)
      .regex(/^([A-Za-z][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)+)?$/, 'format:package_name'),
  );

/** An absolute http(s) address. */
const HTTP_URL = /^https?:\/\/[^\s/?#]+[^\s]*$/i;
export const httpUrl = (max = 1024) =>
  z.preprocess((v) => (typeof v === 'string' ? v.trim() : v), safeString().min(1).max(max).regex(HTTP_URL, 'format:url'));

// ---- version numbers -------------------------------------------------------------------

/**
 * SPEC §5 "version numbers must be valid numbers": 1–4 dot-separated parts of 1–9 digits
 * (`1.10.0`). Compared part by part as numbers (`1.10.0` > `1.9.3`), missing parts as 0
 * (`1.2` = `1.2.0`, `1.02` = `1.2`).
 */
export const APP_VERSION_PATTERN = /^\d{1,9}(\.\d{1,9}){0,3}$/;
export const appVersion = () =>
  z.preprocess(
    (v) => (typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : v),
    safeString().max(39).regex(APP_VERSION_PATTERN, 'format:version'),
  );

/** A version's four numeric parts (missing ones 0): what versions are compared and kept unique by. */
export const appVersionParts = (ver: string): [number, number, number, number] => {
  const parts = ver.split('.').map((p) => Number(p));
  return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0, parts[3] ?? 0];
};

/** Negative, 0 or positive as `a` is older than, the same as or newer than `b` (numerically). */
export const compareAppVersions = (a: string, b: string): number => {
  const pa = appVersionParts(a);
  const pb = appVersionParts(b);
  for (let i = 0; i < 4; i++) if (pa[i] !== pb[i]) return (pa[i] as number) - (pb[i] as number);
  return 0;
};

// ---- app base --------------------------------------------------------------------------

const appFields = {
  name: requiredText(64),
  type: oneOf(APP_TYPES).default(1),
  /** Unix seconds after which the app's service ends; 0 never. */
  gmt_expire: unixTime().default(0),
  package_name_ios: packageName().default(''),
  package_name_android: packageName().default(''),
};

/**
 * Apps (v2/user/app/*). The keys are not fields: the server makes both on add and answers
 * them in full in that answer only (and a new one in the rotate answer); rows show them masked.
 */
export const appSchemas = crudSchemas({
  owned: true,
  fields: appFields,
  filters: { name: text(64).optional(), type: oneOf(APP_TYPES).optional() },
  rowExtra: { app_key_ios: z.string(), app_key_android: z.string() },
});
export type AppRow = z.output<typeof appSchemas.row>;

/** `v2/user/app/key/rotate`: a new key for one platform; the old one stops working at once. */
export const appKeyRotateInput = z.object({ id: id(), platform: z.enum(APP_PLATFORMS) });

/** `user/appid/get`: which app a key or package name belongs to (one of them; the key wins). */
export const appIdGetInput = z
  .object({
    app_key: z.preprocess(toText, safeString().trim().max(64)).optional(),
    package_name: packageName().optional(),
  })
  .refine((v) => !!v.app_key || !!v.package_name, { message: 'required', path: ['app_key'] });
export const appIdGetOutput = z.object({
  id: z.number().int(),
  name: z.string(),
  comp_id: z.number().int(),
  comp_name: z.string(),
  /** The platform whose key or package name matched. */
  platform: z.enum(APP_PLATFORMS),
});

/** What the rows of an app's children add: the app's company (copied from the app) and name. */
const childRow = { comp_id: z.number().int(), comp_name: z.string(), app_name: z.string() };

// ---- detail per client type --------------------------------------------------------------

/** App details (user/app/detail/*): one per client type (SPEC §9) of an app. */
export const appDetailSchemas = crudSchemas({
  owned: false,
  fields: {
    app_id: id(),
    client_type: z.enum(CLIENT_TYPES),
    /** The client's package: bundle id, package name, installer or web address. */
    app_packet: text(255).default(''),
    /** The client's id on its store or platform (App Store id, Microsoft Store id …). */
    rela_id: text(64).default(''),
    state: oneOf(APP_ENABLED_STATES).default(1),
  },
  filters: { app_id: id().optional(), client_type: z.enum(CLIENT_TYPES).optional(), state: oneOf(APP_ENABLED_STATES).optional() },
  rowExtra: childRow,
});
export type AppDetailRow = z.output<typeof appDetailSchemas.row>;

// ---- versions ------------------------------------------------------------------------------

/** A numeric string is its number (SPEC §5 coercion). */
const toCount = (v: unknown) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v);

/** `size` in bytes; SPEC §5: an empty size is 0 (missing, null or ''). */
const packageSize = () =>
  z.preprocess(
    (v) => (v === undefined || v === null || (typeof v === 'string' && v.trim() === '') ? 0 : toCount(v)),
    z.number().int().min(0).max(APP_PACKAGE_SIZE_MAX),
  );

export const appVerDetailSchema = z.object({
  lang: langCode(),
  /** The Android package (APK) of this version in this language and zone. */
  url: httpUrl(),
  title: text(128).default(''),
  /** Release notes. */
  content: text(4000).default(''),
  /** A zone code ('' all zones): details are unique per language and zone. */
  zone: text(32).default(''),
  size: packageSize(),
  zone_type: oneOf(APP_ZONE_TYPES).default(0),
});
export type AppVerDetail = z.output<typeof appVerDetailSchema>;

/** One detail per language and zone (case-insensitive): a second one answers `{details.<i>.lang: "format:duplicate"}`. */
const appVerDetails = () =>
  z
    .array(appVerDetailSchema)
    .min(1)
    .max(APP_LANGS_MAX)
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      list.forEach((d, i) => {
        const key = `${d.lang.toLowerCase()}|${d.zone.toLowerCase()}`;
        if (seen.has(key)) ctx.addIssue({ code: 'custom', message: 'format:duplicate', path: [i, 'lang'] });
        seen.add(key);
      });
    });

const appVerDetailRow = z.object({
  lang: z.string(),
  url: z.string(),
  title: z.string(),
  content: z.string(),
  zone: z.string(),
  size: z.number().int(),
  zone_type: z.number().int(),
  /** The version the detail belongs to. */
  ver_id: z.number().int(),
});

/** App versions (ota/app/ver/{query,add,modify,delete}); unique per app by their numeric parts. */
export const appVerSchemas = crudSchemas({
  owned: false,
  fields: {
    app_id: id(),
    ver: appVersion(),
    name: text(64).default(''),
    /** 1: the app must update before it goes on. */
    force: oneOf([0, 1]).default(0),
    state: oneOf(APP_VER_STATES).default(AppVerState.RELEASE),
    details: appVerDetails(),
  },
  filters: { app_id: id().optional(), state: oneOf(APP_VER_STATES).optional(), ver: text(39).optional() },
  rowExtra: { ...childRow, details: z.array(appVerDetailRow) },
});
export type AppVersionRow = z.output<typeof appVerSchemas.row>;

// ---- store urls ----------------------------------------------------------------------------

/**
 * An app's store addresses (ota/app/url/{query,add,modify,delete}): per platform and language,
 * e.g. its App Store page for iPhones; unique per app, platform and language.
 */
export const appUrlSchemas = crudSchemas({
  owned: false,
  fields: {
    app_id: id(),
    platform: z.enum(APP_PLATFORMS),
    lang: langCode().default('en'),
    url: httpUrl(),
  },
  filters: { app_id: id().optional(), platform: z.enum(APP_PLATFORMS).optional() },
  rowExtra: childRow,
});
export type AppUrlRow = z.output<typeof appUrlSchemas.row>;

// ---- image/url resources ---------------------------------------------------------------------

/** An absolute http(s) address or an uploaded image (`/api/v2/oss/file/…`). */
const resourceUrl = () =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    safeString()
      .min(1)
      .max(1024)
      .regex(/^(https?:\/\/[^\s/?#]+[^\s]*|\/api\/v2\/oss\/file\/[^\s]+)$/i, 'format:url'),
  );

export const appResourceUrlSchema = z.object({
  lang: langCode(),
  url: resourceUrl(),
  /** What the app adds to the address or passes along (size, query …). */
  param: text(1024).default(''),
  type: oneOf(APP_RESOURCE_URL_TYPES).default(1),
});

/** One url per language and type: a second one answers `{urls.<i>.lang: "format:duplicate"}`. */
const resourceUrls = () =>
  z
    .array(appResourceUrlSchema)
    .max(APP_LANGS_MAX)
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      list.forEach((u, i) => {
        const key = `${u.lang.toLowerCase()}|${u.type}`;
        if (seen.has(key)) ctx.addIssue({ code: 'custom', message: 'format:duplicate', path: [i, 'lang'] });
        seen.add(key);
      });
    });

/** Resource keys: what the app asks for (`splash`, `privacy_policy` …). */
const resourceKey = () =>
  z.preprocess(
    toText,
    safeString()
      .trim()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9_.-]+$/, 'format:key'),
  );

/** Image/url resources per language (v2/user/app/resource/*); `master_id` is the app; unique per app and key. */
export const appResourceSchemas = crudSchemas({
  owned: false,
  fields: {
    master_id: id(),
    key: resourceKey(),
    state: oneOf(APP_ENABLED_STATES).default(1),
    urls: resourceUrls().default([]),
  },
  filters: { master_id: id().optional(), key: text(64).optional(), state: oneOf(APP_ENABLED_STATES).optional() },
  rowExtra: childRow,
});
export type AppResourceRow = z.output<typeof appResourceSchemas.row>;

// ---- app config --------------------------------------------------------------------------------

/** Largest device-key limit of an app's user. */
export const DK_LIMIT_MAX = 1_000_000;

/** Device-key limits of an app's users; 0 means unlimited. */
export const dkLimitSchema = z.object({
  /** UID prefix of the devices the app may bind ('' any): an OEM app binds only its brand's devices. */
  oem_prefix: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toUpperCase() : toText(v)),
    safeString().regex(/^[A-Z0-9-]{0,16}$/, 'format:uid_prefix'),
  ),
  /** Devices one user may own (bind). */
  pri_dk: z.preprocess(toCount, z.number().int().min(0).max(DK_LIMIT_MAX)),
  /** Devices one user may have shared with them. */
  pub_dk: z.preprocess(toCount, z.number().int().min(0).max(DK_LIMIT_MAX)),
});

export const appCfgRow = z.object({
  app_id: z.number().int(),
  name: z.string(),
  comp_id: z.number().int(),
  comp_name: z.string(),
  img: z.string(),
  img_url: z.string(),
  /** `ver_num`: the limits' revision, counted up by the server on every change (apps cache them by it). */
  dk_limit: z.object({ oem_prefix: z.string(), pri_dk: z.number().int(), pub_dk: z.number().int(), ver_num: z.number().int() }),
  gmt_update: z.number().int(),
});
export type AppCfgRow = z.output<typeof appCfgRow>;

export const appCfgListInput = pagingSchema.extend({
  app_id: id().optional(),
  comp_id: companyRef().optional(),
  name: text(64).optional(),
});

/** `v2/user/admin/appcfg/set`: absent fields (and absent limits) are kept. */
export const appCfgSetInput = z.object({
  app_id: id(),
  img: imgKey().optional(),
  dk_limit: dkLimitSchema.partial().optional(),
});

// ---- the public download link ------------------------------------------------------------------

/** `GET /api/v2/app/dl/{app_id}`: the public link a QR code holds (docs/api.md "Download link"). */
export const APP_DOWNLOAD_PATH = 'v2/app/dl/{app_id}';
export const appDownloadInput = z.object({
  app_id: id(),
  /** A released version (default: the newest released). */
  ver: appVersion().optional(),
  /** Prefer details of this zone. */
  zone: text(32).optional(),
});
/** The link of an app, optionally fixed to a version and a language (the console's QR codes). */
export const appDownloadLink = (appId: number, opts: { ver?: string; lang?: string } = {}) => {
  const q = Object.entries(opts)
    .filter(([, v]) => !!v)
    .map(([k, v]) => `${k}=${encodeURIComponent(v as string)}`)
    .join('&');
  return `/api/${APP_DOWNLOAD_PATH.replace('{app_id}', String(appId))}${q ? `?${q}` : ''}`;
};

/** How the language of a download was chosen: the phone's, the link's, English, or the first there is. */
export type DownloadLangSource = 'phone' | 'link' | 'english' | 'first';

const primary = (tag: string) => tag.toLowerCase().split('-')[0] ?? '';
/** Chinese script by region or script subtag: zh-TW/HK/MO and zh-Hant are traditional. */
const chineseScript = (tag: string) => (/^zh-(tw|hk|mo|hant)/i.test(tag) ? 'hant' : 'hans');

/** The best of `available` for one asked-for tag: exact, then same Chinese script, then same primary language. */
const matchTag = (available: string[], tag: string): string | undefined => {
  const lower = tag.toLowerCase();
  const exact = available.find((a) => a.toLowerCase() === lower);
  if (exact) return exact;
  const p = primary(tag);
  if (p === 'zh') {
    const script = chineseScript(tag);
    const same = available.find((a) => primary(a) === 'zh' && chineseScript(a) === script);
    if (same) return same;
  }
  return available.find((a) => primary(a) === p);
};

/** The tags of an Accept-Language header, highest weight first. */
export const acceptedLanguages = (header: string | undefined): string[] =>
  (header ?? '')
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.split(';').map((s) => s.trim());
      const q = params.find((p) => p.startsWith('q='));
      return { tag, q: q ? Number(q.slice(2)) || 0 : 1, i };
    })
    .filter((r) => r.tag !== '' && r.tag !== '*' && r.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i)
    .map((r) => r.tag);

/**
 * The language a download is given in, from the languages it exists in: the phone's
 * (Accept-Language, by weight), else the link's `lang`, else English, else the first.
 */
export const pickDownloadLanguage = (
  available: string[],
  acceptLanguage: string | undefined,
  linkLang: string | undefined,
): { lang: string; source: DownloadLangSource } | null => {
  if (available.length === 0) return null;
  for (const tag of acceptedLanguages(acceptLanguage)) {
    const found = matchTag(available, tag);
    if (found) return { lang: found, source: 'phone' };
  }
  const fromLink = linkLang ? matchTag(available, linkLang) : undefined;
  if (fromLink) return { lang: fromLink, source: 'link' };
  const english = matchTag(available, 'en');
  if (english) return { lang: english, source: 'english' };
  return { lang: available[0] as string, source: 'first' };
};

/** Which phone a user agent is: iPhone, iPad and iPod are `ios`; Android is `android`; else a desktop. */
export const phonePlatformOf = (userAgent: string | undefined): AppPlatform | null => {
  const ua = userAgent ?? '';
  if (/\b(iPhone|iPad|iPod)\b/.test(ua)) return 'ios';
  if (/\bAndroid\b/i.test(ua)) return 'android';
  return null;
};
