import { PlusOutlined } from '@ant-design/icons';
import type { DeviceRow } from '@iot/contract';
import { Button, Tag, Tooltip } from 'antd';
import { type Key, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldConfig } from '../../../components/field-config';
import { useCompanyTreeData } from '../../../components/pickers';
import { type ColumnConfig, ResourceTable } from '../../../components/resource-table';
import { useSessionInfo } from '../../../lib/session';
import { DeviceAddModal } from './device-add-modal';
import { DeviceBulkBar } from './device-bulk-bar';
import { ACTIVE_OPTIONS, deviceResource, NETWORK_TYPE_OPTIONS, ONLINE_OPTIONS, useProductOptions } from './device-resource';
import { DeviceExportButton, DeviceImportButton } from './import-export';

const useColumns = (): ColumnConfig<DeviceRow>[] => {
  const { t } = useTranslation();
  return useMemo(
    () => [
      { key: 'uid', sorter: true },
      { key: 'mac', sorter: true },
      { key: 'product_name', render: (_: unknown, r: DeviceRow) => r.product_name ?? r.pk },
      { key: 'comp_name' },
      {
        key: 'online',
        render: (_: unknown, r: DeviceRow) =>
          r.online === 1 ? (
            <Tag color="success">{t('device.online_states.1')}</Tag>
          ) : (
            <Tooltip title={t(`device.offline_reasons.${r.offline_reason}`)}>
              <Tag aria-label={`${t('device.online_states.0')}: ${t(`device.offline_reasons.${r.offline_reason}`)}`}>
                {t('device.online_states.0')}
              </Tag>
            </Tooltip>
          ),
      },
      { key: 'active', enumPrefix: 'device.active_states', tagColors: { '1': 'blue', '0': 'default' } },
      { key: 'network_type', enumPrefix: 'device.network_types' },
      { key: 'last_online', time: true },
      { key: 'last_offline', time: true },
      { key: 'gmt_create', time: true, sorter: 'id' },
    ],
    [t],
  );
};

/** Device registration (product/device): list at a million devices, add one, bulk actions, import and export. */
export default function DevicePage() {
  const { t } = useTranslation();
  const session = useSessionInfo();
  const columns = useColumns();
  const companies = useCompanyTreeData();
  const products = useProductOptions();
  const [adding, setAdding] = useState(false);
  const [selected, setSelected] = useState<Key[]>([]);

  const filters = useMemo<FieldConfig[]>(
    () => [
      { name: 'uid', maxLength: 32 },
      { name: 'mac', maxLength: 17 },
      { name: 'pk', type: 'select', options: products },
      { name: 'comp_id', type: 'tree-select', treeData: companies },
      { name: 'online', type: 'select', options: ONLINE_OPTIONS },
      { name: 'active', type: 'select', options: ACTIVE_OPTIONS },
      { name: 'network_type', type: 'select', options: NETWORK_TYPE_OPTIONS },
      { name: 'vendor', maxLength: 64 },
      { name: 'gmt_range', type: 'date-range', rangeFields: ['gmt_start', 'gmt_end'] },
      { name: 'online_range', type: 'date-range', rangeFields: ['online_start', 'online_end'] },
    ],
    [products, companies],
  );

  return (
    <>
      <ResourceTable<DeviceRow>
        resource={deviceResource}
        i18nPrefix="device"
        label="menu.product/device"
        columns={columns}
        filters={filters}
        canAdd={false}
        canEdit={false}
        canDelete={false}
        rowSelection={{ selectedRowKeys: selected, onChange: setSelected, preserveSelectedRowKeys: true }}
        toolbar={({ filters: applied, count }) => (
          <>
            <DeviceBulkBar
              selectedIds={selected.map(Number)}
              filters={applied}
              count={count}
              products={products}
              companies={companies}
              onDone={() => setSelected([])}
            />
            <DeviceImportButton filters={applied} />
            <DeviceExportButton filters={applied} />
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
              {t('common.add')}
            </Button>
          </>
        )}
      />
      <DeviceAddModal
        open={adding}
        onClose={() => setAdding(false)}
        products={products}
        companies={companies}
        defaultCompany={session?.user.comp_id}
      />
    </>
  );
}
