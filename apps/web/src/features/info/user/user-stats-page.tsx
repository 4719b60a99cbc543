import type { AppStatsInput, AppStatsOutput } from '@iot/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Col, InputNumber, Row, type TableColumnsType, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AreaName } from '../../../lib/i18n';
import { currentLanguage } from '../../../lib/i18n';
import { barOption, linesOption } from '../../../shared/stats/chart-options';
import { ChartTablePanel, StatTiles } from '../../../shared/stats/stats-panels';
import { appStatsQueryOptions, appStatsXlsxHref, countryName, rangeOf } from '../../../shared/stats/stats-query';
import { StatsToolbar, type StatsView } from '../../../shared/stats/stats-toolbar';

type View = StatsView;

/** The message areas this page uses (locales/areas.ts). */
export const areas: readonly AreaName[] = ['appdata', 'stats'];

/** info/user: new and active app users per day, per app, top countries (rollups), as charts or tables, and as an .xlsx. */
export default function UserStatsPage() {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [dayjs().subtract(29, 'day').startOf('day'), dayjs().startOf('day')]);
  const [compId, setCompId] = useState<number | undefined>();
  const [appId, setAppId] = useState<number | undefined>();
  const [view, setView] = useState<View>('chart');
  const params: AppStatsInput = useMemo(
    () => ({
      ...rangeOf(range[0], range[1]),
      ...(compId !== undefined ? { comp_id: compId } : {}),
      ...(appId !== undefined ? { app_id: appId } : {}),
    }),
    [range, compId, appId],
  );
  const query = useQuery({ ...appStatsQueryOptions(params), placeholderData: keepPreviousData });
  const s: AppStatsOutput | undefined = query.data;
  const f = useCallback(
    (k: 'day' | 'new_users' | 'active_users' | 'users' | 'app_id' | 'app_name' | 'comp_name' | 'country') => t(`appdata.stats.fields.${k}`),
    [t],
  );

  const trend = useMemo(
    () =>
      s &&
      linesOption(
        s.series.map((r) => r.day),
        [
          { name: f('new_users'), data: s.series.map((r) => r.new_users) },
          { name: f('active_users'), data: s.series.map((r) => r.active_users) },
        ],
      ),
    [s, f],
  );
  const apps = useMemo(
    () =>
      s &&
      barOption(
        s.apps.slice(0, 10).map((a) => a.app_name ?? `#${a.app_id}`),
        [
          { name: f('new_users'), data: s.apps.slice(0, 10).map((a) => a.new_users) },
          { name: f('active_users'), data: s.apps.slice(0, 10).map((a) => a.active_users) },
        ],
      ),
    [s, f],
  );
  const countries = useMemo(
    () =>
      s &&
      barOption(
        s.countries.map((c) => countryName(c.country, lang)),
        [{ name: f('users'), data: s.countries.map((c) => c.users) }],
      ),
    [s, f, lang],
  );

  const num = (key: 'new_users' | 'active_users' | 'users') => ({ title: f(key), dataIndex: key, key, align: 'right' as const });
  const dayColumns: TableColumnsType<AppStatsOutput['series'][number]> = [
    { title: f('day'), dataIndex: 'day', key: 'day' },
    num('new_users'),
    num('active_users'),
  ];
  const appColumns: TableColumnsType<AppStatsOutput['apps'][number]> = [
    { title: f('app_name'), dataIndex: 'app_name', key: 'app_name', render: (n: string | null, r) => n ?? `#${r.app_id}` },
    { title: f('app_id'), dataIndex: 'app_id', key: 'app_id' },
    { title: f('comp_name'), dataIndex: 'comp_name', key: 'comp_name', render: (n: string | null, r) => n ?? r.comp_id },
    num('new_users'),
    num('active_users'),
    num('users'),
  ];
  const countryColumns: TableColumnsType<AppStatsOutput['countries'][number]> = [
    { title: f('country'), dataIndex: 'country', key: 'country', render: (c: string) => `${countryName(c, lang)} (${c})` },
    num('users'),
  ];
  const empty = t('appdata.stats.no_data');

  return (
    <div>
      <Typography.Title level={1} style={{ fontSize: 22, marginTop: 0 }}>
        {t('appdata.stats.title')}
      </Typography.Title>
      <StatsToolbar
        range={range}
        onRange={setRange}
        compId={compId}
        onCompId={setCompId}
        view={view}
        onView={setView}
        downloadHref={s ? appStatsXlsxHref(params, s.download_ticket) : undefined}
      >
        <InputNumber<number>
          aria-label={t('appdata.stats.app_id')}
          placeholder={t('appdata.stats.all_apps')}
          min={1}
          precision={0}
          style={{ width: 160 }}
          value={appId ?? null}
          onChange={(v) => setAppId(v ?? undefined)}
        />
      </StatsToolbar>
      <StatTiles
        tiles={(['new_users', 'active_avg', 'active_peak', 'users'] as const).map((key) => ({
          key,
          title: t(`appdata.stats.totals.${key}`),
          value: s?.totals[key],
        }))}
        loading={query.isLoading}
        col={{ xs: 12, sm: 6 }}
      />
      <Row gutter={[16, 16]}>
        <Col xs={24}>
          <ChartTablePanel
            title={t('appdata.stats.trend')}
            view={view}
            option={trend}
            rows={s?.series}
            rowKey="day"
            columns={dayColumns}
            empty={empty}
            height={300}
            days
          />
        </Col>
        <Col xs={24} lg={12}>
          <ChartTablePanel
            title={t('appdata.stats.apps')}
            view={view}
            option={apps}
            rows={s?.apps}
            rowKey={(r) => `${r.app_id}-${r.comp_id}`}
            columns={appColumns}
            empty={empty}
          />
        </Col>
        <Col xs={24} lg={12}>
          <ChartTablePanel
            title={t('appdata.stats.countries')}
            view={view}
            option={countries}
            rows={s?.countries}
            rowKey="country"
            columns={countryColumns}
            empty={empty}
          />
        </Col>
      </Row>
      <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
        {t('appdata.stats.note')}
      </Typography.Paragraph>
    </div>
  );
}
