import { TranslationOutlined } from '@ant-design/icons';
import { LANGUAGES, type Language } from '@iot/contract';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { withLang } from '../lib/lang';

/**
 * Language switch: only rewrites `?lang=` of the current address (history
 * replaced), the root shell then loads and applies the language.
 */
export const LanguageSelect = ({ compact }: { compact?: boolean }) => {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  return (
    <Select<Language>
      aria-label={t('app.language')}
      value={i18n.language as Language}
      variant="borderless"
      prefix={compact ? undefined : <TranslationOutlined aria-hidden />}
      popupMatchSelectWidth={false}
      onChange={(lang) =>
        navigate({ pathname: location.pathname, search: withLang(location.search, lang), hash: location.hash }, { replace: true })
      }
      options={LANGUAGES.map((l) => ({ value: l, label: t(`app.languages.${l}`) }))}
    />
  );
};
