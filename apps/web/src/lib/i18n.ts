import type { Language } from '@iot/contract';
import type { Locale } from 'antd/es/locale';
import dayjs from 'dayjs';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { AreaLoaders, AreaName } from '../locales/areas';
import type { BaseMessages } from '../locales/en';

/** A page's message areas (`export const areas`): pages import the type from here. */
export type { AreaName };

/**
 * One i18next instance. Each language's messages are a lazy chunk of their own,
 * together with the matching antd and dayjs locales, so the first page only
 * loads the language it shows; the message areas of a group of screens
 * (locales/areas.ts) load with the first page that declares them.
 */
export const i18n = i18next.createInstance();
i18n.use(initReactI18next);

type LanguageModule = { default: BaseMessages; areas: AreaLoaders };
const messageLoaders: Record<Language, () => Promise<LanguageModule>> = {
  en: () => import('../locales/en'),
  'zh-CN': () => import('../locales/zh-CN'),
  'zh-TW': () => import('../locales/zh-TW'),
};

const antdLoaders: Record<Language, () => Promise<{ default: Locale }>> = {
  en: () => import('antd/es/locale/en_US'),
  'zh-CN': () => import('antd/es/locale/zh_CN'),
  'zh-TW': () => import('antd/es/locale/zh_TW'),
};

const dayjsLocale: Record<Language, { name: string; load: () => Promise<unknown> }> = {
  en: { name: 'en', load: async () => undefined },
  'zh-CN': { name: 'zh-cn', load: () => import('dayjs/locale/zh-cn') },
  'zh-TW': { name: 'zh-tw', load: () => import('dayjs/locale/zh-tw') },
};

let antdLocale: Locale | undefined;
const localeListeners = new Set<() => void>();
export const getAntdLocale = () => antdLocale;
export const subscribeAntdLocale = (l: () => void) => {
  localeListeners.add(l);
  return () => localeListeners.delete(l);
};

/** The areas the pages opened so far declared, and those loaded per language. */
const wantedAreas = new Set<AreaName>();
const loadedAreas: Record<Language, Set<AreaName>> = { en: new Set(), 'zh-CN': new Set(), 'zh-TW': new Set() };

const addAreas = async (lang: Language, messages: LanguageModule, names: Iterable<AreaName>) => {
  const missing = [...names].filter((name) => !loadedAreas[lang].has(name));
  const loaded = await Promise.all(missing.map((name) => messages.areas[name]()));
  loaded.forEach((area, i) => {
    i18n.addResourceBundle(lang, 'translation', area, true, true);
    loadedAreas[lang].add(missing[i] as AreaName);
  });
};

/** Loads message areas in the current language (and in any language switched to later). */
export const loadAreas = async (names: readonly AreaName[] | undefined) => {
  if (!names || names.length === 0) return;
  for (const name of names) wantedAreas.add(name);
  const lang = currentLanguage();
  await addAreas(lang, await messageLoaders[lang](), names);
};

const loadLanguage = async (lang: Language) => {
  const [messages, antd] = await Promise.all([messageLoaders[lang](), antdLoaders[lang](), dayjsLocale[lang].load()]);
  if (!i18n.hasResourceBundle(lang, 'translation')) i18n.addResourceBundle(lang, 'translation', messages.default, true, true);
  await addAreas(lang, messages, wantedAreas);
  dayjs.locale(dayjsLocale[lang].name);
  antdLocale = antd.default;
  document.documentElement.lang = lang;
  for (const l of localeListeners) l();
};

export const initI18n = async (lang: Language) => {
  await i18n.init({
    lng: lang,
    fallbackLng: false,
    resources: {},
    interpolation: { escapeValue: false },
    returnNull: false,
    react: { useSuspense: false },
    // A message no loaded area holds shows its key: say so on the console (the browser tests
    // read it; a page whose `areas` misses one fails there). Calls with a default are exempt.
    saveMissing: true,
    missingKeyHandler: (lngs, _ns, key, _fallback, _update, options) => {
      if ((options as { defaultValue?: unknown } | undefined)?.defaultValue === undefined)
        console.warn(`i18n: missing message "${key}" (${lngs.join(', ')})`);
    },
  });
  await loadLanguage(lang);
  await i18n.changeLanguage(lang);
};

export const changeLanguage = async (lang: Language) => {
  if (i18n.language === lang) return;
  await loadLanguage(lang);
  await i18n.changeLanguage(lang);
};

export const currentLanguage = (): Language => (i18n.language as Language) || 'en';
