import { useQuery } from '@tanstack/react-query';
import { Flex, Spin, Statistic } from 'antd';
import dayjs from 'dayjs';
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Panel } from '../../components/panel';
import { currentLanguage } from '../../lib/i18n';
import { withLang } from '../../lib/lang';
import { trendOption } from '../../shared/stats/chart-options';
import { rangeOf, statsQueryOptions } from '../../shared/stats/stats-query';

// ECharts loads with this card only (never for users without info/dev, never on the login page).
const Chart = lazy(() => import('../../shared/stats/chart'));

/** Dashboard: registrations of the last 30 days and the online share (holders of info/dev). */
export default function DeviceTrendCard() {
  const { t } = useTranslation();
  const params = useMemo(() => rangeOf(dayjs().subtract(29, 'day'), dayjs()), []);
  const stats = useQuery(statsQueryOptions(params));
  const s = stats.data;
  const option = useMemo(() => s && trendOption(s, t, ['registered']), [s, t]);
  return (
    <Panel
      title={t('stats.card_title')}
      extra={<Link to={{ pathname: '/info/dev', search: withLang('', currentLanguage()) }}>{t('stats.card_link')}</Link>}
    >
      <Flex gap={24} wrap align="center">
        <div style={{ flex: '1 1 320px', minWidth: 0 }}>
          <Suspense fallback={<Spin />}>{option && <Chart option={option} label={t('stats.card_title')} height={200} />}</Suspense>
        </div>
        <Flex vertical gap={12}>
          <Statistic
            title={t('stats.card_share')}
            value={s ? `${(s.totals.online_share * 100).toFixed(1)}%` : '–'}
            loading={stats.isLoading}
          />
          <Statistic title={t('stats.totals.registered')} value={s?.totals.registered ?? '–'} loading={stats.isLoading} />
        </Flex>
      </Flex>
    </Panel>
  );
}
