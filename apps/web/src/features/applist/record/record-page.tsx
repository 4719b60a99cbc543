import { PUSH_API } from '@iot/contract';
import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Fields } from '../../../components/field-config';
import { type Columns, ResourceTable } from '../../../components/resource-table';
import type { AreaName } from '../../../lib/i18n';
import { defineResource } from '../../../lib/resource';

/** Push records (applist/record): every delivery, its outcome and error; read-only. */
const records = defineResource({ labels: 'push_record', list: PUSH_API.pushRecordList, id: 'id' });

const LangCell = ({ lang, fellBack }: { lang: string; fellBack: boolean }) => {
  const { t } = useTranslation();
  return fellBack ? (
    <Tooltip title={t('push_record.fields.lang_fallback')}>
      {lang} <Tag color="orange">{t('push_record.fell_back')}</Tag>
    </Tooltip>
  ) : (
    lang
  );
};

const columns: Columns<typeof records> = [
  { key: 'id', sorter: true },
  { key: 'gmt_create', time: true },
  { key: 'channel', enumLabels: 'push_record.channels' },
  { key: 'recipient' },
  { key: 'title', ellipsis: true },
  { key: 'lang', render: (_v, row) => <LangCell lang={row.lang} fellBack={row.lang_fallback} /> },
  { key: 'state', enumLabels: 'push_record.states', tagColors: { 1: 'default', 2: 'green', 3: 'red', 4: 'orange' } },
  { key: 'attempts' },
  { key: 'error', ellipsis: true },
  { key: 'source' },
  { key: 'comp_name' },
  { key: 'gmt_send', time: true },
];

const filters: Fields<'push_record'> = [
  { name: 'state', enumLabels: 'push_record.states' },
  { name: 'channel', enumLabels: 'push_record.channels' },
  { name: 'recipient' },
  { name: 'gmt_range', widget: 'date-range', rangeFields: ['gmt_start', 'gmt_end'] },
  { name: 'source' },
  { name: 'platform_id' },
  { name: 'template_id' },
  { name: 'comp_id' },
];

/** The message areas this page uses (locales/areas.ts). */
export const areas: readonly AreaName[] = ['messaging'];

export default function RecordPage() {
  return <ResourceTable resource={records} columns={columns} filters={filters} />;
}
