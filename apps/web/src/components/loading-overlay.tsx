import { LOADING_POLL_MS } from '@iot/contract';
import { Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { requestsInFlight } from '../lib/loading';

/**
 * Global loading indicator (SPEC §2): polls the in-flight counter every
 * LOADING_POLL_MS. It never blocks clicks (pointer-events: none) so a slow
 * background refresh does not freeze the page.
 */
export const LoadingOverlay = () => {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    const timer = window.setInterval(() => setBusy(requestsInFlight() > 0), LOADING_POLL_MS);
    return () => window.clearInterval(timer);
  }, []);
  if (!busy) return null;
  return (
    <div
      role="status"
      aria-label={t('app.loading')}
      style={{ position: 'fixed', top: 12, left: '50%', transform: 'translateX(-50%)', zIndex: 2000, pointerEvents: 'none' }}
    >
      <Spin size="small" />
    </div>
  );
};
