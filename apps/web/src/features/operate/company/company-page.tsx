import { CheckCircleOutlined } from '@ant-design/icons';
import { API, type CompanyNode, CompanyState, PHONE_AREA_DEFAULT } from '@iot/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { FieldConfig } from '../../../components/field-config';
import { COMPANY_TREE_PARAMS, useCompanyTreeData } from '../../../components/pickers';
import { type ColumnConfig, ResourceTable, type RowAction } from '../../../components/resource-table';
import { toastSuccess } from '../../../lib/feedback';
import type { Payload } from '../../../lib/resource';
import { useSessionInfo } from '../../../lib/session';
import { COMPANY_TYPE_OPTIONS } from './company-options';
import { companyResource } from './company-resource';

const STATE_OPTIONS = [CompanyState.ACTIVE, CompanyState.DISABLED].map((v) => ({ value: v, label: `company.states.${v}` }));
const FILTER_STATE_OPTIONS = [...STATE_OPTIONS, { value: CompanyState.PENDING, label: `company.states.${CompanyState.PENDING}` }];

const filters: FieldConfig[] = [
  { name: 'comp_name' },
  { name: 'comp_type', type: 'select', options: COMPANY_TYPE_OPTIONS },
  { name: 'state', type: 'select', options: FILTER_STATE_OPTIONS },
];

const useColumns = (): ColumnConfig<CompanyNode>[] => {
  const { t } = useTranslation();
  return useMemo(
    () => [
      { key: 'comp_name', sorter: true },
      { key: 'comp_type', enumPrefix: 'company.types' },
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
      { key: 'state', enumPrefix: 'company.states' },
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
  const approve = companyResource.useAction(API.companySet.path);
  const ownCompany = session?.user.comp_id;

  const form = useMemo<FieldConfig[]>(
    () => [
      { name: 'comp_parent_id', type: 'tree-select', required: true, treeData, wide: true },
      { name: 'comp_name', required: true, maxLength: 128 },
      { name: 'comp_short_name', maxLength: 64 },
      { name: 'comp_type', type: 'select', required: true, options: COMPANY_TYPE_OPTIONS, initialValue: 9 },
      { name: 'state', type: 'select', required: true, options: STATE_OPTIONS, initialValue: CompanyState.ACTIVE },
      { name: 'comp_person', maxLength: 64 },
      { name: 'comp_phone_area', required: true, rules: ['phone_area'], initialValue: PHONE_AREA_DEFAULT },
      { name: 'comp_phone', areaField: 'comp_phone_area', rules: ['phone'] },
      { name: 'country', maxLength: 64 },
      { name: 'province', maxLength: 64 },
      { name: 'city', maxLength: 64 },
      { name: 'area', maxLength: 64 },
      { name: 'area_id', type: 'integer', emptyValue: 0 },
      { name: 'dk_limit', type: 'integer', min: 0, rules: ['gte0'], initialValue: 0, emptyValue: 0, extra: 'company.dk_limit_hint' },
      { name: 'latitude', type: 'number', rules: ['latitude'], emptyValue: null, precision: 6 },
      { name: 'longitude', type: 'number', rules: ['longitude'], emptyValue: null, precision: 6 },
      { name: 'sort', type: 'integer', emptyValue: null, extra: 'company.sort_hint' },
      { name: 'sys', maxLength: 32 },
      { name: 'comp_addr', type: 'textarea', maxLength: 255, wide: true },
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
    <ResourceTable<CompanyNode>
      resource={companyResource}
      i18nPrefix="company"
      label="menu.operate/company"
      columns={columns}
      filters={filters}
      form={form}
      formColumns={2}
      baseParams={COMPANY_TREE_PARAMS}
      initialFilters={initialFilters}
      paged={false}
      titles={{ add: 'company.add_title', edit: 'company.edit_title' }}
      addValues={ownCompany ? { comp_parent_id: ownCompany } : undefined}
      canEdit
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
