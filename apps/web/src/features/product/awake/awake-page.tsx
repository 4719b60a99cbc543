import { DEVICE_STATE_API } from '@iot/contract';
import { Tag } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type Fields, valueOptions } from '../../../components/field-config';
import { type Columns, ResourceTable } from '../../../components/resource-table';
import type { AreaName } from '../../../lib/i18n';
import { defineResource } from '../../../lib/resource';
import { useLiveDeviceState } from '../../../shared/device-state/live-state';
import { LiveBadge, OnlineTag } from '../../../shared/device-state/state-view';

/** Wake state of low-power devices (product/awake): the devices that reported one, patched live. */
const wakeRows = defineResource({ labels: 'device_state', list: DEVICE_STATE_API.wolStateGet, id: 'device_id' });

const filters: Fields<'device_state'> = [
  { name: 'uid' },
  { name: 'pk' },
  { name: 'wake_state', widget: 'select', options: valueOptions([2, 1], 'device_state.wake_states') },
];

/** The message areas this page uses (locales/areas.ts). */
export const areas: readonly AreaName[] = ['device_state'];

export default function AwakePage() {
  const { t } = useTranslation();
  const { status, changed } = useLiveDeviceState();
  const columns = useMemo<Columns<typeof wakeRows>>(
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
    <ResourceTable
      resource={wakeRows}
      label="menu.product/awake"
      columns={columns}
      filters={filters}
      toolbar={<LiveBadge status={status} />}
    />
  );
}
