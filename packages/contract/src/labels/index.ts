import { LANGUAGES, type Language } from '../constants.js';
import { type ExportLabels, en } from './en.js';
import { zhCN } from './zh-CN.js';
import { zhTW } from './zh-TW.js';

export type { ExportLabels } from './en.js';
export { IMPORT_REASONS } from './import-reasons.js';

/**
 * The one catalogue of the server's file labels (xlsx headers, sheet names, states, import
 * reasons) in the three console languages.
 */
export const EXPORT_LABELS: Record<Language, ExportLabels> = { en, 'zh-CN': zhCN, 'zh-TW': zhTW };

export const exportLabelsOf = (lang: Language): ExportLabels => EXPORT_LABELS[lang];

export const isLanguage = (v: unknown): v is Language => typeof v === 'string' && (LANGUAGES as readonly string[]).includes(v);

/** A language tag in one of the usual spellings (zh, zh_CN, zh-cn, zh-Hant, en-US…), or null. */
export const normalizeLanguage = (v: unknown): Language | null => {
  if (typeof v !== 'string' || v === '') return null;
  if (isLanguage(v)) return v;
  const s = v.trim().toLowerCase().replace('_', '-');
  if (s === 'zh-tw' || s === 'zh-hk' || s === 'zh-mo' || s.startsWith('zh-hant')) return 'zh-TW';
  if (s.startsWith('zh')) return 'zh-CN';
  if (s.startsWith('en')) return 'en';
  return null;
};

/**
 * The language a request asks for: an explicit `lang` (query or payload) first, then the
 * `Accept-Language` header (highest weight first), else English.
 */
export const requestLanguage = (lang: unknown, acceptLanguage?: string | string[]): Language => {
  const explicit = normalizeLanguage(lang);
  if (explicit) return explicit;
  const header = Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : (acceptLanguage ?? '');
  const ranked = header
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.split(';').map((s) => s.trim());
      const q = params.find((p) => p.startsWith('q='));
      return { tag, q: q ? Number(q.slice(2)) || 0 : 1, i };
    })
    .filter((r) => r.tag !== '' && r.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const r of ranked) {
    const found = normalizeLanguage(r.tag);
    if (found) return found;
  }
  return 'en';
};
