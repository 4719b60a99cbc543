/**
 * Message templates' parameters and rendering, shared by the server's dispatcher and the console's
 * live preview. A placeholder is `{{name}}` (spaces inside the braces allowed); its value comes from
 * the template's parameter group (SPEC §4: system, total_count, alarm).
 */
export const TEMPLATE_PARAMS = {
  system: ['app_name', 'user_name', 'code', 'time', 'expire_minutes', 'dev_name', 'uid', 'content'],
  total_count: ['app_name', 'user_name', 'count', 'time'],
  alarm: ['app_name', 'user_name', 'dev_name', 'uid', 'alarm_type', 'alarm_name', 'alarm_time', 'time'],
} as const;
export type TemplateParamGroup = keyof typeof TEMPLATE_PARAMS;

/** Example values the preview renders with (and a test send fills in). */
export const SAMPLE_PARAMS: Record<string, string> = {
  app_name: 'Home Cam',
  user_name: 'Alex',
  code: '482913',
  time: '2026-11-23 09:30',
  expire_minutes: '10',
  dev_name: 'Front door',
  uid: 'SIM-000001',
  content: 'Scheduled maintenance tonight 01:00–02:00',
  count: '3',
  alarm_type: '1',
  alarm_name: 'Motion detected',
  alarm_time: '2026-11-23 09:29',
};

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

export interface Rendered {
  text: string;
  /** Placeholders without a value (left as written). */
  missing: string[];
}

/** Fills `{{name}}` from `params`; `encode` transforms each value (HTML email bodies). */
export const renderTemplate = (text: string, params: Record<string, string>, encode: (v: string) => string = (v) => v): Rendered => {
  const missing = new Set<string>();
  const out = text.replace(PLACEHOLDER, (whole, name: string) => {
    const v = params[name];
    if (v === undefined) {
      missing.add(name);
      return whole;
    }
    return encode(v);
  });
  return { text: out, missing: [...missing] };
};

/** The placeholders a text names that its group does not provide. */
export const unknownParams = (text: string, group: TemplateParamGroup): string[] => {
  const known = new Set<string>(TEMPLATE_PARAMS[group]);
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1] as string))].filter((n) => !known.has(n));
};

export const escapeHtml = (v: string) =>
  v.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/**
 * The template of the recipient's language among a code's languages: the exact language, then its
 * base (`zh` for `zh-HK`), then English, then any; `fellBack` says the language differs.
 */
export const pickLanguage = <T extends { lang: string }>(rows: readonly T[], lang: string): { row: T; fellBack: boolean } | null => {
  if (rows.length === 0) return null;
  const base = lang.split('-')[0];
  const row =
    rows.find((r) => r.lang === lang) ??
    rows.find((r) => r.lang.split('-')[0] === base) ??
    rows.find((r) => r.lang === 'en') ??
    (rows[0] as T);
  return { row, fellBack: row.lang !== lang };
};
