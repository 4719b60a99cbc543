import { API, type DeviceStateRow } from '@iot/contract';
import { useMemo } from 'react';
import { Link } from 'react-router';
import type { FieldConfig } from '../../../components/field-config';
import { useCompanyTreeData } from '../../../components/pickers';
import { type ColumnConfig, ResourceTable } from '../../../components/resource-table';
import { defineResource } from '../../../lib/resource';
import { DEVICE_STATE_ROOT, useLiveDeviceState } from './live-state';
import { ACTIVE_OPTIONS, LiveBadge, NETWORK_OPTIONS, OFFLINE_REASON_OPTIONS, ONLINE_OPTIONS, OnlineTag } from './state-view';

/** Device state list (product/device_state): read only, patched live from the SSE stream. */
const stateRows = defineResource<DeviceStateRow>({ name: DEVICE_STATE_ROOT, list: API.devStateList.path, idField: 'device_id' });

export default function DeviceStatePage() {
  const { status, changed } = useLiveDeviceState();
  const companies = useCompanyTreeData();

  const filters = useMemo<FieldConfig[]>(
    () => [
      { name: 'uid' },
      { name: 'pk' },
      { name: 'comp_id', type: 'tree-select', treeData: companies },
      { name: 'online', type: 'select', options: ONLINE_OPTIONS },
      { name: 'offline_reason', type: 'select', options: OFFLINE_REASON_OPTIONS },
      { name: 'active', type: 'select', options: ACTIVE_OPTIONS },
      { name: 'network_type', type: 'select', options: NETWORK_OPTIONS },
    ],
    [companies],
  );

  const columns = useMemo<ColumnConfig<DeviceStateRow>[]>(
    () => [
      {
        key: 'uid',
        sorter: true,
        render: (uid: string) => <Link to={`/operate/device?uid=${encodeURIComponent(uid)}`}>{uid}</Link>,
      },
      { key: 'online', render: (_: unknown, row) => <OnlineTag row={row} changed={changed.has(row.device_id)} /> },
      { key: 'network_type', enumPrefix: 'device_state.network_types' },
      { key: 'active', enumPrefix: 'device_state.active_states', tagColors: { 1: 'blue', 0: 'default' } },
      { key: 'last_online', time: true, sorter: true },
      { key: 'last_offline', time: true, sorter: true },
      { key: 'last_seen', time: true, sorter: true },
      { key: 'vendor' },
      { key: 'protocol' },
      { key: 'country' },
      { key: 'pk' },
      { key: 'comp_name' },
    ],
    [changed],
  );

  return (
    <ResourceTable<DeviceStateRow>
      resource={stateRows}
      i18nPrefix="device_state"
      label="menu.product/device_state"
      columns={columns}
      filters={filters}
      canDelete={false}
      canEdit={false}
      toolbar={<LiveBadge status={status} />}
      rowKey="device_id"
    />
  );
}
