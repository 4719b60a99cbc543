import type { Language } from '@iot/contract';
import type { Locale } from 'antd/es/locale';
import dayjs from 'dayjs';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Messages } from '../locales/en';

/**
 * One i18next instance. Each language's messages are a lazy chunk of their own,
 * together with the matching antd and dayjs locales, so the first page only
 * loads the language it shows.
 */
export const i18n = i18next.createInstance();
i18n.use(initReactI18next);

const messageLoaders: Record<Language, () => Promise<{ default: Messages }>> = {
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

const loadLanguage = async (lang: Language) => {
  const [messages, antd] = await Promise.all([messageLoaders[lang](), antdLoaders[lang](), dayjsLocale[lang].load()]);
  if (!i18n.hasResourceBundle(lang, 'translation')) i18n.addResourceBundle(lang, 'translation', messages.default, true, true);
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
