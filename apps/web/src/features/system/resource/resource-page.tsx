import { API, type ResourceRow, type ResourceTypeName } from '@iot/contract';
import { Tabs } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldConfig, FieldOption } from '../../../components/field-config';
import { type ColumnConfig, ResourceTable } from '../../../components/resource-table';
import { defineResource } from '../../../lib/resource';

/** Service resources (system/resource): one table, `res_type` names the kind (docs/api.md). */
const resourceRows = defineResource<ResourceRow>({
  name: 'srv-resource',
  list: API.resourceList.path,
  add: API.resourceAdd.path,
  set: API.resourceSet.path,
  del: API.resourceDel.path,
  idField: 'id',
});

const STATE_OPTIONS: FieldOption[] = [1, 2].map((v) => ({ value: v, label: `resource.states.${v}` }));
const STATE_COLORS = { 1: 'green', 2: 'default' };
const OPEN_SWITCH = [1, 0] as [number, number];

interface KindConfig {
  columns: ColumnConfig<ResourceRow>[];
  form: FieldConfig[];
}

const KINDS: Record<ResourceTypeName, KindConfig> = {
  sys: {
    columns: [
      { key: 'sys', sorter: true },
      { key: 'name', sorter: true },
      { key: 'gmt_create', time: true, sorter: true },
    ],
    form: [
      { name: 'sys', required: true, maxLength: 32 },
      { name: 'name', required: true, maxLength: 64 },
    ],
  },
  datacenter: {
    columns: [
      { key: 'sys', sorter: true },
      { key: 'name', sorter: true },
      { key: 'zone' },
      { key: 'ips' },
      { key: 'domain_prefix' },
      { key: 'domain' },
      { key: 'host' },
      { key: 'h5_host' },
      { key: 'cdn_host' },
      { key: 'port' },
      { key: 'ssl_port' },
      { key: 'deploy_open', enumPrefix: 'resource.deploy', tagColors: { 1: 'blue', 0: 'default' } },
      { key: 'state', enumPrefix: 'resource.states', tagColors: STATE_COLORS },
    ],
    form: [
      { name: 'sys', required: true, maxLength: 32 },
      { name: 'name', required: true, maxLength: 64 },
      { name: 'zone', maxLength: 64, emptyValue: '' },
      { name: 'ips', maxLength: 1024, emptyValue: '', extra: 'resource.ips_hint' },
      { name: 'domain_prefix', maxLength: 64, emptyValue: '' },
      { name: 'domain', maxLength: 255, emptyValue: '' },
      { name: 'host', maxLength: 255, emptyValue: '' },
      { name: 'h5_host', maxLength: 255, emptyValue: '' },
      { name: 'cdn_host', maxLength: 255, emptyValue: '' },
      { name: 'port', type: 'integer', min: 0, max: 65535, initialValue: 80, required: true },
      { name: 'ssl_port', type: 'integer', min: 0, max: 65535, initialValue: 443, required: true },
      { name: 'deploy_open', type: 'switch', switchValues: OPEN_SWITCH, initialValue: 0 },
      { name: 'state', type: 'select', required: true, options: STATE_OPTIONS, initialValue: 1 },
    ],
  },
  zonebind: {
    columns: [
      { key: 'sys', sorter: true },
      { key: 'src_area' },
      { key: 'dest_area' },
      { key: 'src_type' },
      { key: 'dest_type' },
      { key: 'type' },
      { key: 'state', enumPrefix: 'resource.states', tagColors: STATE_COLORS },
      { key: 'remark' },
    ],
    form: [
      { name: 'sys', required: true, maxLength: 32 },
      { name: 'src_area', required: true, maxLength: 64 },
      { name: 'dest_area', required: true, maxLength: 64 },
      { name: 'src_type', type: 'integer', initialValue: 0, emptyValue: 0 },
      { name: 'dest_type', type: 'integer', initialValue: 0, emptyValue: 0 },
      { name: 'type', type: 'integer', initialValue: 0, emptyValue: 0 },
      { name: 'state', type: 'select', required: true, options: STATE_OPTIONS, initialValue: 1 },
      { name: 'remark', type: 'textarea', maxLength: 512, emptyValue: '', wide: true },
    ],
  },
};

const FILTERS: FieldConfig[] = [{ name: 'sys' }, { name: 'name' }];

const KindTable = ({ kind }: { kind: ResourceTypeName }) => {
  const base = useMemo(() => ({ res_type: kind }), [kind]);
  return (
    <ResourceTable<ResourceRow>
      resource={resourceRows}
      i18nPrefix="resource"
      label={`resource.tabs.${kind}`}
      columns={KINDS[kind].columns}
      filters={FILTERS}
      form={KINDS[kind].form}
      formColumns={kind === 'sys' ? 1 : 2}
      baseParams={base}
      titles={{ add: `resource.add_${kind}`, edit: `resource.edit_${kind}` }}
      toPayload={(payload, mode) => (mode === 'add' ? { ...payload, res_type: kind } : payload)}
    />
  );
};

/** Service resources in three tabs: systems, data centers, zone bindings. */
export default function ResourcePage() {
  const { t } = useTranslation();
  return (
    <Tabs
      destroyOnHidden
      items={(['sys', 'datacenter', 'zonebind'] as const).map((kind) => ({
        key: kind,
        label: t(`resource.tabs.${kind}`),
        children: <KindTable kind={kind} />,
      }))}
    />
  );
}
