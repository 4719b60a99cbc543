import { PAGE_SIZE_DEFAULT, type RoleRow, USER_API, type UserRow } from '@iot/contract';
import { useQuery } from '@tanstack/react-query';
import { Modal, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { roleLabel } from '../../../components/pickers';
import { listQueryOptions } from '../../../lib/resource';
import { USER_STATE_COLORS } from '../../../lib/user-state';

/** The users holding a role (v2/user/role/rela/list, paged). */
export const RoleUsersModal = ({ role, onClose }: { role: RoleRow | null; onClose: () => void }) => {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState({ no: 1, size: PAGE_SIZE_DEFAULT });
  const users = useQuery({
    ...listQueryOptions(USER_API.roleRelaList, { role_id: role?.id, page_no: page.no, page_size: page.size }),
    enabled: role !== null,
  });
  return (
    <Modal
      open={role !== null}
      title={role ? t('role.users_title', { name: roleLabel(role, i18n) }) : ''}
      onCancel={onClose}
      footer={null}
      width={720}
      destroyOnHidden
      afterClose={() => setPage({ no: 1, size: PAGE_SIZE_DEFAULT })}
    >
      <Table<UserRow>
        aria-label={t('role.users')}
        rowKey="id"
        size="small"
        loading={users.isFetching}
        dataSource={users.data?.rows ?? []}
        scroll={{ x: 'max-content' }}
        columns={[
          { key: 'user_id', dataIndex: 'user_id', title: t('user.fields.user_id') },
          { key: 'user_name', dataIndex: 'user_name', title: t('user.fields.user_name') },
          { key: 'comp_name', dataIndex: 'comp_name', title: t('user.fields.comp_name') },
          {
            key: 'state',
            dataIndex: 'state',
            title: t('user.fields.state'),
            render: (v: number) => <Tag color={USER_STATE_COLORS[v as 1 | 2]}>{t(`user.states.${v}`)}</Tag>,
          },
        ]}
        pagination={{
          current: page.no,
          pageSize: page.size,
          total: users.data?.count ?? 0,
          onChange: (no, size) => setPage({ no, size }),
          showTotal: (total: number) => t('common.total', { count: total }),
        }}
      />
    </Modal>
  );
};
