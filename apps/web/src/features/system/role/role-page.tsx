import { TeamOutlined } from '@ant-design/icons';
import { type RoleRow, RoleState, RoleType, USER_API } from '@iot/contract';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckTree } from '../../../components/check-tree';
import type { Fields } from '../../../components/field-config';
import { useCompanyTreeData } from '../../../components/pickers';
import { type Columns, ResourceTable, type RowAction } from '../../../components/resource-table';
import { useAccess } from '../../../lib/access';
import { call } from '../../../lib/api';
import { listQueryOptions } from '../../../lib/resource';
import { useSessionInfo } from '../../../lib/session';
import { roleResource } from './role-resource';
import { RoleUsersModal } from './role-users-modal';

const columns: Columns<typeof roleResource> = [
  { key: 'name', sorter: true },
  { key: 'cn_name' },
  { key: 'type', enumLabels: 'role.types', tagColors: { [RoleType.SYSTEM]: 'purple', [RoleType.CUSTOM]: 'blue' }, sorter: true },
  { key: 'data_scope', enumLabels: 'role.scopes' },
  { key: 'comp_name' },
  { key: 'state', enumLabels: 'role.states', tagColors: { [RoleState.OPEN]: 'green', [RoleState.DISABLE]: 'default' }, sorter: true },
  { key: 'user_count' },
  { key: 'gmt_create', time: true, sorter: true },
];

/** The menus the caller may grant: the whole tree for the super administrator, its own otherwise. */
const useGrantableMenus = () => useQuery(listQueryOptions(USER_API.menuList, {}));

/** Roles CRUD (system/role): menus per role as a checkbox tree, users holding a role. */
export default function RolePage() {
  const { t } = useTranslation();
  const session = useSessionInfo();
  const access = useAccess();
  const companies = useCompanyTreeData();
  const menus = useGrantableMenus();
  const [usersOf, setUsersOf] = useState<RoleRow | null>(null);

  const filters = useMemo<Fields<'role'>>(
    () => [
      { name: 'name' },
      { name: 'type', enumLabels: 'role.types' },
      { name: 'state', enumLabels: 'role.states' },
      { name: 'comp_id', widget: 'tree-select', treeData: companies },
    ],
    [companies],
  );

  const form = useMemo<Fields<'role'>>(
    () => [
      { name: 'name' },
      { name: 'cn_name' },
      { name: 'state', enumLabels: 'role.states' },
      {
        name: 'type',
        enumLabels: 'role.types',
        disabledValues: access.isSuper ? [] : [RoleType.SYSTEM],
        ...(access.isSuper ? {} : { extra: 'role.system_hint' as const }),
      },
      { name: 'data_scope', enumLabels: 'role.scopes' },
      { name: 'comp_id', widget: 'tree-select', treeData: companies, disabledOnEdit: true },
      {
        name: 'menu_ids',
        widget: 'custom',
        wide: true,
        control: <CheckTree menus={menus.data?.rows ?? []} aria-label={t('role.fields.menu_ids')} />,
      },
    ],
    [companies, menus.data, access.isSuper, t],
  );

  const rowActions = useMemo<RowAction<RoleRow>[]>(
    () => [{ key: 'users', label: 'role.users', icon: <TeamOutlined />, onClick: (row) => setUsersOf(row) }],
    [],
  );

  return (
    <>
      <ResourceTable
        resource={roleResource}
        label="menu.system/role"
        columns={columns}
        filters={filters}
        form={form}
        formColumns={2}
        titles={{ add: 'role.add_title', edit: 'role.edit_title' }}
        addValues={session ? { comp_id: session.user.comp_id } : undefined}
        canEdit={(row) => access.isSuper || (row.type === RoleType.CUSTOM && row.id !== session?.user.role_id)}
        canDelete={(row) => (access.isSuper || row.type === RoleType.CUSTOM) && row.id !== session?.user.role_id}
        rowActions={rowActions}
        loadEditValues={(row) => call(USER_API.roleGet, { id: row.id })}
      />
      <RoleUsersModal role={usersOf} onClose={() => setUsersOf(null)} />
    </>
  );
}
