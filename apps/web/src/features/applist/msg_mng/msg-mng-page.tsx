import { PUSH_API } from '@iot/contract';
import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Fields } from '../../../components/field-config';
import { type Columns, ResourceTable } from '../../../components/resource-table';
import type { AreaName } from '../../../lib/i18n';
import { defineResource } from '../../../lib/resource';

/** Message templates (types 1–12, per language) and the event configs that send them (applist/msg_mng). */
const templates = defineResource({
  labels: 'msg_template',
  list: PUSH_API.msgTemplateList,
  add: PUSH_API.msgTemplateAdd,
  set: PUSH_API.msgTemplateSet,
  del: PUSH_API.msgTemplateDel,
  id: 'id',
});
const events = defineResource({
  labels: 'event_cfg',
  list: PUSH_API.eventCfgList,
  add: PUSH_API.eventCfgAdd,
  set: PUSH_API.eventCfgSet,
  del: PUSH_API.eventCfgDel,
  id: 'id',
});

const templateColumns: Columns<typeof templates> = [
  { key: 'name', sorter: true },
  { key: 'type', enumLabels: 'msg_template.types', sorter: true },
  { key: 'lang', enumLabels: 'message_langs', sorter: true },
  { key: 'title' },
  { key: 'comp_name' },
  { key: 'gmt_update', time: true, sorter: true },
];
const templateFilters: Fields<'msg_template'> = [
  { name: 'name' },
  { name: 'type', enumLabels: 'msg_template.types' },
  { name: 'lang', enumLabels: 'message_langs' },
  { name: 'comp_id' },
];
const templateForm: Fields<'msg_template'> = [
  { name: 'name' },
  { name: 'type', enumLabels: 'msg_template.types' },
  { name: 'lang', enumLabels: 'message_langs' },
  { name: 'comp_id', disabledOnEdit: true },
  { name: 'title', wide: true },
  { name: 'body', widget: 'textarea', wide: true, extra: 'msg_template.body_hint' },
];

const eventColumns: Columns<typeof events> = [
  { key: 'name', sorter: true },
  { key: 'type', enumLabels: 'msg_template.types', sorter: true },
  { key: 'app_id' },
  { key: 'channels', render: (v: number[], _row, _i) => <ChannelList values={v} /> },
  { key: 'state', enumLabels: 'event_cfg.states', tagColors: { 1: 'green', 2: 'default' } },
  { key: 'comp_name' },
  { key: 'remark' },
];
const eventFilters: Fields<'event_cfg'> = [
  { name: 'type', enumLabels: 'msg_template.types' },
  { name: 'state', enumLabels: 'event_cfg.states' },
  { name: 'comp_id' },
];
const eventForm: Fields<'event_cfg'> = [
  { name: 'name' },
  { name: 'type', enumLabels: 'msg_template.types' },
  { name: 'app_id' },
  { name: 'channels', enumLabels: 'event_cfg.channels' },
  { name: 'state', enumLabels: 'event_cfg.states' },
  { name: 'comp_id', disabledOnEdit: true },
  { name: 'remark', wide: true },
];

const ChannelList = ({ values }: { values: number[] }) => {
  const { t } = useTranslation();
  return <>{values.map((v) => t(`event_cfg.channels.${v}` as 'event_cfg.channels.1')).join(', ')}</>;
};

/** The message areas this page uses (locales/areas.ts). */
export const areas: readonly AreaName[] = ['messaging'];

export default function MsgMngPage() {
  const { t } = useTranslation();
  return (
    <Tabs
      destroyOnHidden
      items={[
        {
          key: 'templates',
          label: t('msg_mng.tabs.templates'),
          children: (
            <ResourceTable resource={templates} columns={templateColumns} filters={templateFilters} form={templateForm} formColumns={2} />
          ),
        },
        {
          key: 'events',
          label: t('msg_mng.tabs.events'),
          children: <ResourceTable resource={events} columns={eventColumns} filters={eventFilters} form={eventForm} formColumns={2} />,
        },
      ]}
    />
  );
}
