import { ExportOutlined, LinkOutlined, PlusOutlined, StopOutlined } from '@ant-design/icons';
import { DEVICE_STATE_API, type LicenceRow } from '@iot/contract';
import { Button } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Fields } from '../../../components/field-config';
import { useCompanyTreeData, useProductOptions } from '../../../components/pickers';
import { type Columns, ResourceTable, type RowAction } from '../../../components/resource-table';
import { showApiError } from '../../../lib/api';
import { toastSuccess } from '../../../lib/feedback';
import type { AreaName } from '../../../lib/i18n';
import { defineResource } from '../../../lib/resource';
import { useSessionInfo } from '../../../lib/session';
import { downloadLicences, LicenceBindModal, LicenceGenerateModal } from './licence-actions';

/** Licence codes (product/lic_list): generate batches, revoke, bind to a device, export; in the caller's scope. */
const licences = defineResource({ labels: 'device_state.licence', list: DEVICE_STATE_API.licCodeList, id: 'id' });

const columns: Columns<typeof licences> = [
  { key: 'code' },
  { key: 'state', enumLabels: 'device_state.licence_states', tagColors: { used: 'blue', unused: 'green', revoked: 'default' } },
  { key: 'uid' },
  { key: 'pk' },
  { key: 'comp_name' },
  { key: 'batch_id' },
  { key: 'gmt_create', time: true },
  { key: 'gmt_use', time: true },
];

/** The message areas this page uses (locales/areas.ts). */
export const areas: readonly AreaName[] = ['device_state'];

export default function LicListPage() {
  const { t } = useTranslation();
  const session = useSessionInfo();
  const companies = useCompanyTreeData();
  const products = useProductOptions();
  const [generating, setGenerating] = useState(false);
  const [binding, setBinding] = useState<LicenceRow | null>(null);
  const [exporting, setExporting] = useState(false);
  const revoke = licences.useAction(DEVICE_STATE_API.licCodeSet);

  const filters = useMemo<Fields<'device_state.licence'>>(
    () => [
      { name: 'code' },
      { name: 'uid' },
      { name: 'pk', widget: 'select', options: products },
      { name: 'comp_id', widget: 'tree-select', treeData: companies },
      { name: 'state', enumLabels: 'device_state.licence_states' },
      { name: 'batch_id' },
    ],
    [products, companies],
  );

  const rowActions: RowAction<LicenceRow>[] = [
    {
      key: 'bind',
      label: 'device_state.licence.bind',
      icon: <LinkOutlined />,
      visible: (r) => r.state === 'unused',
      onClick: (r) => setBinding(r),
    },
    {
      key: 'revoke',
      label: 'device_state.licence.revoke',
      icon: <StopOutlined />,
      danger: true,
      confirm: 'device_state.licence.revoke_confirm',
      visible: (r) => r.state === 'unused',
      onClick: (r) =>
        revoke
          .mutateAsync({ ids: [r.id], state: 'revoked' })
          .then(() => toastSuccess(t('device_state.licence.revoked', { code: r.code })))
          // A refusal (e.g. used meanwhile: 409) is shown by the API error toast.
          .catch(() => undefined),
    },
  ];

  return (
    <>
      <ResourceTable
        resource={licences}
        label="menu.product/lic_list"
        columns={columns}
        filters={filters}
        rowActions={rowActions}
        toolbar={({ filters: applied, count }) => (
          <>
            <Button
              icon={<ExportOutlined />}
              disabled={count === 0}
              loading={exporting}
              onClick={() => {
                setExporting(true);
                downloadLicences(applied)
                  .catch(showApiError)
                  .finally(() => setExporting(false));
              }}
            >
              {t('device_state.licence.export')}
            </Button>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setGenerating(true)}>
              {t('device_state.licence.generate')}
            </Button>
          </>
        )}
      />
      <LicenceGenerateModal
        open={generating}
        onClose={() => setGenerating(false)}
        products={products}
        companies={companies}
        defaultCompany={session?.user.comp_id}
      />
      <LicenceBindModal row={binding} onClose={() => setBinding(null)} />
    </>
  );
}
