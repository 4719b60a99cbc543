import { AuditOutlined, BankOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { CompanyState, USER_API } from '@iot/contract';
import { useQuery } from '@tanstack/react-query';
import { Col, Flex, Row, Statistic, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Panel } from '../../components/panel';
import { useAccess } from '../../lib/access';
import type { AreaName } from '../../lib/i18n';
import { currentLanguage } from '../../lib/i18n';
import type { LabelKey } from '../../lib/labels';
import { withLang } from '../../lib/lang';
import { countQueryOptions } from '../../lib/resource';
import { useSessionInfo } from '../../lib/session';
import DeviceTrendCard from './device-trend-card';
import TopAppsCard from './top-apps-card';

interface CountCardProps {
  title: LabelKey;
  icon: ReactNode;
  /** The list counted (its `count`, read with page_size 1). */
  list: typeof USER_API.companyList | typeof USER_API.accountList | typeof USER_API.roleList;
  params?: { state?: number };
  /** Where the card leads (a route with its filter), with its link text. */
  link?: { to: string; search: string; label: LabelKey };
}

const CountCard = ({ title, icon, list, params = {}, link }: CountCardProps) => {
  const { t } = useTranslation();
  const count = useQuery(countQueryOptions(list, params));
  return (
    <Panel style={{ height: '100%' }}>
      <Flex justify="space-between" align="flex-end" gap={8}>
        <Statistic title={t(title)} value={count.data ?? '–'} prefix={icon} loading={count.isLoading} />
        {link && <Link to={{ pathname: link.to, search: withLang(link.search, currentLanguage()) }}>{t(link.label)}</Link>}
      </Flex>
    </Panel>
  );
};

/** The message areas this page uses (locales/areas.ts). */
export const areas: readonly AreaName[] = ['appdata', 'stats'];

/** Overview: counts of what the user may see (lists read with page_size 1). */
export default function DashboardPage() {
  const { t } = useTranslation();
  const session = useSessionInfo();
  const access = useAccess();
  const user = session?.user;
  const allCards: (CountCardProps & { key: string; show: boolean })[] = [
    { key: 'companies', title: 'dashboard.companies', icon: <BankOutlined />, list: USER_API.companyList, show: true },
    {
      key: 'pending',
      title: 'dashboard.pending_companies',
      icon: <AuditOutlined />,
      list: USER_API.companyList,
      params: { state: CompanyState.PENDING },
      link: { to: '/operate/company', search: `?state=${CompanyState.PENDING}`, label: 'dashboard.review_pending' },
      show: access.can('operate/company'),
    },
    {
      key: 'users',
      title: 'dashboard.users',
      icon: <UserOutlined />,
      list: USER_API.accountList,
      show: access.can('operate/user'),
    },
    {
      key: 'roles',
      title: 'dashboard.roles',
      icon: <TeamOutlined />,
      list: USER_API.roleList,
      show: access.can('system/role'),
    },
  ];
  const cards = allCards.filter((c) => c.show);
  return (
    <div>
      <Typography.Title level={1} style={{ fontSize: 22, marginTop: 0 }}>
        {t('dashboard.welcome', { name: user?.user_name || user?.user_id || '' })}
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        {t('dashboard.company')}: {user?.comp_name ?? '–'} · {t('dashboard.role')}: {user?.role_name ?? '–'}
      </Typography.Paragraph>
      <Row gutter={[16, 16]}>
        {cards.map(({ key, show: _shown, ...card }) => (
          <Col key={key} xs={24} sm={12} lg={6}>
            <CountCard {...card} />
          </Col>
        ))}
        {access.can('info/dev') && (
          <Col xs={24} xl={14}>
            <DeviceTrendCard />
          </Col>
        )}
        {access.can('info/user') && (
          <Col xs={24} xl={10}>
            <TopAppsCard />
          </Col>
        )}
      </Row>
    </div>
  );
}
