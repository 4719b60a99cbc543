import { LANGUAGES, type Language } from '@iot/contract';
import { Button, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { withLang } from '../lib/lang';

/**
 * Language buttons of the public pages: like LanguageSelect, they only rewrite
 * `?lang=`. Buttons rather than a Select keep the login page's JS small.
 */
export const LanguageButtons = () => {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  return (
    <fieldset aria-label={t('app.language')} style={{ display: 'flex', flexWrap: 'wrap', border: 0, padding: 0, margin: 0, minWidth: 0 }}>
      {LANGUAGES.map((lang: Language) => (
        <Button
          key={lang}
          type={i18n.language === lang ? 'link' : 'text'}
          size="small"
          aria-pressed={i18n.language === lang}
          lang={lang}
          onClick={() =>
            navigate({ pathname: location.pathname, search: withLang(location.search, lang), hash: location.hash }, { replace: true })
          }
        >
          {t(`app.languages.${lang}`)}
        </Button>
      ))}
    </fieldset>
  );
};

/**
 * Frame of the pages outside the console (login, register, public tools).
 * Plain elements styled with the theme tokens: Card and Typography would
 * add ~45 kB gzip to the login page for a border and a heading.
 */
export const PublicFrame = ({ title, children, width = 420 }: { title: string; children: ReactNode; width?: number }) => {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <div
      style={{
        minHeight: '100vh',
        padding: '24px 12px',
        boxSizing: 'border-box',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
      }}
    >
      <header
        style={{
          width: '100%',
          maxWidth: width,
          display: 'flex',
          justifyContent: 'space-between',
          alignItems: 'center',
          gap: 8,
          flexWrap: 'wrap',
        }}
      >
        <strong style={{ fontSize: 16, color: token.colorText }}>{t('app.title')}</strong>
        <LanguageButtons />
      </header>
      <main
        style={{
          width: '100%',
          maxWidth: width,
          marginTop: '6vh',
          background: token.colorBgContainer,
          borderRadius: token.borderRadiusLG,
          boxShadow: token.boxShadowTertiary,
          padding: 24,
          boxSizing: 'border-box',
          color: token.colorText,
        }}
      >
        <h1 style={{ fontSize: 24, fontWeight: 600, margin: '0 0 12px' }}>{title}</h1>
        {children}
      </main>
    </div>
  );
};

/** Secondary text paragraph in public pages (instead of Typography). */
export const Hint = ({ children, center }: { children: ReactNode; center?: boolean }) => {
  const { token } = theme.useToken();
  return <p style={{ color: token.colorTextSecondary, margin: '0 0 16px', textAlign: center ? 'center' : undefined }}>{children}</p>;
};
