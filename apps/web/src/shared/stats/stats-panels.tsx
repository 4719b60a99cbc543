import { Col, type ColProps, Row, Statistic, Table, type TableColumnsType, type TableProps, Typography } from 'antd';
import type { ReactNode } from 'react';
import { Panel } from '../../components/panel';
import Chart from './chart';
import type { ChartOption } from './echarts';
import type { StatsView } from './stats-toolbar';

/** A card that shows its chart or, in table view, the same numbers as a table. */
export const ViewPanel = ({ title, view, chart, table }: { title: string; view: StatsView; chart: ReactNode; table: ReactNode }) => (
  <Panel title={title} size="small" style={{ height: '100%' }}>
    {view === 'chart' ? chart : table}
  </Panel>
);

/** A statistics table: small, not paged, scrolling sideways on a phone. */
export const SMALL_TABLE = { size: 'small', pagination: false, scroll: { x: 'max-content' } } as const;

interface ChartTablePanelProps<R> {
  title: string;
  view: StatsView;
  /** The chart of `rows` (undefined while loading). */
  option: ChartOption | undefined;
  rows: readonly R[] | undefined;
  rowKey: TableProps<R>['rowKey'];
  columns: TableColumnsType<R>;
  /** What the card says instead of an empty chart. */
  empty: string;
  height?: number;
  /** A day series: the table pages by 31 rows instead of showing them all. */
  days?: boolean;
}

/** A chart-or-table card over one list of rows (a day series, the top countries, apps, products…). */
export function ChartTablePanel<R extends object>({
  title,
  view,
  option,
  rows,
  rowKey,
  columns,
  empty,
  height,
  days,
}: ChartTablePanelProps<R>) {
  const chart =
    option &&
    (rows?.length ? <Chart option={option} label={title} height={height} /> : <Typography.Text type="secondary">{empty}</Typography.Text>);
  const table = (
    <Table<R>
      rowKey={rowKey}
      columns={columns}
      dataSource={rows ? [...rows] : []}
      {...SMALL_TABLE}
      pagination={days ? { pageSize: 31, hideOnSinglePage: true } : false}
    />
  );
  return <ViewPanel title={title} view={view} chart={chart} table={table} />;
}

/** The totals above a statistics page's charts, one card each ("–" until known). */
export const StatTiles = ({
  tiles,
  loading,
  col,
}: {
  tiles: readonly { key: string; title: string; value: string | number | undefined }[];
  loading: boolean;
  col: ColProps;
}) => (
  <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
    {tiles.map(({ key, title, value }) => (
      <Col key={key} {...col}>
        <Panel size="small">
          <Statistic title={title} value={value ?? '–'} loading={loading} />
        </Panel>
      </Col>
    ))}
  </Row>
);
