import { useMemo } from 'react';
import { Link } from 'react-router';
import type { Fields } from '../../../components/field-config';
import { useCompanyTreeData } from '../../../components/pickers';
import { type Columns, ResourceTable } from '../../../components/resource-table';
import type { AreaName } from '../../../lib/i18n';
import { useLiveDeviceState } from '../../../shared/device-state/live-state';
import { stateRows } from '../../../shared/device-state/state-rows';
import {
  ACTIVE_OPTIONS,
  LiveBadge,
  NETWORK_OPTIONS,
  OFFLINE_REASON_OPTIONS,
  ONLINE_OPTIONS,
  OnlineTag,
} from '../../../shared/device-state/state-view';

/** The message areas this page uses (locales/areas.ts). */
export const areas: readonly AreaName[] = ['device_state'];

/** Device state list (product/device_state): read only, patched live from the SSE stream. */
export default function DeviceStatePage() {
  const { status, changed } = useLiveDeviceState();
  const companies = useCompanyTreeData();

  const filters = useMemo<Fields<'device_state'>>(
    () => [
      { name: 'uid' },
      { name: 'pk' },
      { name: 'comp_id', widget: 'tree-select', treeData: companies },
      { name: 'online', widget: 'select', options: ONLINE_OPTIONS },
      { name: 'offline_reason', widget: 'select', options: OFFLINE_REASON_OPTIONS },
      { name: 'active', widget: 'select', options: ACTIVE_OPTIONS },
      { name: 'network_type', widget: 'select', options: NETWORK_OPTIONS },
    ],
    [companies],
  );

  const columns = useMemo<Columns<typeof stateRows>>(
    () => [
      {
        key: 'uid',
        sorter: true,
        render: (uid: string) => <Link to={`/operate/device?uid=${encodeURIComponent(uid)}`}>{uid}</Link>,
      },
      { key: 'online', render: (_: unknown, row) => <OnlineTag row={row} changed={changed.has(row.device_id)} /> },
      { key: 'network_type', enumLabels: 'device_state.network_types' },
      { key: 'active', enumLabels: 'device_state.active_states', tagColors: { 1: 'blue', 0: 'default' } },
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
    <ResourceTable
      resource={stateRows}
      label="menu.product/device_state"
      columns={columns}
      filters={filters}
      toolbar={<LiveBadge status={status} />}
    />
  );
}
