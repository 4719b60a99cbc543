import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import { type ReactNode, useSyncExternalStore } from 'react';
import { LoadingOverlay } from '../components/loading-overlay';
import { bindFeedback } from '../lib/feedback';
import { getAntdLocale, subscribeAntdLocale } from '../lib/i18n';
import { queryClient } from '../lib/query-client';

/** Hands antd's context-aware message/notification to lib/feedback. */
const FeedbackBridge = () => {
  const { message, notification } = AntApp.useApp();
  bindFeedback(message, notification);
  return null;
};

// antd's default blue fails the contrast check; this one passes (STACK.md).
const theme = { token: { colorPrimary: '#0958d9' } };

// No space inserted between two CJK characters: "删除" keeps the accessible name tests look for.
const BUTTON = { autoInsertSpace: false };

export const Providers = ({ children }: { children: ReactNode }) => {
  const locale = useSyncExternalStore(subscribeAntdLocale, getAntdLocale);
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider theme={theme} locale={locale} button={BUTTON}>
        <AntApp>
          <FeedbackBridge />
          <LoadingOverlay />
          {children}
        </AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
};
