import { API, type DeviceStateRow } from '@iot/contract';
import { Tag } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { FieldConfig } from '../../../components/field-config';
import { type ColumnConfig, ResourceTable } from '../../../components/resource-table';
import { defineResource } from '../../../lib/resource';
import { DEVICE_STATE_ROOT, useLiveDeviceState } from '../device_state/live-state';
import { LiveBadge, OnlineTag } from '../device_state/state-view';

/** Wake state of low-power devices (product/awake): the devices that reported one, patched live. */
const wakeRows = defineResource<DeviceStateRow>({ name: DEVICE_STATE_ROOT, list: API.wolStateGet.path, idField: 'device_id' });

const filters: FieldConfig[] = [
  { name: 'uid' },
  { name: 'pk' },
  {
    name: 'wake_state',
    type: 'select',
    options: [
      { value: 2, label: 'device_state.wake_states.2' },
      { value: 1, label: 'device_state.wake_states.1' },
    ],
  },
];

export default function AwakePage() {
  const { t } = useTranslation();
  const { status, changed } = useLiveDeviceState();
  const columns = useMemo<ColumnConfig<DeviceStateRow>[]>(
    () => [
      { key: 'uid', render: (uid: string) => <Link to={`/operate/device?uid=${encodeURIComponent(uid)}`}>{uid}</Link> },
      {
        key: 'wake_state',
        render: (v: number, row) => (
          <span>
            <Tag color={v === 2 ? 'green' : 'purple'}>{t(`device_state.wake_states.${v}`)}</Tag>
            {changed.has(row.device_id) && <Tag color="gold">{t('device_state.changed')}</Tag>}
          </span>
        ),
      },
      { key: 'online', render: (_: unknown, row) => <OnlineTag row={row} /> },
      { key: 'last_seen', time: true },
      { key: 'pk' },
      { key: 'comp_name' },
    ],
    [changed, t],
  );
  return (
    <ResourceTable<DeviceStateRow>
      resource={wakeRows}
      i18nPrefix="device_state"
      label="menu.product/awake"
      columns={columns}
      filters={filters}
      canDelete={false}
      canEdit={false}
      toolbar={<LiveBadge status={status} />}
      rowKey="device_id"
    />
  );
}
