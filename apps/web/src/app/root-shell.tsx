import { normalizeLanguage } from '@iot/contract';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, ScrollRestoration, useLocation, useMatches, useNavigate } from 'react-router';
import { changeLanguage, currentLanguage } from '../lib/i18n';
import { isEnglishPath, LANG_PARAM, withLang } from '../lib/lang';
import { isRouteHandle } from './route-handle';

/** Keeps `?lang=` in the address and i18n in step with it. */
const useLanguageFromAddress = () => {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const param = new URLSearchParams(location.search).get(LANG_PARAM);
    const wanted = normalizeLanguage(param);
    if (!wanted || param !== wanted) {
      // A link without lang keeps the current language; /authorize and /link3_login default to en.
      const lang = wanted ?? (isEnglishPath(location.pathname) ? 'en' : currentLanguage());
      navigate({ pathname: location.pathname, search: withLang(location.search, lang), hash: location.hash }, { replace: true });
      return;
    }
    void changeLanguage(wanted);
  }, [location, navigate]);
};

/** Document title: the route's title label + the platform title. */
const useDocumentTitle = () => {
  const { t } = useTranslation();
  const matches = useMatches();
  const title = [...matches].reverse().find((m) => isRouteHandle(m.handle) && m.handle.title)?.handle;
  const key = isRouteHandle(title) ? title.title : undefined;
  const app = t('app.title');
  const text = key ? `${t(key)} - ${app}` : app;
  useEffect(() => {
    document.title = text;
  }, [text]);
};

/** Root route element: language, title, scrolling (top, or the #hash). */
export const RootShell = () => {
  useLanguageFromAddress();
  useDocumentTitle();
  return (
    <>
      <Outlet />
      <ScrollRestoration />
    </>
  );
};
