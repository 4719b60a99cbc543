import { SendOutlined } from '@ant-design/icons';
import { PROVIDERS_OF_CHANNEL, PUSH_API, type PushProvider } from '@iot/contract';
import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Fields } from '../../../components/field-config';
import { type Columns, ResourceTable } from '../../../components/resource-table';
import type { AreaName } from '../../../lib/i18n';
import { defineResource } from '../../../lib/resource';
import { useTestSend } from '../../../shared/messaging/test-send';
import { SecretFileInput } from './secret-file-input';

/** Push platforms (one provider account each) and apps' vendor message platforms (applist/flatform). */
const platforms = defineResource({
  labels: 'push_platform',
  list: PUSH_API.pushPlatformList,
  add: PUSH_API.pushPlatformAdd,
  set: PUSH_API.pushPlatformSet,
  del: PUSH_API.pushPlatformDel,
  id: 'id',
});
const msgPlatforms = defineResource({
  labels: 'msg_platform',
  list: PUSH_API.msgPlatformList,
  add: PUSH_API.msgPlatformAdd,
  set: PUSH_API.msgPlatformSet,
  del: PUSH_API.msgPlatformDel,
  id: 'id',
});

/** The settings each provider reads (docs/api.md, "Push platforms"). */
const uses = (...providers: PushProvider[]) => ({ showWhen: { field: 'platform', values: providers } });
const secretHint = { extra: 'push_platform.secret_hint' } as const;

const platformColumns: Columns<typeof platforms> = [
  { key: 'name', sorter: true },
  { key: 'type', enumLabels: 'push_platform.channels', sorter: true },
  { key: 'platform', enumLabels: 'push_platform.providers', sorter: true },
  { key: 'state', enumLabels: 'push_platform.states', tagColors: { 1: 'green', 2: 'default' } },
  { key: 'comp_name' },
  { key: 'gmt_update', time: true, sorter: true },
];
const platformFilters: Fields<'push_platform'> = [
  { name: 'name' },
  { name: 'type', enumLabels: 'push_platform.channels' },
  { name: 'state', enumLabels: 'push_platform.states' },
  { name: 'comp_id' },
];
const platformForm: Fields<'push_platform'> = [
  { name: 'name' },
  { name: 'type', enumLabels: 'push_platform.channels' },
  { name: 'platform', enumLabels: 'push_platform.providers', choicesWhen: { field: 'type', values: PROVIDERS_OF_CHANNEL } },
  { name: 'state', enumLabels: 'push_platform.states' },
  { name: 'comp_id', disabledOnEdit: true },
  { name: 'area_type', enumLabels: 'push_platform.areas' },
  { name: 'zone' },
  { name: 'endpoint', ...uses('aliyun_sms', 'tencent_sms', 'apns', 'fcm', 'xiaomi', 'oppo', 'huawei', 'vivo', 'honor', 'webhook') },
  { name: 'smtp_addr', ...uses('smtp') },
  { name: 'smtp_port', ...uses('smtp') },
  { name: 'ssl', enumLabels: 'push_platform.ssl_values', ...uses('smtp') },
  { name: 'user_id', ...uses('smtp') },
  { name: 'password', widget: 'password', ...secretHint, ...uses('smtp') },
  { name: 'sign_name', ...uses('smtp', 'aliyun_sms', 'tencent_sms') },
  { name: 'app_id', ...uses('tencent_sms', 'apns', 'fcm', 'xiaomi', 'huawei', 'vivo', 'honor') },
  { name: 'secret_id', ...uses('tencent_sms', 'apns', 'fcm', 'huawei', 'honor') },
  { name: 'key_id', ...uses('aliyun_sms', 'apns', 'oppo', 'vivo') },
  { name: 'secret_key', widget: 'password', ...secretHint, ...uses('tencent_sms', 'xiaomi', 'oppo', 'huawei', 'vivo', 'honor', 'webhook') },
  { name: 'key_secret', widget: 'textarea', wide: true, ...secretHint, ...uses('aliyun_sms', 'apns', 'fcm') },
];

const msgColumns: Columns<typeof msgPlatforms> = [
  { key: 'app_id', sorter: true },
  { key: 'type', enumLabels: 'msg_platform.vendors' },
  { key: 'access_id' },
  { key: 'open_type', enumLabels: 'msg_platform.open_types' },
  { key: 'comp_name' },
  { key: 'gmt_update', time: true, sorter: true },
];
const msgFilters: Fields<'msg_platform'> = [{ name: 'app_id' }, { name: 'type', enumLabels: 'msg_platform.vendors' }, { name: 'comp_id' }];
const msgForm: Fields<'msg_platform'> = [
  { name: 'app_id' },
  { name: 'type', enumLabels: 'msg_platform.vendors' },
  { name: 'comp_id', disabledOnEdit: true },
  { name: 'access_id' },
  { name: 'access_key', widget: 'password', extra: 'push_platform.secret_hint' },
  { name: 'secret_key', widget: 'password', extra: 'push_platform.secret_hint' },
  { name: 'xm_ch_id', showWhen: { field: 'type', values: [1] } },
  { name: 'oppo_ch_id', showWhen: { field: 'type', values: [2] } },
  { name: 'open_type', enumLabels: 'msg_platform.open_types' },
  { name: 'open_param' },
  { name: 'secret_file', wide: true, widget: 'custom', control: <SecretFileInput />, extra: 'msg_platform.file.hint' },
];

/** The message areas this page uses (locales/areas.ts). */
export const areas: readonly AreaName[] = ['messaging'];

export default function FlatformPage() {
  const { t } = useTranslation();
  const test = useTestSend();
  return (
    <>
      {test.modal}
      <Tabs
        destroyOnHidden
        items={[
          {
            key: 'push',
            label: t('flatform.tabs.push'),
            children: (
              <ResourceTable
                resource={platforms}
                columns={platformColumns}
                filters={platformFilters}
                form={platformForm}
                formColumns={2}
                rowActions={[
                  {
                    key: 'test',
                    label: 'push_platform.test_send',
                    icon: <SendOutlined />,
                    onClick: (row) => test.open({ kind: 'platform', id: row.id, name: row.name }),
                  },
                ]}
              />
            ),
          },
          {
            key: 'msg',
            label: t('flatform.tabs.msg'),
            children: <ResourceTable resource={msgPlatforms} columns={msgColumns} filters={msgFilters} form={msgForm} formColumns={2} />,
          },
        ]}
      />
    </>
  );
}
