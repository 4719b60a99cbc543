import { ProfileOutlined } from '@ant-design/icons';
import { APPDATA_API, type AppUserRow } from '@iot/contract';
import { useQuery } from '@tanstack/react-query';
import { Descriptions, Modal, Spin } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Fields } from '../../../components/field-config';
import { useCompanyTreeData } from '../../../components/pickers';
import { type Columns, ResourceTable, type RowAction } from '../../../components/resource-table';
import { formatTime } from '../../../lib/format';
import type { AreaName } from '../../../lib/i18n';
import type { FieldKey } from '../../../lib/labels';
import { dataQueryOptions, defineResource } from '../../../lib/resource';

/** App users (applist/user): read only, of apps of companies in scope; email and phone masked in the list. */
const users = defineResource({ labels: 'appdata.users', list: APPDATA_API.appUserList, id: 'id' });

const columns: Columns<typeof users> = [
  { key: 'user_id', sorter: true },
  { key: 'app_name' },
  { key: 'app_id' },
  { key: 'comp_name' },
  { key: 'country' },
  { key: 'lang' },
  { key: 'email' },
  { key: 'phone' },
  { key: 'gmt_register', time: true, sorter: true },
  { key: 'gmt_login', time: true, sorter: true },
];

/** One user whole (email and phone unmasked), with its device counts. */
const UserDetails = ({ row, onClose }: { row: AppUserRow; onClose: () => void }) => {
  const { t } = useTranslation();
  const detail = useQuery(dataQueryOptions(APPDATA_API.appUserGet, { id: row.id }));
  const d = detail.data;
  const f = (k: FieldKey<'appdata.users'>) => t(`appdata.users.fields.${k}`);
  return (
    <Modal open title={t('appdata.users.details_title', { user_id: row.user_id })} onCancel={onClose} footer={null} width={640}>
      {!d ? (
        <Spin />
      ) : (
        <Descriptions column={1} size="small" bordered>
          {(['user_id', 'app_name', 'app_id', 'comp_name', 'country', 'lang', 'email', 'phone'] as const).map((k) => (
            <Descriptions.Item key={k} label={f(k)}>
              {String(d[k] ?? '–') || '–'}
            </Descriptions.Item>
          ))}
          <Descriptions.Item label={f('gmt_register')}>{formatTime(d.gmt_register)}</Descriptions.Item>
          <Descriptions.Item label={f('gmt_login')}>{d.gmt_login ? formatTime(d.gmt_login) : '–'}</Descriptions.Item>
          <Descriptions.Item label={f('owned')}>{d.owned}</Descriptions.Item>
          <Descriptions.Item label={f('shared')}>{d.shared}</Descriptions.Item>
          <Descriptions.Item label={f('push_providers')}>
            {d.push_providers.length > 0 ? d.push_providers.map((p) => t(`push_platform.providers.${p}`)).join(', ') : '–'}
          </Descriptions.Item>
        </Descriptions>
      )}
    </Modal>
  );
};

/** The message areas this page uses (locales/areas.ts). */
export const areas: readonly AreaName[] = ['appdata', 'messaging'];

export default function AppUserPage() {
  const companies = useCompanyTreeData();
  const [open, setOpen] = useState<AppUserRow | null>(null);
  const filters = useMemo<Fields<'appdata.users'>>(
    () => [
      { name: 'user_id' },
      { name: 'email' },
      { name: 'app_id' },
      { name: 'country' },
      { name: 'comp_id', widget: 'tree-select', treeData: companies },
      { name: 'reg_range', widget: 'date-range', rangeFields: ['gmt_start', 'gmt_end'] },
    ],
    [companies],
  );
  const rowActions: RowAction<AppUserRow>[] = [
    { key: 'details', label: 'appdata.users.details', icon: <ProfileOutlined />, onClick: (r) => setOpen(r) },
  ];
  return (
    <>
      <ResourceTable resource={users} label="menu.applist/user" columns={columns} filters={filters} rowActions={rowActions} />
      {open && <UserDetails row={open} onClose={() => setOpen(null)} />}
    </>
  );
}
