import { AppstoreOutlined, KeyOutlined } from '@ant-design/icons';
import { APP_API, type AppPlatform, type AppRow, appDownloadLink } from '@iot/contract';
import { Button, Drawer, Tabs, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Fields } from '../../../components/field-config';
import { useCompanyTreeData } from '../../../components/pickers';
import { type Columns, ResourceTable, type RowAction } from '../../../components/resource-table';
import { toastSuccess } from '../../../lib/feedback';
import { formatTime } from '../../../lib/format';
import type { AreaName } from '../../../lib/i18n';
import { useIsMobile } from '../../../lib/use-mobile';
import { appRows } from './app-resources';
import { CfgTab, DetailTab, ResourceTab, UrlTab } from './child-tabs';
import { DownloadQr } from './download-qr';
import { KeyModal, type ShownKeys } from './key-modal';
import { VersionTab } from './version-tab';

const TYPE_COLORS = { 1: 'blue', 2: 'purple', 3: 'cyan' };
const maskedKey = (v: unknown) => (v ? <Typography.Text code>{String(v)}</Typography.Text> : '');

/** One app's children in tabs: details per client, versions (with QR codes), store urls, resources, config. */
const AppDrawer = ({ app, onClose }: { app: AppRow | null; onClose: () => void }) => {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const appId = app?.id ?? 0;
  return (
    <Drawer open={app !== null} title={app?.name} size={isMobile ? '100%' : 1100} onClose={onClose} destroyOnHidden>
      {app && (
        <Tabs
          destroyOnHidden
          items={[
            { key: 'versions', label: t('apps.tabs.versions'), children: <VersionTab appId={appId} /> },
            { key: 'details', label: t('apps.tabs.details'), children: <DetailTab appId={appId} /> },
            { key: 'urls', label: t('apps.tabs.urls'), children: <UrlTab appId={appId} /> },
            { key: 'resources', label: t('apps.tabs.resources'), children: <ResourceTab appId={appId} /> },
            { key: 'config', label: t('apps.tabs.config'), children: <CfgTab appId={appId} /> },
            {
              key: 'link',
              label: t('apps.tabs.link'),
              children: (
                <>
                  <Typography.Paragraph type="secondary">{t('apps.qr.app_hint')}</Typography.Paragraph>
                  <DownloadQr
                    link={`${window.location.origin}${appDownloadLink(appId)}`}
                    fileName={app.name}
                    label={t('apps.qr.app_label', { name: app.name })}
                  />
                </>
              ),
            },
          ]}
        />
      )}
    </Drawer>
  );
};

/** The message areas this page uses (locales/areas.ts). */
export const areas: readonly AreaName[] = ['apps', 'product'];

/** Apps (applist/app): list, add/edit, keys shown once and rotated, and each app's drawer. */
export default function AppPage() {
  const { t } = useTranslation();
  const companies = useCompanyTreeData();
  const [open, setOpen] = useState<AppRow | null>(null);
  const [shown, setShown] = useState<ShownKeys | null>(null);
  const rotate = appRows.useAction(APP_API.appKeyRotate);

  const columns: Columns<typeof appRows> = [
    {
      key: 'name',
      sorter: true,
      render: (_: unknown, r: AppRow) => (
        <Button type="link" style={{ padding: 0 }} onClick={() => setOpen(r)}>
          {r.name}
        </Button>
      ),
    },
    { key: 'comp_name', sorter: 'comp_id' },
    { key: 'type', enumLabels: 'apps.types', tagColors: TYPE_COLORS, sorter: true },
    { key: 'package_name_ios' },
    { key: 'package_name_android' },
    { key: 'app_key_ios', render: maskedKey },
    { key: 'app_key_android', render: maskedKey },
    { key: 'gmt_expire', sorter: true, render: (v: unknown) => (v ? formatTime(v) : t('apps.never')) },
    { key: 'gmt_create', time: true, sorter: true },
  ];

  const filters = useMemo<Fields<'apps'>>(
    () => [{ name: 'name' }, { name: 'comp_id', widget: 'tree-select', treeData: companies }, { name: 'type', enumLabels: 'apps.types' }],
    [companies],
  );
  const form = useMemo<Fields<'apps'>>(
    () => [
      { name: 'name' },
      { name: 'comp_id', widget: 'tree-select', treeData: companies, only: 'add', extra: 'apps.comp_hint' },
      { name: 'type', enumLabels: 'apps.types' },
      { name: 'gmt_expire', widget: 'date', extra: 'apps.gmt_expire_hint' },
      { name: 'package_name_ios', extra: 'apps.package_hint' },
      { name: 'package_name_android', extra: 'apps.package_hint' },
    ],
    [companies],
  );

  const rotateKey = (platform: AppPlatform) => async (r: AppRow) => {
    const answer = await rotate.mutateAsync({ id: r.id, platform }).catch(() => null);
    if (!answer) return;
    toastSuccess(t('apps.keys.rotated'));
    setShown({ appName: r.name, keys: [{ platform, key: platform === 'ios' ? answer.app_key_ios : answer.app_key_android }] });
  };
  const rowActions: RowAction<AppRow>[] = [
    { key: 'open', label: 'apps.manage', icon: <AppstoreOutlined />, onClick: setOpen },
    {
      key: 'rotate_ios',
      label: 'apps.keys.rotate_ios',
      icon: <KeyOutlined />,
      confirm: 'apps.keys.rotate_confirm',
      onClick: rotateKey('ios'),
    },
    {
      key: 'rotate_android',
      label: 'apps.keys.rotate_android',
      icon: <KeyOutlined />,
      confirm: 'apps.keys.rotate_confirm',
      onClick: rotateKey('android'),
    },
  ];

  return (
    <>
      <ResourceTable
        resource={appRows}
        label="menu.applist/app"
        columns={columns}
        filters={filters}
        form={form}
        formColumns={2}
        rowActions={rowActions}
        titles={{ add: 'apps.add_title', edit: 'apps.edit_title' }}
        onAdded={(answer) => {
          const row = answer as AppRow;
          setShown({
            appName: row.name,
            keys: [
              { platform: 'ios', key: row.app_key_ios },
              { platform: 'android', key: row.app_key_android },
            ],
          });
        }}
      />
      <KeyModal shown={shown} onClose={() => setShown(null)} />
      <AppDrawer app={open} onClose={() => setOpen(null)} />
    </>
  );
}
