import { PUSH_API } from '@iot/contract';
import type { Fields } from '../../../components/field-config';
import { type Columns, ResourceTable } from '../../../components/resource-table';
import type { AreaName } from '../../../lib/i18n';
import { defineResource } from '../../../lib/resource';

/** Notice templates (applist/notice_template): what users are told about subscriptions, per language. */
const templates = defineResource({
  labels: 'notice_template',
  list: PUSH_API.noticeTemplateList,
  add: PUSH_API.noticeTemplateAdd,
  set: PUSH_API.noticeTemplateSet,
  del: PUSH_API.noticeTemplateDel,
  id: 'id',
});

const columns: Columns<typeof templates> = [
  { key: 'name', sorter: true },
  { key: 'type', enumLabels: 'notice_template.types', sorter: true },
  { key: 'lang', enumLabels: 'message_langs', sorter: true },
  { key: 'title' },
  { key: 'comp_name' },
  { key: 'gmt_update', time: true, sorter: true },
];

const filters: Fields<'notice_template'> = [
  { name: 'name' },
  { name: 'type', enumLabels: 'notice_template.types' },
  { name: 'lang', enumLabels: 'message_langs' },
  { name: 'comp_id' },
];

const form: Fields<'notice_template'> = [
  { name: 'name' },
  { name: 'type', enumLabels: 'notice_template.types' },
  { name: 'lang', enumLabels: 'message_langs' },
  { name: 'comp_id', disabledOnEdit: true },
  { name: 'title', wide: true },
  { name: 'body', widget: 'textarea', wide: true, extra: 'notice_template.body_hint' },
];

/** The message areas this page uses (locales/areas.ts). */
export const areas: readonly AreaName[] = ['messaging'];

export default function NoticeTemplatePage() {
  return <ResourceTable resource={templates} columns={columns} filters={filters} form={form} formColumns={2} />;
}
