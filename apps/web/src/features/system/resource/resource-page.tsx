import { type ResourceTypeName, USER_API } from '@iot/contract';
import { Tabs } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Fields } from '../../../components/field-config';
import { type Columns, ResourceTable } from '../../../components/resource-table';
import { defineResource } from '../../../lib/resource';

/** Service resources (system/resource): one table, `res_type` names the kind (docs/api.md). */
const resourceRows = defineResource({
  labels: 'resource',
  list: USER_API.resourceList,
  add: USER_API.resourceAdd,
  set: USER_API.resourceSet,
  del: USER_API.resourceDel,
  id: 'id',
});

const STATE_COLORS = { 1: 'green', 2: 'default' };

interface KindConfig {
  columns: Columns<typeof resourceRows>;
  form: Fields<'resource'>;
}

const KINDS: Record<ResourceTypeName, KindConfig> = {
  sys: {
    columns: [
      { key: 'sys', sorter: true },
      { key: 'name', sorter: true },
      { key: 'gmt_create', time: true, sorter: true },
    ],
    form: [{ name: 'sys' }, { name: 'name' }],
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
      { key: 'deploy_open', enumLabels: 'resource.deploy', tagColors: { 1: 'blue', 0: 'default' } },
      { key: 'state', enumLabels: 'resource.states', tagColors: STATE_COLORS },
    ],
    form: [
      { name: 'sys' },
      { name: 'name' },
      { name: 'zone' },
      { name: 'ips', extra: 'resource.ips_hint' },
      { name: 'domain_prefix' },
      { name: 'domain' },
      { name: 'host' },
      { name: 'h5_host' },
      { name: 'cdn_host' },
      { name: 'port' },
      { name: 'ssl_port' },
      { name: 'deploy_open', widget: 'switch' },
      { name: 'state', enumLabels: 'resource.states' },
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
      { key: 'state', enumLabels: 'resource.states', tagColors: STATE_COLORS },
      { key: 'remark' },
    ],
    form: [
      { name: 'sys' },
      { name: 'src_area' },
      { name: 'dest_area' },
      { name: 'src_type' },
      { name: 'dest_type' },
      { name: 'type' },
      { name: 'state', enumLabels: 'resource.states' },
      { name: 'remark', widget: 'textarea', wide: true },
    ],
  },
};

const FILTERS: Fields<'resource'> = [{ name: 'sys' }, { name: 'name' }];

const KindTable = ({ kind }: { kind: ResourceTypeName }) => {
  const base = useMemo(() => ({ res_type: kind }), [kind]);
  return (
    <ResourceTable
      resource={resourceRows}
      label={`resource.tabs.${kind}`}
      columns={KINDS[kind].columns}
      filters={FILTERS}
      form={KINDS[kind].form}
      formColumns={kind === 'sys' ? 1 : 2}
      baseParams={base}
      titles={{ add: `resource.add_${kind}`, edit: `resource.edit_${kind}` }}
      addFixed={base}
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
