import { CheckCircleOutlined } from '@ant-design/icons';
import { CompanyState, USER_API } from '@iot/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { type Fields, valueOptions } from '../../../components/field-config';
import { COMPANY_TREE_PARAMS, useCompanyTreeData } from '../../../components/pickers';
import { type Columns, ResourceTable, type RowAction } from '../../../components/resource-table';
import { toastSuccess } from '../../../lib/feedback';
import type { Payload, RowOfResource } from '../../../lib/resource';
import { useSessionInfo } from '../../../lib/session';
import { companyResource } from './company-resource';

type CompanyNode = RowOfResource<typeof companyResource>;

const filters: Fields<'company'> = [
  { name: 'comp_name' },
  { name: 'comp_type', enumLabels: 'company.types' },
  {
    name: 'state',
    widget: 'select',
    options: valueOptions([CompanyState.ACTIVE, CompanyState.DISABLED, CompanyState.PENDING], 'company.states'),
  },
];

const useColumns = (): Columns<typeof companyResource> => {
  const { t } = useTranslation();
  return useMemo(
    () => [
      { key: 'comp_name', sorter: true },
      { key: 'comp_type', enumLabels: 'company.types' },
      { key: 'comp_key' },
      {
        key: 'dk_usage',
        render: (_: unknown, r: CompanyNode) => `${r.dk} / ${r.dk_limit > 0 ? r.dk_limit : t('company.unlimited')}`,
      },
      { key: 'location', render: (_: unknown, r: CompanyNode) => [r.country, r.city].filter(Boolean).join(' / ') },
      {
        key: 'contact',
        render: (_: unknown, r: CompanyNode) =>
          [r.comp_person, r.comp_phone && `${r.comp_phone_area} ${r.comp_phone}`].filter(Boolean).join(' · '),
      },
      { key: 'state', enumLabels: 'company.states' },
      { key: 'sort', sorter: true },
      { key: 'gmt_create', time: true, sorter: true },
    ],
    [t],
  );
};

/** Company tree CRUD (operate/company), with approval of self-registrations. */
export default function CompanyPage() {
  const { t } = useTranslation();
  const session = useSessionInfo();
  const columns = useColumns();
  const treeData = useCompanyTreeData();
  // The dashboard links here with ?state=3 (pending registrations).
  const [search] = useSearchParams();
  const stateFilter = Number(search.get('state'));
  const initialFilters = useMemo(() => (stateFilter > 0 ? { state: stateFilter } : undefined), [stateFilter]);
  const approve = companyResource.useAction(USER_API.companySet);
  const ownCompany = session?.user.comp_id;

  const form = useMemo<Fields<'company'>>(
    () => [
      { name: 'comp_parent_id', widget: 'tree-select', treeData, wide: true },
      { name: 'comp_name' },
      { name: 'comp_short_name' },
      { name: 'comp_type', enumLabels: 'company.types' },
      { name: 'state', enumLabels: 'company.states' },
      { name: 'comp_person' },
      { name: 'comp_phone_area' },
      { name: 'comp_phone' },
      { name: 'country' },
      { name: 'province' },
      { name: 'city' },
      { name: 'area' },
      { name: 'area_id' },
      { name: 'dk_limit', extra: 'company.dk_limit_hint' },
      { name: 'latitude', precision: 6 },
      { name: 'longitude', precision: 6 },
      { name: 'sort', extra: 'company.sort_hint' },
      { name: 'sys' },
      { name: 'comp_addr', widget: 'textarea', wide: true },
    ],
    [treeData],
  );

  const rowActions = useMemo<RowAction<CompanyNode>[]>(
    () => [
      {
        key: 'approve',
        label: 'company.approve',
        icon: <CheckCircleOutlined />,
        confirm: 'company.approve_confirm',
        visible: (row) => row.state === CompanyState.PENDING,
        onClick: async (row) => {
          await approve.mutateAsync({ comp_id: row.comp_id, state: CompanyState.ACTIVE });
          toastSuccess(t('company.approved'));
        },
      },
    ],
    [approve, t],
  );

  return (
    <ResourceTable
      resource={companyResource}
      label="menu.operate/company"
      columns={columns}
      filters={filters}
      form={form}
      formColumns={2}
      baseParams={COMPANY_TREE_PARAMS}
      initialFilters={initialFilters}
      titles={{ add: 'company.add_title', edit: 'company.edit_title' }}
      addValues={ownCompany ? { comp_parent_id: ownCompany } : undefined}
      canDelete={(row) => !row.children?.length && row.comp_id !== ownCompany}
      rowActions={rowActions}
      toPayload={(payload: Payload, mode, row) => {
        // A pending company keeps its state until approved (the form only offers active/disabled).
        if (mode === 'edit' && row?.state === CompanyState.PENDING && payload.state === CompanyState.PENDING) {
          const { state: _pending, ...rest } = payload;
          return rest;
        }
        return payload;
      }}
    />
  );
}
