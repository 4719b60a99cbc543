import { CheckOutlined, StopOutlined, SwapOutlined } from '@ant-design/icons';
import { DUPLICATE_RESOLUTIONS, type DuplicateRow, DuplicateState, JOBS_API } from '@iot/contract';
import { Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type Fields, valueOptions } from '../../../components/field-config';
import { type Columns, ResourceTable, type RowAction } from '../../../components/resource-table';
import { showApiError } from '../../../lib/api';
import { toastSuccess } from '../../../lib/feedback';
import type { AreaName } from '../../../lib/i18n';
import { defineResource } from '../../../lib/resource';

/** Duplicate UID/MAC registrations (product/dev_dup): pending first, resolved with the decision kept. */
const duplicates = defineResource({ labels: 'jobs.dup', list: JOBS_API.duplicateList, id: 'id' });

const filters: Fields<'jobs.dup'> = [
  { name: 'state', widget: 'select', options: valueOptions([DuplicateState.PENDING, DuplicateState.RESOLVED], 'jobs.dup.states') },
  { name: 'uid' },
  { name: 'import_id' },
];

const ICONS = { keep_existing: <CheckOutlined />, replace: <SwapOutlined />, ignore: <StopOutlined /> };

const REASON_COLORS: Record<string, string> = { duplicate_uid: 'orange', duplicate_mac: 'gold' };
const STATE_COLORS: Record<string, string> = { 1: 'processing', 2: 'success' };

/** A conflict met by a single registration (v2/iot/web/uid/reg/add), not by an import. */
const FromRegistration = () => {
  const { t } = useTranslation();
  return <Typography.Text type="secondary">{t('jobs.dup.from_registration')}</Typography.Text>;
};

const columns: Columns<typeof duplicates> = [
  { key: 'gmt_create', time: true },
  // The state first after the time: with the many columns scrolled, pending rows still stand out.
  { key: 'state', enumLabels: 'jobs.dup.states', tagColors: STATE_COLORS },
  { key: 'uid' },
  { key: 'mac' },
  { key: 'pk' },
  { key: 'comp_name' },
  { key: 'reason', enumLabels: 'jobs.reasons', tagColors: REASON_COLORS },
  {
    key: 'existing',
    render: (_: unknown, row: DuplicateRow) => (
      <Typography.Text>
        #{row.existing_device_id} {row.existing_uid ?? ''} {row.existing_mac ?? ''} · {row.existing_comp_name ?? ''}
      </Typography.Text>
    ),
  },
  { key: 'import_id', render: (_: unknown, row: DuplicateRow) => row.import_id ?? <FromRegistration /> },
  { key: 'resolution', enumLabels: 'jobs.dup.resolutions' },
  { key: 'resolved_by' },
];

/** The message areas this page uses (locales/areas.ts). */
export const areas: readonly AreaName[] = ['jobs'];

export default function DevDupPage() {
  const { t } = useTranslation();
  const resolve = duplicates.useAction(JOBS_API.duplicateSet);
  const rowActions = useMemo<RowAction<DuplicateRow>[]>(
    () =>
      DUPLICATE_RESOLUTIONS.map((resolution) => ({
        key: resolution,
        label: `jobs.dup.resolutions.${resolution}`,
        icon: ICONS[resolution],
        danger: resolution === 'replace',
        confirm: `jobs.dup.confirm.${resolution}`,
        visible: (row: DuplicateRow) => row.state === DuplicateState.PENDING,
        onClick: async (row: DuplicateRow) => {
          try {
            await resolve.mutateAsync({ id: row.id, resolution });
            toastSuccess(t('jobs.dup.resolved'));
          } catch (err) {
            showApiError(err);
          }
        },
      })),
    [resolve, t],
  );
  return <ResourceTable resource={duplicates} label="menu.product/dev_dup" columns={columns} filters={filters} rowActions={rowActions} />;
}
