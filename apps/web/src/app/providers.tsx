import { QueryClientProvider } from '@tanstack/react-query';
import { theme as antdTheme, ConfigProvider } from 'antd';
import { lazy, type ReactNode, Suspense, useSyncExternalStore } from 'react';
import { LoadingOverlay } from '../components/loading-overlay';
import { isFeedbackHostWanted, subscribeFeedbackHost } from '../lib/feedback';
import { getAntdLocale, subscribeAntdLocale } from '../lib/i18n';
import { queryClient } from '../lib/query-client';
import { THEME } from './theme';

// No space inserted between two CJK characters: "删除" keeps the accessible name tests look for.
const BUTTON = { autoInsertSpace: false };

// message + notification (~6 KiB): loaded with the first toast, not at start-up.
const FeedbackHost = lazy(() => import('./feedback-host'));

const Feedback = () => {
  const wanted = useSyncExternalStore(subscribeFeedbackHost, isFeedbackHostWanted);
  return wanted ? (
    <Suspense fallback={null}>
      <FeedbackHost />
    </Suspense>
  ) : null;
};

/** The base text style antd's App component gave the page (its colour, font and size tokens), without App's start-up code. */
const BaseText = ({ children }: { children: ReactNode }) => {
  const { token } = antdTheme.useToken();
  return (
    <div style={{ color: token.colorText, fontFamily: token.fontFamily, fontSize: token.fontSize, lineHeight: token.lineHeight }}>
      {children}
    </div>
  );
};

export const Providers = ({ children }: { children: ReactNode }) => {
  const locale = useSyncExternalStore(subscribeAntdLocale, getAntdLocale);
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider theme={THEME} locale={locale} button={BUTTON}>
        <BaseText>
          <Feedback />
          <LoadingOverlay />
          {children}
        </BaseText>
      </ConfigProvider>
    </QueryClientProvider>
  );
};
