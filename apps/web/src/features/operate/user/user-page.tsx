import { UserState, UserType } from '@iot/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type Fields, valueOptions } from '../../../components/field-config';
import { useCompanyTreeData, useRoleOptions } from '../../../components/pickers';
import { type Columns, ResourceTable } from '../../../components/resource-table';
import { useAccess } from '../../../lib/access';
import { encodePassword } from '../../../lib/crypto';
import { formatTime } from '../../../lib/format';
import type { Payload, RowOfResource } from '../../../lib/resource';
import { useSessionInfo } from '../../../lib/session';
import { USER_STATE_ALL, USER_STATE_COLORS, userStateFilter } from '../../../lib/user-state';
import { userResource } from './user-resource';

type UserRow = RowOfResource<typeof userResource>;

const useColumns = (): Columns<typeof userResource> => {
  const { t } = useTranslation();
  return useMemo(
    () => [
      { key: 'user_id', sorter: true },
      { key: 'user_name', sorter: true },
      { key: 'user_email' },
      { key: 'phone', render: (_: unknown, r: UserRow) => (r.user_phone ? `${r.user_phone_area} ${r.user_phone}` : '') },
      { key: 'comp_name', sorter: 'comp_id' },
      { key: 'role_name' },
      { key: 'user_type', enumLabels: 'user.types' },
      { key: 'state', enumLabels: 'user.states', tagColors: USER_STATE_COLORS, sorter: true },
      { key: 'validity_time', sorter: true, render: (v: unknown) => formatTime(v, 'YYYY-MM-DD') || t('user.never') },
      { key: 'gmt_create', time: true, sorter: true },
    ],
    [t],
  );
};

/** SPEC §5: the password goes over the wire only encoded, and on edit only when typed. */
const encodeUserPayload = async (payload: Payload, mode: 'add' | 'edit', row?: UserRow): Promise<Payload> => {
  const { user_password: password, ...rest } = payload;
  if (typeof password !== 'string' || password === '') return rest;
  const userId = mode === 'edit' && row ? row.user_id : String(payload.user_id ?? '');
  return { ...rest, user_password: await encodePassword(userId, password) };
};

/** Users CRUD (operate/user): role, company, type, validity and state. */
export default function UserPage() {
  const session = useSessionInfo();
  const access = useAccess();
  const columns = useColumns();
  const companies = useCompanyTreeData();
  const roles = useRoleOptions();

  const filters = useMemo<Fields<'user'>>(
    () => [
      { name: 'user_id' },
      { name: 'user_name' },
      { name: 'comp_id', widget: 'tree-select', treeData: companies },
      { name: 'role_id', widget: 'select', options: roles },
      {
        name: 'user_state',
        widget: 'select',
        initialValue: USER_STATE_ALL,
        options: [{ value: USER_STATE_ALL, label: 'common.all' }, ...valueOptions([UserState.ENABLED, UserState.DISABLED], 'user.states')],
      },
    ],
    [companies, roles],
  );

  const form = useMemo<Fields<'user'>>(
    () => [
      { name: 'user_id', disabledOnEdit: true, autoComplete: 'off' },
      { name: 'user_name' },
      { name: 'user_password', widget: 'password', encoded: true, only: 'add' },
      { name: 'confirm_password', widget: 'password', sameAs: 'user_password', only: 'add' },
      { name: 'user_password', widget: 'password', encoded: true, only: 'edit', extra: 'user.password_keep_hint' },
      { name: 'confirm_password', widget: 'password', sameAs: 'user_password', only: 'edit' },
      { name: 'user_email' },
      { name: 'user_phone_area' },
      { name: 'user_phone' },
      { name: 'comp_id', widget: 'tree-select', treeData: companies },
      { name: 'role_id', widget: 'select', options: roles },
      { name: 'user_type', enumLabels: 'user.types', disabledValues: access.isSuper ? [] : [UserType.SUPER_ADMIN] },
      { name: 'state', widget: 'switch' },
      { name: 'validity_time', widget: 'date', extra: 'user.validity_hint' },
      { name: 'remark', widget: 'textarea', wide: true },
    ],
    [companies, roles, access.isSuper],
  );

  return (
    <ResourceTable
      resource={userResource}
      label="menu.operate/user"
      columns={columns}
      filters={filters}
      form={form}
      formColumns={2}
      titles={{ add: 'user.add_title', edit: 'user.edit_title' }}
      addValues={session ? { comp_id: session.user.comp_id } : undefined}
      canDelete={(row) => row.id !== session?.user.id}
      toFilterPayload={(p) => ({ ...p, user_state: userStateFilter(p.user_state) })}
      toPayload={encodeUserPayload}
    />
  );
}
