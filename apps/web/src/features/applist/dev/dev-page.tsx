import { APPDATA_API } from '@iot/contract';
import { useMemo } from 'react';
import type { Fields } from '../../../components/field-config';
import { useCompanyTreeData } from '../../../components/pickers';
import { type Columns, ResourceTable } from '../../../components/resource-table';
import type { AreaName } from '../../../lib/i18n';
import { defineResource } from '../../../lib/resource';

/** Device bindings (owners) and shares (applist/dev): read only, of devices in scope. */
const binds = defineResource({ labels: 'appdata.binds', list: APPDATA_API.devBindList, id: 'id' });

const columns: Columns<typeof binds> = [
  { key: 'uid' },
  { key: 'user_id' },
  { key: 'role', enumLabels: 'appdata.binds.roles', tagColors: { 1: 'blue', 2: 'green' } },
  { key: 'owner_user_id' },
  { key: 'app_name' },
  { key: 'app_id' },
  { key: 'comp_name' },
  { key: 'gmt_create', time: true, sorter: true },
];

/** The message areas this page uses (locales/areas.ts). */
export const areas: readonly AreaName[] = ['appdata'];

export default function DevBindPage() {
  const companies = useCompanyTreeData();
  const filters = useMemo<Fields<'appdata.binds'>>(
    () => [
      { name: 'uid' },
      { name: 'user_id' },
      { name: 'role', enumLabels: 'appdata.binds.roles' },
      { name: 'app_id' },
      { name: 'comp_id', widget: 'tree-select', treeData: companies },
    ],
    [companies],
  );
  return <ResourceTable resource={binds} label="menu.applist/dev" columns={columns} filters={filters} />;
}
