import { TeamOutlined } from '@ant-design/icons';
import { API, DataScope, type MenuNode, type RoleRow, RoleState, RoleType } from '@iot/contract';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckTree } from '../../../components/check-tree';
import type { FieldConfig, FieldOption } from '../../../components/field-config';
import { useCompanyTreeData } from '../../../components/pickers';
import { type ColumnConfig, ResourceTable, type RowAction } from '../../../components/resource-table';
import { useAccess } from '../../../lib/access';
import { call } from '../../../lib/api';
import { listQueryOptions } from '../../../lib/resource';
import { useSessionInfo } from '../../../lib/session';
import { roleResource } from './role-resource';
import { RoleUsersModal } from './role-users-modal';

const STATE_OPTIONS: FieldOption[] = [RoleState.OPEN, RoleState.DISABLE].map((v) => ({ value: v, label: `role.states.${v}` }));
const SCOPE_OPTIONS: FieldOption[] = [DataScope.OWN_COMPANY, DataScope.COMPANY_TREE].map((v) => ({ value: v, label: `role.scopes.${v}` }));
const typeOptions = (isSuper: boolean): FieldOption[] =>
  [RoleType.SYSTEM, RoleType.CUSTOM].map((v) => ({ value: v, label: `role.types.${v}`, disabled: v === RoleType.SYSTEM && !isSuper }));

const columns: ColumnConfig<RoleRow>[] = [
  { key: 'name', sorter: true },
  { key: 'cn_name' },
  { key: 'type', enumPrefix: 'role.types', tagColors: { [RoleType.SYSTEM]: 'purple', [RoleType.CUSTOM]: 'blue' }, sorter: true },
  { key: 'data_scope', enumPrefix: 'role.scopes' },
  { key: 'comp_name' },
  { key: 'state', enumPrefix: 'role.states', tagColors: { [RoleState.OPEN]: 'green', [RoleState.DISABLE]: 'default' }, sorter: true },
  { key: 'user_count' },
  { key: 'gmt_create', time: true, sorter: true },
];

/** The menus the caller may grant: the whole tree for the super administrator, its own otherwise. */
const useGrantableMenus = () => useQuery(listQueryOptions<MenuNode>('menu', API.menuList.path, {}));

/** Roles CRUD (system/role): menus per role as a checkbox tree, users holding a role. */
export default function RolePage() {
  const { t } = useTranslation();
  const session = useSessionInfo();
  const access = useAccess();
  const companies = useCompanyTreeData();
  const menus = useGrantableMenus();
  const [usersOf, setUsersOf] = useState<RoleRow | null>(null);

  const filters = useMemo<FieldConfig[]>(
    () => [
      { name: 'name' },
      { name: 'type', type: 'select', options: typeOptions(true) },
      { name: 'state', type: 'select', options: STATE_OPTIONS },
      { name: 'comp_id', type: 'tree-select', treeData: companies },
    ],
    [companies],
  );

  const form = useMemo<FieldConfig[]>(
    () => [
      { name: 'name', required: true, maxLength: 64 },
      { name: 'cn_name', maxLength: 64, emptyValue: '' },
      { name: 'state', type: 'select', required: true, options: STATE_OPTIONS, initialValue: RoleState.OPEN },
      {
        name: 'type',
        type: 'select',
        required: true,
        options: typeOptions(access.isSuper),
        initialValue: RoleType.CUSTOM,
        extra: access.isSuper ? undefined : 'role.system_hint',
      },
      { name: 'data_scope', type: 'select', required: true, options: SCOPE_OPTIONS, initialValue: DataScope.OWN_COMPANY },
      { name: 'comp_id', type: 'tree-select', required: true, treeData: companies, disabledOnEdit: true },
      {
        name: 'menu_ids',
        type: 'custom',
        wide: true,
        initialValue: [],
        emptyValue: null,
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
      <ResourceTable<RoleRow>
        resource={roleResource}
        i18nPrefix="role"
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
        loadEditValues={async (row) => ({ ...(await call<RoleRow>(API.roleGet.path, { id: row.id })).data })}
        toPayload={(payload, mode) => {
          // The company of a role is fixed once created (role/set has no comp_id).
          if (mode === 'edit') {
            const { comp_id: _fixed, ...rest } = payload;
            return { ...rest, menu_ids: payload.menu_ids ?? [] };
          }
          return { ...payload, menu_ids: payload.menu_ids ?? [] };
        }}
      />
      <RoleUsersModal role={usersOf} onClose={() => setUsersOf(null)} />
    </>
  );
}
