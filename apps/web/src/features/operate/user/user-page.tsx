import { PHONE_AREA_DEFAULT, type UserRow, UserState } from '@iot/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldConfig } from '../../../components/field-config';
import { useCompanyTreeData, useRoleOptions } from '../../../components/pickers';
import { type ColumnConfig, ResourceTable } from '../../../components/resource-table';
import { useAccess } from '../../../lib/access';
import { encodePassword } from '../../../lib/crypto';
import { formatTime } from '../../../lib/format';
import type { Payload } from '../../../lib/resource';
import { useSessionInfo } from '../../../lib/session';
import { USER_STATE_ALL, userStateFilter } from '../../../lib/user-state';
import { USER_STATE_COLORS, USER_STATE_OPTIONS, userTypeOptions } from './user-options';
import { userResource } from './user-resource';

const useColumns = (): ColumnConfig<UserRow>[] => {
  const { t } = useTranslation();
  return useMemo(
    () => [
      { key: 'user_id', sorter: true },
      { key: 'user_name', sorter: true },
      { key: 'user_email' },
      { key: 'phone', render: (_: unknown, r: UserRow) => (r.user_phone ? `${r.user_phone_area} ${r.user_phone}` : '') },
      { key: 'comp_name', sorter: 'comp_id' },
      { key: 'role_name' },
      { key: 'user_type', enumPrefix: 'user.types' },
      { key: 'state', enumPrefix: 'user.states', tagColors: USER_STATE_COLORS, sorter: true },
      {
        key: 'validity_time',
        sorter: true,
        render: (v: unknown) => formatTime(v, 'YYYY-MM-DD') || t('user.never'),
      },
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

  const filters = useMemo<FieldConfig[]>(
    () => [
      { name: 'user_id' },
      { name: 'user_name' },
      { name: 'comp_id', type: 'tree-select', treeData: companies },
      { name: 'role_id', type: 'select', options: roles },
      {
        name: 'user_state',
        type: 'select',
        initialValue: USER_STATE_ALL,
        options: [{ value: USER_STATE_ALL, label: 'common.all' }, ...USER_STATE_OPTIONS],
      },
    ],
    [companies, roles],
  );

  const form = useMemo<FieldConfig[]>(
    () => [
      { name: 'user_id', required: true, rules: ['user_id'], disabledOnEdit: true, autoComplete: 'off' },
      { name: 'user_name', maxLength: 64 },
      { name: 'user_password', type: 'password', required: true, only: 'add' },
      { name: 'confirm_password', type: 'password', required: true, only: 'add', sameAs: 'user_password', transient: true },
      { name: 'user_password', type: 'password', only: 'edit', extra: 'user.password_keep_hint' },
      { name: 'confirm_password', type: 'password', only: 'edit', sameAs: 'user_password', transient: true },
      { name: 'user_email', rules: ['email'], emptyValue: '', maxLength: 128 },
      { name: 'user_phone_area', required: true, rules: ['phone_area'], initialValue: PHONE_AREA_DEFAULT },
      { name: 'user_phone', areaField: 'user_phone_area', rules: ['phone'], emptyValue: '' },
      { name: 'comp_id', type: 'tree-select', required: true, treeData: companies },
      { name: 'role_id', type: 'select', options: roles, emptyValue: null },
      { name: 'user_type', type: 'select', required: true, options: userTypeOptions(access.isSuper), initialValue: 9 },
      { name: 'state', type: 'switch', initialValue: UserState.ENABLED, switchValues: [UserState.ENABLED, UserState.DISABLED] },
      { name: 'validity_time', type: 'date', emptyValue: 0, extra: 'user.validity_hint' },
      { name: 'remark', type: 'textarea', maxLength: 512, emptyValue: '', wide: true },
    ],
    [companies, roles, access.isSuper],
  );

  return (
    <ResourceTable<UserRow>
      resource={userResource}
      i18nPrefix="user"
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
