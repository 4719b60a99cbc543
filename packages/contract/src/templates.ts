/**
 * Template rendering for push, SMS and email templates (SPEC "Push template", "Template
 * parameter groups"), shared by the server's dispatcher and the console's live preview.
 *
 * Placeholder syntax: `{{name}}`, optionally with spaces inside the braces (`{{ name }}`);
 * a name is letters, digits and `_`. Nothing else is special: a lone `{`, `${x}` or JSON in a
 * body passes through untouched. There is no escape for a literal `{{`; templates have not
 * needed one.
 *
 * A placeholder with no value is left in the text as written (so a preview shows it) and
 * listed in `missing`: the dispatcher should not send such a message. A placeholder outside
 * the parameter groups is listed in `unknown` (still filled when a value was given).
 */

/** The parameters templates may use, by group (SPEC §4 "Template parameter groups"). */
export const TEMPLATE_PARAM_GROUPS = {
  system: ['app_name', 'user_name', 'user_id', 'time', 'code', 'expire_minutes', 'content'],
  total_count: ['count'],
  alarm: ['dev_name', 'uid', 'alarm_type', 'alarm_name', 'alarm_time'],
} as const satisfies Record<string, readonly string[]>;

export type TemplateParamGroup = keyof typeof TEMPLATE_PARAM_GROUPS;
export type TemplateParamName = (typeof TEMPLATE_PARAM_GROUPS)[TemplateParamGroup][number];

const KNOWN_PARAMS: ReadonlySet<string> = new Set(Object.values(TEMPLATE_PARAM_GROUPS).flat());

export const isKnownTemplateParam = (name: string): name is TemplateParamName => KNOWN_PARAMS.has(name);

/** A value: text and numbers as they are; dates formatted in the recipient's language. */
export type TemplateValue = string | number | Date | null | undefined;
export type TemplateParams = Readonly<Record<string, TemplateValue>>;

export interface TemplateText {
  title: string;
  body: string;
}

export interface RenderOptions {
  /** The recipient's language (BCP 47, `zh-CN`); used to format dates. Default `en`. */
  lang?: string;
  /** The channel shows the body as HTML (email): values are HTML-escaped in the body, never in the title. */
  html?: boolean;
  /** Time zone for dates (IANA name). Default UTC. */
  timeZone?: string;
}

export interface Rendered extends TemplateText {
  /** Placeholders that had no value (left as written), in order of first appearance. */
  missing: string[];
  /** Placeholders outside the parameter groups, in order of first appearance. */
  unknown: string[];
}

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);

const formatValue = (value: string | number | Date, lang: string, timeZone: string): string => {
  if (value instanceof Date) {
    return new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'medium', timeZone }).format(value);
  }
  return String(value);
};

/** The placeholder names a text uses, in order of first appearance. */
export const placeholdersOf = (text: string): string[] => [...new Set(Array.from(text.matchAll(PLACEHOLDER), (m) => m[1] ?? ''))];

export const render = (template: TemplateText, params: TemplateParams, options: RenderOptions = {}): Rendered => {
  const lang = options.lang ?? 'en';
  const timeZone = options.timeZone ?? 'UTC';
  const missing = new Set<string>();
  const unknown = new Set<string>();
  const fill = (text: string, escapeValues: boolean) =>
    text.replace(PLACEHOLDER, (whole, name: string) => {
      if (!isKnownTemplateParam(name)) unknown.add(name);
      const value = Object.hasOwn(params, name) ? params[name] : undefined;
      if (value === undefined || value === null) {
        missing.add(name);
        return whole;
      }
      const text = formatValue(value, lang, timeZone);
      return escapeValues ? escapeHtml(text) : text;
    });
  const title = fill(template.title, false);
  const body = fill(template.body, options.html === true);
  return { title, body, missing: [...missing], unknown: [...unknown] };
};

/** `zh_cn` → `zh-CN`, `EN` → `en`, `zh-hant-tw` → `zh-Hant-TW`. */
export const normalizeLang = (lang: string): string => {
  const [language = '', ...rest] = lang.trim().replace(/_/g, '-').split('-');
  const subtags = rest.map((s) =>
    s.length === 2 ? s.toUpperCase() : s.length === 4 ? s.charAt(0).toUpperCase() + s.slice(1).toLowerCase() : s.toLowerCase(),
  );
  return [language.toLowerCase(), ...subtags].join('-');
};

/**
 * Chinese is chosen by script, not by region: a Hong Kong or Macau reader wants the
 * traditional (zh-TW) template, a Singapore reader the simplified (zh-CN) one.
 */
const CHINESE_BY_SCRIPT: Readonly<Record<string, string>> = {
  zh: 'zh-CN',
  'zh-Hans': 'zh-CN',
  'zh-SG': 'zh-CN',
  'zh-Hant': 'zh-TW',
  'zh-HK': 'zh-TW',
  'zh-MO': 'zh-TW',
};

const chineseVariantOf = (lang: string): string | undefined => {
  if (!lang.startsWith('zh')) return undefined;
  const parts = lang.split('-');
  const script = parts.find((p) => p === 'Hans' || p === 'Hant');
  if (script) return CHINESE_BY_SCRIPT[`zh-${script}`];
  if (lang === 'zh-CN' || lang === 'zh-TW') return lang;
  return CHINESE_BY_SCRIPT[lang];
};

export type LangMatch = 'exact' | 'language' | 'english' | 'any';

export interface PickedTemplate<T> {
  template: T;
  /** The language of the chosen template, as the template spells it. */
  lang: string;
  /** How it was chosen: the language itself, the same language in another region, English, or whatever there was. */
  match: LangMatch;
  /** True when the recipient gets a language other than theirs (English or any). */
  fellBack: boolean;
}

/**
 * Chooses the template for a recipient's language: the language itself (`zh_cn` matches
 * `zh-CN`), else the same language in another region (`en-US` → `en`, `zh-HK` → `zh-TW`),
 * else English, else the first template. Undefined when there is none.
 */
export function pickTemplate<T>(templatesByLang: Readonly<Record<string, T>>, lang: string | undefined): PickedTemplate<T> | undefined;
export function pickTemplate<T extends { lang: string }>(templates: readonly T[], lang: string | undefined): PickedTemplate<T> | undefined;
export function pickTemplate<T>(
  templates: Readonly<Record<string, T>> | readonly (T & { lang: string })[],
  lang: string | undefined,
): PickedTemplate<T> | undefined {
  const entries: [string, T][] = Array.isArray(templates)
    ? (templates as readonly (T & { lang: string })[]).map((t) => [t.lang, t])
    : Object.entries(templates as Readonly<Record<string, T>>);
  if (entries.length === 0) return undefined;
  const normalized = entries.map(([l, t]) => ({ lang: l, norm: normalizeLang(l), template: t }));
  const wanted = normalizeLang(lang ?? 'en');
  const primary = (l: string) => l.split('-')[0];
  const found = (match: LangMatch, test: (norm: string) => boolean): PickedTemplate<T> | undefined => {
    const hit = normalized.find((e) => test(e.norm));
    return hit && { template: hit.template, lang: hit.lang, match, fellBack: match === 'english' || match === 'any' };
  };
  const chinese = chineseVariantOf(wanted);
  const first = normalized[0]!;
  return (
    found('exact', (n) => n === wanted) ??
    (chinese ? found('language', (n) => chineseVariantOf(n) === chinese) : undefined) ??
    found('language', (n) => primary(n) === primary(wanted)) ??
    found('english', (n) => primary(n) === 'en') ?? { template: first.template, lang: first.lang, match: 'any', fellBack: true }
  );
}

/** What a template of a group may name: the system parameters and its group's. */
export const paramsOfGroup = (group: TemplateParamGroup): readonly string[] => [
  ...TEMPLATE_PARAM_GROUPS.system,
  ...(group === 'system' ? [] : TEMPLATE_PARAM_GROUPS[group]),
];

/** The placeholders a text names that its group does not provide (the preview warns about them). */
export const unknownParams = (text: string, group: TemplateParamGroup): string[] => {
  const known = new Set(paramsOfGroup(group));
  return placeholdersOf(text).filter((n) => !known.has(n));
};

/** Example values the preview renders with and test sends fill in. */
export const SAMPLE_PARAMS: Readonly<Record<TemplateParamName, string>> = {
  app_name: 'Home Cam',
  user_name: 'Alex',
  user_id: 'alex@example.com',
  code: '482913',
  time: '2026-11-23 09:30',
  expire_minutes: '10',
  content: 'Scheduled maintenance tonight 01:00–02:00',
  count: '3',
  dev_name: 'Front door',
  uid: 'SIM-000001',
  alarm_type: '1',
  alarm_name: 'Motion detected',
  alarm_time: '2026-11-23 09:29',
};

/** A group's sample values (test sends). */
export const sampleParams = (group: string): Record<string, string> => {
  const names = paramsOfGroup((group in TEMPLATE_PARAM_GROUPS ? group : 'system') as TemplateParamGroup);
  return Object.fromEntries(names.map((n) => [n, SAMPLE_PARAMS[n as TemplateParamName]]));
};
