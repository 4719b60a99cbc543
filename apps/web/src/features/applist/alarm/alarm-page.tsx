import { APPDATA_API } from '@iot/contract';
import { useMemo } from 'react';
import type { Fields } from '../../../components/field-config';
import { useCompanyTreeData } from '../../../components/pickers';
import { type Columns, ResourceTable } from '../../../components/resource-table';
import type { AreaName } from '../../../lib/i18n';
import { defineResource } from '../../../lib/resource';

/**
 * Alarm logs (applist/alarm): alarms of devices in scope, newest first, paged at any depth from
 * the server's day counters. (Alarm pushes, v2/umh/admin/alarmpush/list, come with the push records.)
 */
const alarms = defineResource({ labels: 'appdata.alarms', list: APPDATA_API.alarmLogList, id: 'id' });

const TYPE_COLORS = { 1: 'red', 2: 'volcano', 3: 'orange', 4: 'gold', 5: 'blue', 6: 'purple', 7: 'default' };

const columns: Columns<typeof alarms> = [
  { key: 'ts', time: true },
  { key: 'uid' },
  { key: 'alarm_type', enumLabels: 'appdata.alarms.types', tagColors: TYPE_COLORS },
  { key: 'text' },
  { key: 'pk' },
  { key: 'comp_name' },
];

/** The message areas this page uses (locales/areas.ts). */
export const areas: readonly AreaName[] = ['appdata'];

export default function AlarmPage() {
  const companies = useCompanyTreeData();
  const filters = useMemo<Fields<'appdata.alarms'>>(
    () => [
      { name: 'uid' },
      { name: 'alarm_type', enumLabels: 'appdata.alarms.types' },
      { name: 'comp_id', widget: 'tree-select', treeData: companies },
      { name: 'time_range', widget: 'date-range', rangeFields: ['gmt_start', 'gmt_end'] },
    ],
    [companies],
  );
  return <ResourceTable resource={alarms} label="menu.applist/alarm" columns={columns} filters={filters} />;
}
