import type { StatsInput, StatsOutput } from '@iot/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Col, Input, Row, Select, Space, Table, type TableColumnsType, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useProductOptions } from '../../../components/pickers';
import { useAccess } from '../../../lib/access';
import { formatTime } from '../../../lib/format';
import type { AreaName } from '../../../lib/i18n';
import { currentLanguage } from '../../../lib/i18n';
import Chart from '../../../shared/stats/chart';
import { barOption, shareOption, trendOption } from '../../../shared/stats/chart-options';
import { ChartTablePanel, SMALL_TABLE, StatTiles, ViewPanel } from '../../../shared/stats/stats-panels';
import { countryName, rangeOf, statsQueryOptions, xlsxHref } from '../../../shared/stats/stats-query';
import { StatsToolbar, type StatsView } from '../../../shared/stats/stats-toolbar';

type View = StatsView;

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

const ProductFilter = ({ value, onChange }: { value?: string; onChange: (pk?: string) => void }) => {
  const { t } = useTranslation();
  const access = useAccess();
  // The product list needs a product screen; others type a PK.
  const canList = access.can('product/iot') || access.can('product/device');
  return canList ? (
    <ProductSelect value={value} onChange={onChange} />
  ) : (
    <Input
      aria-label={t('stats.fields.pk')}
      placeholder={t('stats.fields.pk')}
      allowClear
      style={{ width: 200 }}
      defaultValue={value}
      onBlur={(e) => onChange(e.target.value.trim() || undefined)}
      onPressEnter={(e) => onChange(e.currentTarget.value.trim() || undefined)}
    />
  );
};

const ProductSelect = ({ value, onChange }: { value?: string; onChange: (pk?: string) => void }) => {
  const { t } = useTranslation();
  const products = useProductOptions();
  return (
    <Select
      aria-label={t('stats.fields.pk')}
      placeholder={t('stats.all_products')}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      style={{ width: 220 }}
      value={value}
      onChange={(v?: string) => onChange(v)}
      options={products.map((p) => ({ value: String(p.value), label: p.text }))}
    />
  );
};

/** The message areas this page uses (locales/areas.ts). */
export const areas: readonly AreaName[] = ['stats'];

/** info/dev: device statistics from the daily rollups, as charts or tables, and as an .xlsx. */
export default function DevStatsPage() {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [dayjs().subtract(29, 'day').startOf('day'), dayjs().startOf('day')]);
  const [compId, setCompId] = useState<number | undefined>();
  const [pk, setPk] = useState<string | undefined>();
  const [view, setView] = useState<View>('chart');
  const params: StatsInput = useMemo(
    () => ({ ...rangeOf(range[0], range[1]), ...(compId !== undefined ? { comp_id: compId } : {}), ...(pk ? { pk } : {}) }),
    [range, compId, pk],
  );
  const query = useQuery({ ...statsQueryOptions(params), placeholderData: keepPreviousData });
  const s: StatsOutput | undefined = query.data;

  const trend = useMemo(() => s && trendOption(s, t, ['registered', 'activated', 'online']), [s, t]);
  const share = useMemo(() => s && shareOption(s, t), [s, t]);
  const countries = useMemo(
    () =>
      s &&
      barOption(
        s.countries.map((c) => countryName(c.country, lang)),
        [{ name: t('stats.fields.devices'), data: s.countries.map((c) => c.devices) }],
      ),
    [s, t, lang],
  );
  const products = useMemo(
    () =>
      s &&
      barOption(
        s.products.map((p) => p.product_name ?? p.pk),
        [
          { name: t('stats.fields.registered'), data: s.products.map((p) => p.registered) },
          { name: t('stats.fields.activated'), data: s.products.map((p) => p.activated) },
        ],
      ),
    [s, t],
  );
  const companyBars = useMemo(
    () =>
      s &&
      barOption(
        s.companies.map((c) => c.comp_name ?? String(c.comp_id)),
        [
          { name: t('stats.fields.registered'), data: s.companies.map((c) => c.registered) },
          { name: t('stats.fields.activated'), data: s.companies.map((c) => c.activated) },
        ],
      ),
    [s, t],
  );

  const num = (key: string) => ({ title: t(`stats.fields.${key}`), dataIndex: key, key, align: 'right' as const });
  const dayColumns: TableColumnsType<StatsOutput['series'][number]> = [
    { title: t('stats.fields.day'), dataIndex: 'day', key: 'day' },
    num('registered'),
    num('activated'),
    num('online'),
  ];
  const countryColumns: TableColumnsType<StatsOutput['countries'][number]> = [
    { title: t('stats.fields.country'), dataIndex: 'country', key: 'country', render: (c: string) => `${countryName(c, lang)} (${c})` },
    num('devices'),
  ];
  const productColumns: TableColumnsType<StatsOutput['products'][number]> = [
    { title: t('stats.fields.product_name'), dataIndex: 'product_name', key: 'product_name', render: (n: string | null, r) => n ?? r.pk },
    { title: t('stats.fields.pk'), dataIndex: 'pk', key: 'pk' },
    num('registered'),
    num('activated'),
  ];
  const companyColumns: TableColumnsType<StatsOutput['companies'][number]> = [
    { title: t('stats.fields.comp_name'), dataIndex: 'comp_name', key: 'comp_name', render: (n: string | null, r) => n ?? r.comp_id },
    num('registered'),
    num('activated'),
  ];
  const shareRows = s
    ? [
        { key: 'devices', item: t('stats.fields.devices'), value: String(s.totals.devices) },
        { key: 'online', item: t('stats.online_now'), value: String(s.totals.online) },
        { key: 'share', item: t('stats.fields.online_share'), value: percent(s.totals.online_share) },
        { key: 'sample', item: t('stats.sampled_at'), value: s.totals.gmt_sample ? formatTime(s.totals.gmt_sample) : '–' },
      ]
    : [];
  const empty = t('stats.no_data');

  return (
    <div>
      <Typography.Title level={1} style={{ fontSize: 22, marginTop: 0 }}>
        {t('stats.title')}
      </Typography.Title>
      <StatsToolbar
        range={range}
        onRange={setRange}
        compId={compId}
        onCompId={setCompId}
        view={view}
        onView={setView}
        downloadHref={s ? xlsxHref(params, s.download_ticket) : undefined}
      >
        <ProductFilter value={pk} onChange={setPk} />
      </StatsToolbar>
      <StatTiles
        tiles={(
          [
            ['registered', s?.totals.registered],
            ['activated', s?.totals.activated],
            ['devices', s?.totals.devices],
            ['online', s?.totals.online],
            ['online_share', s ? percent(s.totals.online_share) : undefined],
          ] as const
        ).map(([key, value]) => ({ key, title: t(`stats.totals.${key}`), value }))}
        loading={query.isLoading}
        col={{ xs: 12, sm: 8, lg: 4 }}
      />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={16}>
          <ChartTablePanel
            title={t('stats.trend')}
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
        <Col xs={24} xl={8}>
          <ViewPanel
            title={t('stats.share')}
            view={view}
            chart={
              share &&
              (s?.totals.devices ? (
                <Chart option={share} label={t('stats.share')} height={300} />
              ) : (
                <Typography.Text type="secondary">{empty}</Typography.Text>
              ))
            }
            table={
              <Table
                rowKey="key"
                showHeader={false}
                columns={[
                  { dataIndex: 'item', key: 'item' },
                  { dataIndex: 'value', key: 'value', align: 'right' },
                ]}
                dataSource={shareRows}
                {...SMALL_TABLE}
              />
            }
          />
        </Col>
        <Col xs={24} lg={8}>
          <ChartTablePanel
            title={t('stats.countries')}
            view={view}
            option={countries}
            rows={s?.countries}
            rowKey="country"
            columns={countryColumns}
            empty={empty}
          />
        </Col>
        <Col xs={24} lg={8}>
          <ChartTablePanel
            title={t('stats.products')}
            view={view}
            option={products}
            rows={s?.products}
            rowKey="pk"
            columns={productColumns}
            empty={empty}
          />
        </Col>
        <Col xs={24} lg={8}>
          <ChartTablePanel
            title={t('stats.companies')}
            view={view}
            option={companyBars}
            rows={s?.companies}
            rowKey="comp_id"
            columns={companyColumns}
            empty={empty}
          />
        </Col>
      </Row>
      <Space direction="vertical" style={{ marginTop: 12 }}>
        <Typography.Text type="secondary">{t('stats.note')}</Typography.Text>
      </Space>
    </div>
  );
}
