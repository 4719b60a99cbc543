import { ExportOutlined } from '@ant-design/icons';
import { APPDATA_API } from '@iot/contract';
import { Tabs } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogButton } from '../../../components/dialog-button';
import type { Fields } from '../../../components/field-config';
import { useCompanyTreeData } from '../../../components/pickers';
import { type Columns, ResourceTable } from '../../../components/resource-table';
import { useAccess } from '../../../lib/access';
import type { AreaName } from '../../../lib/i18n';
import { defineResource } from '../../../lib/resource';

/** Device logs (scoped like the devices) with their .xlsx export, and the platform services' logs. */
const deviceLogs = defineResource({ labels: 'appdata.device_logs', list: APPDATA_API.deviceLogList, id: 'id' });
const serviceLogs = defineResource({ labels: 'appdata.service_logs', list: APPDATA_API.serviceLogList, id: 'id' });

const LEVEL_COLORS = { 1: 'default', 2: 'blue', 3: 'orange', 4: 'red' };

const deviceColumns: Columns<typeof deviceLogs> = [
  { key: 'ts', time: true },
  { key: 'uid' },
  { key: 'level', enumLabels: 'appdata.levels', tagColors: LEVEL_COLORS },
  { key: 'text' },
  { key: 'comp_name' },
];
const serviceColumns: Columns<typeof serviceLogs> = [
  { key: 'ts', time: true },
  { key: 'service_id', enumLabels: 'appdata.services' },
  { key: 'node' },
  { key: 'level', enumLabels: 'appdata.levels', tagColors: LEVEL_COLORS },
  { key: 'text' },
];
const serviceFilters: Fields<'appdata.service_logs'> = [
  { name: 'service_id', enumLabels: 'appdata.services' },
  { name: 'level', enumLabels: 'appdata.levels' },
  { name: 'time_range', widget: 'date-range', rangeFields: ['gmt_start', 'gmt_end'] },
];

const EXPORT_LABELS = {
  title: 'appdata.logs.export_title',
  hint: 'appdata.logs.export_hint',
  range: 'appdata.logs.range',
  start: 'appdata.logs.start_export',
  started: 'appdata.logs.export_started',
  list: 'appdata.logs.export_list',
} as const;

const DeviceLogs = () => {
  const { t } = useTranslation();
  const companies = useCompanyTreeData();
  const filters = useMemo<Fields<'appdata.device_logs'>>(
    () => [
      { name: 'uid' },
      { name: 'level', enumLabels: 'appdata.levels' },
      { name: 'comp_id', widget: 'tree-select', treeData: companies },
      { name: 'time_range', widget: 'date-range', rangeFields: ['gmt_start', 'gmt_end'] },
    ],
    [companies],
  );
  return (
    <ResourceTable
      resource={deviceLogs}
      label="appdata.logs.tabs.device"
      columns={deviceColumns}
      filters={filters}
      toolbar={({ filters: applied }) => (
        <DialogButton
          icon={<ExportOutlined />}
          load={() => import('../../../shared/jobs/export-jobs').then((m) => m.RangeExportDialog)}
          dialogProps={{
            filters: applied,
            defs: { add: APPDATA_API.logExportAdd, list: APPDATA_API.logExportList },
            labels: EXPORT_LABELS,
          }}
        >
          {t('appdata.logs.export')}
        </DialogButton>
      )}
    />
  );
};

/** The message areas this page uses (locales/areas.ts). */
export const areas: readonly AreaName[] = ['appdata', 'jobs'];

export default function LogListPage() {
  const { t } = useTranslation();
  // Service logs are platform rows: only the super administrator's scope holds them.
  const { isSuper } = useAccess();
  return (
    <Tabs
      items={[
        { key: 'device', label: t('appdata.logs.tabs.device'), children: <DeviceLogs /> },
        ...(isSuper
          ? [
              {
                key: 'service',
                label: t('appdata.logs.tabs.service'),
                children: (
                  <ResourceTable
                    resource={serviceLogs}
                    label="appdata.logs.tabs.service"
                    columns={serviceColumns}
                    filters={serviceFilters}
                  />
                ),
              },
            ]
          : []),
      ]}
    />
  );
}
