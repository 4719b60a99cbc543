import { DownloadOutlined } from '@ant-design/icons';
import { STATS_MAX_DAYS } from '@iot/contract';
import { Button, DatePicker, Flex, Segmented, TreeSelect } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useCompanyTreeData } from '../../components/pickers';

export type StatsView = 'chart' | 'table';

interface StatsToolbarProps {
  range: [Dayjs, Dayjs];
  onRange: (range: [Dayjs, Dayjs]) => void;
  compId: number | undefined;
  onCompId: (compId: number | undefined) => void;
  view: StatsView;
  onView: (view: StatsView) => void;
  /** The xlsx of what is shown (undefined while loading). */
  downloadHref: string | undefined;
  /** A statistics page's own filters (product, app), between the company and the view. */
  children?: ReactNode;
}

/** The bar above a statistics page: days (at most STATS_MAX_DAYS), company, the page's filters, charts or tables, xlsx. */
export const StatsToolbar = ({ range, onRange, compId, onCompId, view, onView, downloadHref, children }: StatsToolbarProps) => {
  const { t } = useTranslation();
  const companies = useCompanyTreeData();
  return (
    <Flex wrap gap={12} align="center" style={{ marginBottom: 16 }}>
      <DatePicker.RangePicker
        aria-label={t('stats.range')}
        allowClear={false}
        value={range}
        disabledDate={(d, info) =>
          d.isAfter(dayjs().endOf('day')) || (info.from !== undefined && Math.abs(d.diff(info.from, 'day')) >= STATS_MAX_DAYS)
        }
        onChange={(v) => {
          if (v?.[0] && v[1]) onRange([v[0].startOf('day'), v[1].startOf('day')]);
        }}
      />
      <TreeSelect
        aria-label={t('stats.fields.comp_id')}
        placeholder={t('stats.all_companies')}
        allowClear
        treeDefaultExpandAll
        showSearch={{ treeNodeFilterProp: 'title' }}
        style={{ width: 220 }}
        treeData={companies}
        value={compId}
        onChange={(v?: number) => onCompId(v ?? undefined)}
      />
      {children}
      <Segmented<StatsView>
        aria-label={t('stats.view')}
        value={view}
        onChange={onView}
        options={[
          { value: 'chart', label: t('stats.charts') },
          { value: 'table', label: t('stats.tables') },
        ]}
      />
      <Button icon={<DownloadOutlined />} href={downloadHref} disabled={!downloadHref} download>
        {t('stats.download')}
      </Button>
    </Flex>
  );
};
