import { OTA_API, OTA_UPGRADE_STATES, type OtaUpgradeRow, type OtaUpgradeState } from '@iot/contract';
import { Progress, Tag } from 'antd';
import { useMemo } from 'react';
import { type Fields, valueOptions } from '../../components/field-config';
import { type Columns, ResourceTable } from '../../components/resource-table';
import type { LabelKey } from '../../lib/labels';
import { defineResource } from '../../lib/resource';

/** Devices' firmware upgrades (v2/ota/admin/product/ver/devices): a version's rollout, a device's history. */
export const upgradeRows = defineResource({ labels: 'firmware.upgrade', list: OTA_API.productVerDevices, id: 'id' });

export const UPGRADE_STATE_COLORS: Record<OtaUpgradeState, string> = {
  offered: 'blue',
  upgrading: 'processing',
  succeeded: 'green',
  failed: 'red',
  superseded: 'default',
};

const stateFilter: Fields<'firmware.upgrade'> = [
  { name: 'state', widget: 'select', options: valueOptions(OTA_UPGRADE_STATES, 'firmware.upgrade_states') },
];

/**
 * The upgrade rows `params` select (`version_id` or `uid`), filterable by state, newest first:
 * a version's rollout shows the devices, a device's history shows the versions.
 */
export const UpgradeTable = ({
  params,
  of,
  label,
}: {
  params: { version_id?: number; uid?: string };
  of: 'version' | 'device';
  label: LabelKey;
}) => {
  const columns = useMemo<Columns<typeof upgradeRows>>(
    () => [
      ...(of === 'version'
        ? ([{ key: 'uid', sorter: true }, { key: 'comp_name' }] as const)
        : ([{ key: 'ver', render: (_: unknown, r: OtaUpgradeRow) => `${r.ver} (${r.ver_num})` }] as const)),
      { key: 'state', sorter: true, enumLabels: 'firmware.upgrade_states', tagColors: UPGRADE_STATE_COLORS },
      {
        key: 'progress',
        sorter: true,
        render: (_: unknown, r: OtaUpgradeRow) => (
          <Progress
            percent={r.progress}
            size="small"
            style={{ minWidth: 120 }}
            status={
              r.state === 'failed' ? 'exception' : r.state === 'succeeded' ? 'success' : r.state === 'upgrading' ? 'active' : 'normal'
            }
          />
        ),
      },
      { key: 'from_ver_num' },
      { key: 'error', render: (v: string) => (v ? <Tag color="red">{v}</Tag> : '') },
      { key: 'gmt_offer', time: true, sorter: true },
      { key: 'gmt_update', time: true, sorter: true },
      { key: 'gmt_finish', time: true, sorter: true },
    ],
    [of],
  );
  return <ResourceTable resource={upgradeRows} label={label} columns={columns} filters={stateFilter} baseParams={params} />;
};
