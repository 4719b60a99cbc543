import { SendOutlined } from '@ant-design/icons';
import { PUSH_API } from '@iot/contract';
import { Tabs } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Fields } from '../../../components/field-config';
import { type Columns, ResourceTable } from '../../../components/resource-table';
import type { AreaName } from '../../../lib/i18n';
import { defineResource } from '../../../lib/resource';
import { usePlatformOptions, useTemplateOptions } from '../../../shared/messaging/options';
import { useTestSend } from '../../../shared/messaging/test-send';
import { TemplatePreview } from './template-preview';

/** Push templates (per code and language, with a live preview) and the links that use them (applist/template). */
const templates = defineResource({
  labels: 'push_template',
  list: PUSH_API.pushTemplateList,
  add: PUSH_API.pushTemplateAdd,
  set: PUSH_API.pushTemplateSet,
  del: PUSH_API.pushTemplateDel,
  id: 'id',
});
const links = defineResource({
  labels: 'push_link',
  list: PUSH_API.pushLinkList,
  add: PUSH_API.pushLinkAdd,
  set: PUSH_API.pushLinkSet,
  del: PUSH_API.pushLinkDel,
  id: 'id',
});

const templateColumns: Columns<typeof templates> = [
  { key: 'name', sorter: true },
  { key: 'code', sorter: true },
  { key: 'lang', enumLabels: 'message_langs', sorter: true },
  { key: 'type', enumLabels: 'push_template.channels' },
  { key: 'param', enumLabels: 'push_template.params' },
  { key: 'title' },
  { key: 'comp_name' },
  { key: 'gmt_update', time: true, sorter: true },
];
const templateFilters: Fields<'push_template'> = [
  { name: 'name' },
  { name: 'code' },
  { name: 'lang', enumLabels: 'message_langs' },
  { name: 'type', enumLabels: 'push_template.channels' },
  { name: 'comp_id' },
];
const templateForm: Fields<'push_template'> = [
  { name: 'name' },
  { name: 'code' },
  { name: 'lang', enumLabels: 'message_langs' },
  { name: 'type', enumLabels: 'push_template.channels' },
  { name: 'param', enumLabels: 'push_template.params' },
  { name: 'notify_type', enumLabels: 'push_template.notify_types' },
  { name: 'mode', enumLabels: 'push_template.modes' },
  { name: 'comp_id', disabledOnEdit: true },
  { name: 'title', wide: true },
  { name: 'body', widget: 'textarea', wide: true, extra: 'push_template.body_hint' },
  { name: 'preview', label: 'push_template.preview', widget: 'custom', wide: true, control: <TemplatePreview /> },
];

const linkColumns: Columns<typeof links> = [
  { key: 'link_type', enumLabels: 'push_link.link_types' },
  { key: 'link_id' },
  { key: 'type', enumLabels: 'push_link.types', sorter: true },
  { key: 'platform_name' },
  { key: 'template_name' },
  { key: 'comp_name' },
];
const linkFilters: Fields<'push_link'> = [
  { name: 'link_type', enumLabels: 'push_link.link_types' },
  { name: 'link_id' },
  { name: 'type', enumLabels: 'push_link.types' },
  { name: 'comp_id' },
];

/** The message areas this page uses (locales/areas.ts). */
export const areas: readonly AreaName[] = ['messaging'];

export default function TemplatePage() {
  const { t } = useTranslation();
  const test = useTestSend();
  const platforms = usePlatformOptions();
  const templateOptions = useTemplateOptions();
  const linkForm = useMemo<Fields<'push_link'>>(
    () => [
      { name: 'link_type', enumLabels: 'push_link.link_types' },
      { name: 'link_id' },
      { name: 'type', enumLabels: 'push_link.types' },
      { name: 'comp_id', disabledOnEdit: true },
      { name: 'platform_id', widget: 'select', options: platforms },
      { name: 'template_id', widget: 'select', options: templateOptions },
    ],
    [platforms, templateOptions],
  );
  return (
    <>
      {test.modal}
      <Tabs
        destroyOnHidden
        items={[
          {
            key: 'templates',
            label: t('push_template.tabs.templates'),
            children: (
              <ResourceTable
                resource={templates}
                columns={templateColumns}
                filters={templateFilters}
                form={templateForm}
                formColumns={2}
                rowActions={[
                  {
                    key: 'test',
                    label: 'push_platform.test_send',
                    icon: <SendOutlined />,
                    onClick: (row) => test.open({ kind: 'template', id: row.id, name: row.name }),
                  },
                ]}
              />
            ),
          },
          {
            key: 'links',
            label: t('push_template.tabs.links'),
            children: <ResourceTable resource={links} columns={linkColumns} filters={linkFilters} form={linkForm} formColumns={2} />,
          },
        ]}
      />
    </>
  );
}
