import { currentLanguage } from './i18n';
import { LANG_PARAM } from './lang';

/**
 * A GET download as a link the browser follows (a link sends no headers: a `ticket` from the
 * answer that offered it stands in for the token): `/api/<path>?<query>&lang=<console language>`,
 * so a file the server writes for it comes in the language the console shows.
 */
export const downloadHref = (path: string, query: Record<string, string | number | undefined> = {}): string => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(name, String(value));
  params.set(LANG_PARAM, currentLanguage());
  return `/api/${path.replace(/^\/+/, '')}?${params.toString()}`;
};
