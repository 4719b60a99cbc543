import { API, LICENCE_STATES, type LicenceRow } from '@iot/contract';
import type { FieldConfig } from '../../../components/field-config';
import { type ColumnConfig, ResourceTable } from '../../../components/resource-table';
import { defineResource } from '../../../lib/resource';

/** Licence codes (product/lic_list): read only, in the caller's company scope. */
const licences = defineResource<LicenceRow>({ name: 'licence', list: API.licCodeList.path, idField: 'id' });

const filters: FieldConfig[] = [
  { name: 'code' },
  { name: 'uid' },
  { name: 'pk' },
  { name: 'state', type: 'select', options: LICENCE_STATES.map((s) => ({ value: s, label: `device_state.licence_states.${s}` })) },
];

const columns: ColumnConfig<LicenceRow>[] = [
  { key: 'code' },
  { key: 'state', enumPrefix: 'device_state.licence_states', tagColors: { used: 'blue', unused: 'green' } },
  { key: 'uid' },
  { key: 'pk' },
  { key: 'comp_name' },
  { key: 'gmt_create', time: true },
  { key: 'gmt_use', time: true },
];

export default function LicListPage() {
  return (
    <ResourceTable<LicenceRow>
      resource={licences}
      i18nPrefix="device_state.licence"
      label="menu.product/lic_list"
      columns={columns}
      filters={filters}
      canDelete={false}
      canEdit={false}
    />
  );
}
