import { type Language, normalizeLanguage } from '@iot/contract';

export const LANG_PARAM = 'lang';

/** Paths that always default to English (SPEC §2). */
const ENGLISH_PATHS = ['/authorize', '/link3_login'];

export const isEnglishPath = (pathname: string) => ENGLISH_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`));

export const defaultLanguage = (pathname: string): Language => {
  if (isEnglishPath(pathname)) return 'en';
  const nav = typeof navigator === 'undefined' ? '' : navigator.language || '';
  return nav.toLowerCase().includes('zh') ? 'zh-CN' : 'en';
};

/** The language a URL asks for (the usual spellings, read as the server reads them), or the default for its path. */
export const languageOf = (pathname: string, search: string): Language =>
  normalizeLanguage(new URLSearchParams(search).get(LANG_PARAM)) ?? defaultLanguage(pathname);

/** `search` with `lang` set (other parameters kept, in order). */
export const withLang = (search: string, lang: Language): string => {
  const params = new URLSearchParams(search);
  params.set(LANG_PARAM, lang);
  return `?${params.toString()}`;
};

/** At start-up: make sure the address carries a valid `lang` (history replaced, no reload). */
export const ensureLangInAddress = (): Language => {
  const { pathname, search, hash } = window.location;
  const lang = languageOf(pathname, search);
  if (new URLSearchParams(search).get(LANG_PARAM) !== lang) {
    window.history.replaceState(window.history.state, '', `${pathname}${withLang(search, lang)}${hash}`);
  }
  return lang;
};
