import { BankOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { API } from '@iot/contract';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Row, Statistic, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useAccess } from '../../lib/access';
import { countQueryOptions } from '../../lib/resource';
import { useSessionInfo } from '../../lib/session';

const CountCard = ({ title, icon, path, name }: { title: string; icon: ReactNode; path: string; name: string }) => {
  const { t } = useTranslation();
  const count = useQuery(countQueryOptions(name, path));
  return (
    <Card>
      <Statistic title={t(title)} value={count.data ?? '–'} prefix={icon} loading={count.isLoading} />
    </Card>
  );
};

/** Overview: counts of what the user may see (lists read with page_size 1). */
export default function DashboardPage() {
  const { t } = useTranslation();
  const session = useSessionInfo();
  const access = useAccess();
  const user = session?.user;
  const cards = [
    { key: 'companies', title: 'dashboard.companies', icon: <BankOutlined />, path: API.companyList.path, name: 'company', show: true },
    {
      key: 'users',
      title: 'dashboard.users',
      icon: <UserOutlined />,
      path: API.accountList.path,
      name: 'account',
      show: access.can('operate/user'),
    },
    {
      key: 'roles',
      title: 'dashboard.roles',
      icon: <TeamOutlined />,
      path: API.roleList.path,
      name: 'role',
      show: access.can('system/role'),
    },
  ].filter((c) => c.show);
  return (
    <div>
      <Typography.Title level={1} style={{ fontSize: 22, marginTop: 0 }}>
        {t('dashboard.welcome', { name: user?.user_name || user?.user_id || '' })}
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        {t('dashboard.company')}: {user?.comp_name ?? '–'} · {t('dashboard.role')}: {user?.role_name ?? '–'}
      </Typography.Paragraph>
      <Row gutter={[16, 16]}>
        {cards.map((c) => (
          <Col key={c.key} xs={24} sm={12} lg={8}>
            <CountCard title={c.title} icon={c.icon} path={c.path} name={c.name} />
          </Col>
        ))}
      </Row>
    </div>
  );
}
