import { type AuditRow, USER_API } from '@iot/contract';
import { Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Fields } from '../../../components/field-config';
import { type Columns, ResourceTable } from '../../../components/resource-table';
import { defineResource } from '../../../lib/resource';

/** Audit log (system/audit): read only, scoped by the actor's company on the server. */
const auditRows = defineResource({ labels: 'audit', list: USER_API.auditList, id: 'id' });

const ACTION_COLORS = { add: 'green', set: 'blue', del: 'red' };

const filters: Fields<'audit'> = [
  { name: 'user_id' },
  { name: 'action', enumLabels: 'audit.actions' },
  { name: 'path' },
  { name: 'target_id' },
  { name: 'time_range', widget: 'date-range', rangeFields: ['gmt_start', 'gmt_end'] },
];

const columns: Columns<typeof auditRows> = [
  { key: 'gmt_create', time: true, sorter: true },
  { key: 'user_id', sorter: true },
  { key: 'comp_name' },
  { key: 'action', enumLabels: 'audit.actions', tagColors: ACTION_COLORS },
  { key: 'path', sorter: true },
  { key: 'target_id' },
  { key: 'ip' },
];

const showValue = (v: unknown): string => {
  if (v === null || v === undefined || v === '') return '—';
  return typeof v === 'string' ? v : JSON.stringify(v);
};

interface ChangeRow {
  field: string;
  before: unknown;
  after: unknown;
}

/** One entry's `changes` as a field / before → after table. */
const ChangesTable = ({ row }: { row: AuditRow }) => {
  const { t } = useTranslation();
  const data: ChangeRow[] = Object.entries(row.changes ?? {}).map(([field, c]) => ({ field, before: c.before, after: c.after }));
  if (data.length === 0) return <Typography.Text type="secondary">{t('audit.no_changes')}</Typography.Text>;
  return (
    <Table<ChangeRow>
      aria-label={t('audit.changes_of', { id: row.target_id })}
      rowKey="field"
      size="small"
      pagination={false}
      dataSource={data}
      columns={[
        { key: 'field', dataIndex: 'field', title: t('audit.fields.field') },
        { key: 'before', dataIndex: 'before', title: t('audit.fields.before'), render: (v: unknown) => showValue(v) },
        { key: 'after', dataIndex: 'after', title: t('audit.fields.after'), render: (v: unknown) => showValue(v) },
      ]}
    />
  );
};

/** Who changed what, when and from where; expand a row for before → after. */
export default function AuditPage() {
  return (
    <ResourceTable
      resource={auditRows}
      label="menu.system/audit"
      columns={columns}
      filters={filters}
      expandable={{ expandedRowRender: (row) => <ChangesTable row={row} />, rowExpandable: () => true }}
    />
  );
}
