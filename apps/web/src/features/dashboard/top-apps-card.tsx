import { APPDATA_API } from '@iot/contract';
import { useQuery } from '@tanstack/react-query';
import { Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Panel } from '../../components/panel';
import { currentLanguage } from '../../lib/i18n';
import { withLang } from '../../lib/lang';
import { listQueryOptions } from '../../lib/resource';

/** Dashboard: the top 5 apps in scope by daily active users of the last 30 days (holders of info/user). */
export default function TopAppsCard() {
  const { t } = useTranslation();
  const apps = useQuery(listQueryOptions(APPDATA_API.appRank, {}));
  return (
    <Panel
      title={t('appdata.stats.card_title')}
      extra={<Link to={{ pathname: '/info/user', search: withLang('', currentLanguage()) }}>{t('appdata.stats.card_link')}</Link>}
      style={{ height: '100%' }}
    >
      <Table
        aria-label={t('appdata.stats.card_title')}
        rowKey={(r) => `${r.app_id}-${r.comp_id}`}
        size="small"
        pagination={false}
        loading={apps.isLoading}
        dataSource={apps.data?.rows ?? []}
        columns={[
          {
            key: 'app_name',
            dataIndex: 'app_name',
            title: t('appdata.stats.fields.app_name'),
            render: (n: string | null, r) => n ?? `#${r.app_id}`,
          },
          {
            key: 'comp_name',
            dataIndex: 'comp_name',
            title: t('appdata.stats.fields.comp_name'),
            render: (n: string | null, r) => n ?? r.comp_id,
          },
          { key: 'active_users', dataIndex: 'active_users', title: t('appdata.stats.card_active'), align: 'right' },
          { key: 'users', dataIndex: 'users', title: t('appdata.stats.fields.users'), align: 'right' },
        ]}
      />
    </Panel>
  );
}
