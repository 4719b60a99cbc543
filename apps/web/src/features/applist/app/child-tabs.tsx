import { APP_RESOURCE_URL_TYPES, type AppCfgRow, type AppResourceRow } from '@iot/contract';
import { Image, Input, InputNumber, Space, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Fields } from '../../../components/field-config';
import { type Columns, ResourceTable } from '../../../components/resource-table';
import { ImageUpload } from '../../../shared/upload/image-upload';
import { cfgRows, detailRows, resourceRows, urlRows } from './app-resources';
import { RowsEditor } from './rows-editor';

const STATE_COLORS = { 1: 'green', 2: 'default' };
const useBase = (appId: number, field = 'app_id') => useMemo(() => ({ [field]: appId }), [appId, field]);

/** An app's detail per client type (web, android, ios, mac, ipad, pc): one each. */
export const DetailTab = ({ appId }: { appId: number }) => {
  const base = useBase(appId);
  const columns: Columns<typeof detailRows> = [
    { key: 'client_type', enumLabels: 'apps.client_types', sorter: true },
    { key: 'app_packet' },
    { key: 'rela_id' },
    { key: 'state', enumLabels: 'apps.states', tagColors: STATE_COLORS },
    { key: 'gmt_update', time: true },
  ];
  const form: Fields<'apps.detail'> = [
    { name: 'client_type', enumLabels: 'apps.client_types' },
    { name: 'app_packet', extra: 'apps.detail.app_packet_hint' },
    { name: 'rela_id', extra: 'apps.detail.rela_id_hint' },
    { name: 'state', enumLabels: 'apps.states' },
  ];
  return (
    <ResourceTable
      resource={detailRows}
      label="apps.tabs.details"
      columns={columns}
      form={form}
      baseParams={base}
      addFixed={base}
      titles={{ add: 'apps.detail.add_title', edit: 'apps.detail.edit_title' }}
    />
  );
};

/** Store addresses per platform and language: where an iPhone is sent (App Store). */
export const UrlTab = ({ appId }: { appId: number }) => {
  const base = useBase(appId);
  const columns: Columns<typeof urlRows> = [
    { key: 'platform', enumLabels: 'apps.platforms', sorter: true },
    { key: 'lang', sorter: true },
    {
      key: 'url',
      render: (v: unknown) => (
        <Typography.Link href={String(v)} target="_blank" rel="noopener">
          {String(v)}
        </Typography.Link>
      ),
    },
  ];
  const form: Fields<'apps.url'> = [
    { name: 'platform', enumLabels: 'apps.platforms' },
    { name: 'lang', extra: 'apps.lang_hint' },
    { name: 'url', extra: 'apps.url.url_hint' },
  ];
  return (
    <ResourceTable
      resource={urlRows}
      label="apps.tabs.urls"
      columns={columns}
      form={form}
      baseParams={base}
      addFixed={base}
      titles={{ add: 'apps.url.add_title', edit: 'apps.url.edit_title' }}
    />
  );
};

/** Image and url resources per language (`key` is what the app asks for). */
export const ResourceTab = ({ appId }: { appId: number }) => {
  const { t } = useTranslation();
  const base = useBase(appId, 'master_id');
  const columns: Columns<typeof resourceRows> = [
    { key: 'key', sorter: true, render: (v: unknown) => <Typography.Text code>{String(v)}</Typography.Text> },
    { key: 'state', enumLabels: 'apps.states', tagColors: STATE_COLORS },
    {
      key: 'urls',
      render: (_: unknown, r: AppResourceRow) => (
        <Space size={4} wrap>
          {r.urls.map((u) => (
            <Tag key={`${u.lang}|${u.type}`} color={u.type === 1 ? 'blue' : 'purple'}>
              {`${u.lang} · ${t(`apps.resource.url_types.${u.type}`)}`}
            </Tag>
          ))}
        </Space>
      ),
    },
    { key: 'gmt_update', time: true },
  ];
  const form = useMemo<Fields<'apps.resource'>>(
    () => [
      { name: 'key', extra: 'apps.resource.key_hint' },
      { name: 'state', enumLabels: 'apps.states' },
      {
        name: 'urls',
        widget: 'custom',
        wide: true,
        control: (
          <RowsEditor
            itemLabel="apps.resource.url.lang"
            addLabel="apps.resource.add_url"
            blank={{ lang: '', url: '', param: '', type: 1 }}
            columns={[
              { name: 'lang', label: 'apps.resource.url.lang', width: 90, placeholder: 'en' },
              { name: 'url', label: 'apps.resource.url.url', width: 300, placeholder: 'https://' },
              { name: 'param', label: 'apps.resource.url.param', width: 140 },
              {
                name: 'type',
                label: 'apps.resource.url.type',
                widget: 'select',
                width: 120,
                options: APP_RESOURCE_URL_TYPES.map((v) => ({ value: v, label: t(`apps.resource.url_types.${v}`) })),
              },
            ]}
          />
        ),
      },
    ],
    [t],
  );
  return (
    <ResourceTable
      resource={resourceRows}
      label="apps.tabs.resources"
      columns={columns}
      form={form}
      formColumns={2}
      baseParams={base}
      addFixed={base}
      titles={{ add: 'apps.resource.add_title', edit: 'apps.resource.edit_title' }}
    />
  );
};

type DkLimit = AppCfgRow['dk_limit'];

/** Form control of the device-key limits (the revision `ver_num` is the server's). */
const DkLimitEditor = ({ value, onChange, id }: { value?: DkLimit; onChange?: (v: DkLimit) => void; id?: string }) => {
  const { t } = useTranslation();
  const v = value ?? { oem_prefix: '', pri_dk: 0, pub_dk: 0, ver_num: 0 };
  return (
    <Space id={id} wrap>
      <Input
        aria-label={t('apps.cfg.oem_prefix')}
        placeholder={t('apps.cfg.oem_prefix')}
        style={{ width: 160 }}
        value={v.oem_prefix}
        onChange={(e) => onChange?.({ ...v, oem_prefix: e.target.value })}
      />
      <InputNumber
        aria-label={t('apps.cfg.pri_dk')}
        placeholder={t('apps.cfg.pri_dk')}
        min={0}
        style={{ width: 160 }}
        value={v.pri_dk}
        onChange={(n) => onChange?.({ ...v, pri_dk: n ?? 0 })}
      />
      <InputNumber
        aria-label={t('apps.cfg.pub_dk')}
        placeholder={t('apps.cfg.pub_dk')}
        min={0}
        style={{ width: 160 }}
        value={v.pub_dk}
        onChange={(n) => onChange?.({ ...v, pub_dk: n ?? 0 })}
      />
    </Space>
  );
};

/** The app's config: image and device-key limits (0 = unlimited). */
export const CfgTab = ({ appId }: { appId: number }) => {
  const { t } = useTranslation();
  const base = useBase(appId);
  const limit = (k: keyof DkLimit) => (_: unknown, r: AppCfgRow) =>
    k === 'oem_prefix' ? r.dk_limit[k] || t('apps.cfg.any') : r.dk_limit[k] || (k === 'ver_num' ? 0 : t('apps.cfg.unlimited'));
  const columns: Columns<typeof cfgRows> = [
    {
      key: 'img',
      render: (_: unknown, r: AppCfgRow) =>
        r.img_url ? <Image src={r.img_url} alt={t('apps.cfg.fields.img')} width={48} height={48} style={{ objectFit: 'contain' }} /> : '',
    },
    { key: 'oem_prefix', title: 'apps.cfg.oem_prefix', render: limit('oem_prefix') },
    { key: 'pri_dk', title: 'apps.cfg.pri_dk', render: limit('pri_dk') },
    { key: 'pub_dk', title: 'apps.cfg.pub_dk', render: limit('pub_dk') },
    { key: 'ver_num', title: 'apps.cfg.ver_num', render: limit('ver_num') },
    { key: 'gmt_update', time: true },
  ];
  const form: Fields<'apps.cfg'> = [
    { name: 'img', widget: 'custom', control: <ImageUpload /> },
    { name: 'dk_limit', widget: 'custom', extra: 'apps.cfg.dk_limit_hint', control: <DkLimitEditor /> },
  ];
  return (
    <ResourceTable
      resource={cfgRows}
      label="apps.tabs.config"
      columns={columns}
      form={form}
      baseParams={base}
      titles={{ edit: 'apps.cfg.edit_title' }}
    />
  );
};
