import { ExportOutlined, ImportOutlined } from '@ant-design/icons';
import { NETWORK_TYPES } from '@iot/contract';
import { Tag, Tooltip } from 'antd';
import { type Key, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogButton } from '../../../components/dialog-button';
import { type Fields, valueOptions } from '../../../components/field-config';
import { useCompanyTreeData, useProductOptions } from '../../../components/pickers';
import { type Columns, ResourceTable } from '../../../components/resource-table';
import type { AreaName } from '../../../lib/i18n';
import type { RowOfResource } from '../../../lib/resource';
import { useSessionInfo } from '../../../lib/session';
import { DeviceBulkBar } from './device-bulk-bar';
import { ACTIVE_OPTIONS, deviceResource, ONLINE_OPTIONS } from './device-resource';

type DeviceRow = RowOfResource<typeof deviceResource>;

// The import and export dialogs (Upload, Progress, a jobs table, the date picker) load on their button's first click.
const loadImportDialog = async () => (await import('./import-export')).DeviceImportDialog;
const loadExportDialog = async () => (await import('./import-export')).DeviceExportDialog;

const useColumns = (): Columns<typeof deviceResource> => {
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
      { key: 'active', enumLabels: 'device.active_states', tagColors: { '1': 'blue', '0': 'default' } },
      { key: 'network_type', enumLabels: 'device.network_types' },
      { key: 'last_online', time: true },
      { key: 'last_offline', time: true },
      { key: 'gmt_create', time: true, sorter: 'id' },
    ],
    [t],
  );
};

/** The message areas this page uses (locales/areas.ts). */
export const areas: readonly AreaName[] = ['device', 'jobs'];

/** Device registration (product/device): list at a million devices, add one, bulk actions, import and export. */
export default function DevicePage() {
  const { t } = useTranslation();
  const session = useSessionInfo();
  const columns = useColumns();
  const companies = useCompanyTreeData();
  const products = useProductOptions();
  const [selected, setSelected] = useState<Key[]>([]);

  const filters = useMemo<Fields<'device'>>(
    () => [
      { name: 'uid' },
      { name: 'mac' },
      { name: 'pk', widget: 'select', options: products },
      { name: 'comp_id', widget: 'tree-select', treeData: companies },
      { name: 'online', widget: 'select', options: ONLINE_OPTIONS },
      { name: 'active', widget: 'select', options: ACTIVE_OPTIONS },
      { name: 'network_type', widget: 'select', options: valueOptions(NETWORK_TYPES, 'device.network_types') },
      { name: 'vendor' },
      { name: 'gmt_range', widget: 'date-range', rangeFields: ['gmt_start', 'gmt_end'] },
      { name: 'online_range', widget: 'date-range', rangeFields: ['online_start', 'online_end'] },
    ],
    [products, companies],
  );

  /** Register one device: UID and MAC checked with the contract's own rules before sending. */
  const form = useMemo<Fields<'device'>>(
    () => [
      { name: 'uid', extra: 'device.uid_hint', autoComplete: 'off' },
      { name: 'mac', extra: 'device.mac_hint', autoComplete: 'off' },
      { name: 'pk', widget: 'select', options: products },
      { name: 'comp_id', widget: 'tree-select', treeData: companies },
    ],
    [products, companies],
  );

  return (
    <ResourceTable
      resource={deviceResource}
      label="menu.product/device"
      columns={columns}
      filters={filters}
      form={form}
      titles={{ add: 'device.add_title', ok: 'common.ok' }}
      addValues={session ? { comp_id: session.user.comp_id } : undefined}
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
          <DialogButton
            icon={<ImportOutlined />}
            load={loadImportDialog}
            dialogProps={{ products, defaultPk: typeof applied.pk === 'string' ? applied.pk : undefined }}
            keepMounted
          >
            {t('jobs.import')}
          </DialogButton>
          <DialogButton icon={<ExportOutlined />} load={loadExportDialog} dialogProps={{ filters: applied }}>
            {t('jobs.export')}
          </DialogButton>
        </>
      )}
    />
  );
}
