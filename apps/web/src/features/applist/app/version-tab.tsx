import { QrcodeOutlined } from '@ant-design/icons';
import { APP_ZONE_TYPES, type AppVersionRow, appDownloadLink } from '@iot/contract';
import { Modal, Select, Space, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Fields } from '../../../components/field-config';
import { type Columns, ResourceTable, type RowAction } from '../../../components/resource-table';
import { versionRows } from './app-resources';
import { DownloadQr } from './download-qr';
import { RowsEditor } from './rows-editor';

const STATE_COLORS = { 1: 'green', 2: 'default' };

/** The QR code of one version in one of its languages. */
const VersionQr = ({ version, onClose }: { version: AppVersionRow | null; onClose: () => void }) => {
  const { t } = useTranslation();
  const langs = useMemo(() => [...new Set((version?.details ?? []).map((d) => d.lang))], [version]);
  const [picked, setPicked] = useState<string | null>(null);
  const lang = picked && langs.includes(picked) ? picked : (langs[0] ?? '');
  const link = version ? `${window.location.origin}${appDownloadLink(version.app_id, { ver: version.ver, lang })}` : '';
  return (
    <Modal
      open={version !== null}
      title={t('apps.qr.title', { ver: version?.ver ?? '' })}
      footer={null}
      onCancel={() => {
        setPicked(null);
        onClose();
      }}
      destroyOnHidden
    >
      {version && (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Space>
            <Typography.Text>{t('apps.qr.language')}</Typography.Text>
            <Select
              aria-label={t('apps.qr.language')}
              style={{ minWidth: 140 }}
              value={lang}
              options={langs.map((l) => ({ value: l, label: l }))}
              onChange={setPicked}
            />
          </Space>
          {version.state !== 1 && <Typography.Text type="warning">{t('apps.qr.delisted')}</Typography.Text>}
          <Typography.Text type="secondary">{t('apps.qr.hint')}</Typography.Text>
          <DownloadQr
            link={link}
            fileName={`${version.app_name}-${version.ver}-${lang}`}
            label={t('apps.qr.label', { ver: version.ver, lang })}
          />
        </Space>
      )}
    </Modal>
  );
};

/** An app's versions, newest first (numerically), each with its details per language and zone. */
export const VersionTab = ({ appId }: { appId: number }) => {
  const { t } = useTranslation();
  const [qr, setQr] = useState<AppVersionRow | null>(null);
  const base = useMemo(() => ({ app_id: appId }), [appId]);

  const columns: Columns<typeof versionRows> = [
    { key: 'ver', sorter: true, render: (v: unknown) => <Typography.Text strong>{String(v)}</Typography.Text> },
    { key: 'name' },
    { key: 'force', enumLabels: 'apps.version.force_values', tagColors: { 1: 'red', 0: 'default' } },
    { key: 'state', enumLabels: 'apps.version.states', tagColors: STATE_COLORS, sorter: true },
    {
      key: 'details',
      render: (_: unknown, r: AppVersionRow) => (
        <Space size={4} wrap>
          {r.details.map((d) => (
            <Tag key={`${d.lang}|${d.zone}`}>{d.zone ? `${d.lang} · ${d.zone}` : d.lang}</Tag>
          ))}
        </Space>
      ),
    },
    { key: 'gmt_create', time: true, sorter: true },
  ];

  const form = useMemo<Fields<'apps.version'>>(
    () => [
      { name: 'ver', extra: 'apps.version.ver_hint' },
      { name: 'name' },
      { name: 'force', widget: 'switch' },
      { name: 'state', enumLabels: 'apps.version.states' },
      {
        name: 'details',
        widget: 'custom',
        wide: true,
        extra: 'apps.version.details_hint',
        control: (
          <RowsEditor
            itemLabel="apps.version.detail.lang"
            addLabel="apps.version.add_detail"
            blank={{ lang: '', url: '', title: '', content: '', zone: '', size: 0, zone_type: 0 }}
            columns={[
              { name: 'lang', label: 'apps.version.detail.lang', width: 90, placeholder: 'en' },
              { name: 'url', label: 'apps.version.detail.url', width: 300, placeholder: 'https://' },
              { name: 'title', label: 'apps.version.detail.title', width: 160 },
              { name: 'content', label: 'apps.version.detail.content', widget: 'textarea', width: 260 },
              { name: 'zone', label: 'apps.version.detail.zone', width: 90 },
              {
                name: 'zone_type',
                label: 'apps.version.detail.zone_type',
                widget: 'select',
                width: 130,
                options: APP_ZONE_TYPES.map((z) => ({ value: z, label: t(`apps.version.zone_types.${z}`) })),
              },
              { name: 'size', label: 'apps.version.detail.size', widget: 'number', width: 130 },
            ]}
          />
        ),
      },
    ],
    [t],
  );

  const rowActions: RowAction<AppVersionRow>[] = [{ key: 'qr', label: 'apps.qr.show', icon: <QrcodeOutlined />, onClick: setQr }];

  return (
    <>
      <ResourceTable
        resource={versionRows}
        label="apps.tabs.versions"
        columns={columns}
        form={form}
        formColumns={2}
        baseParams={base}
        addFixed={base}
        rowActions={rowActions}
        titles={{ add: 'apps.version.add_title', edit: 'apps.version.edit_title' }}
        expandable={{
          expandedRowRender: (r: AppVersionRow) => (
            <Space orientation="vertical" style={{ width: '100%' }}>
              {r.details.map((d) => (
                <div key={`${d.lang}|${d.zone}`}>
                  <Typography.Text strong>{d.zone ? `${d.lang} · ${d.zone}` : d.lang}</Typography.Text>{' '}
                  <Typography.Link href={d.url} target="_blank" rel="noopener">
                    {d.url}
                  </Typography.Link>{' '}
                  {d.title && <Typography.Text>{d.title}</Typography.Text>}
                  {d.content && (
                    <Typography.Paragraph type="secondary" style={{ whiteSpace: 'pre-line', marginBottom: 0 }}>
                      {d.content}
                    </Typography.Paragraph>
                  )}
                </div>
              ))}
            </Space>
          ),
        }}
      />
      <VersionQr version={qr} onClose={() => setQr(null)} />
    </>
  );
};
