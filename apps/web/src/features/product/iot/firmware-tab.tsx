import { TeamOutlined } from '@ant-design/icons';
import { PAGE_SIZE_MAX, type ProductVersionRow, type Rollout } from '@iot/contract';
import { Card, Empty, Flex, Form, Modal, Select, Space, Tag, Tooltip } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Fields } from '../../../components/field-config';
import { type Columns, ResourceTable, type RowAction } from '../../../components/resource-table';
import { UPGRADE_STATE_COLORS, UpgradeTable } from '../../../shared/ota/upgrade-table';
import { DetailsEditor } from './details-editor';
import { firmwareResource } from './firmware-resource';
import { productResource } from './product-resource';

const STATE_COLORS: Record<string, string> = { 1: 'green', 2: 'default' };
const LEVEL_COLORS: Record<string, string> = { 1: 'default', 2: 'blue', 3: 'red' };
/** The rollout states shown in a version's row (superseded offers are in the devices list). */
const ROLLOUT_SHOWN = ['offered', 'upgrading', 'succeeded', 'failed'] as const satisfies readonly (keyof Rollout)[];

/** The offered / upgrading / succeeded / failed counts of a version, as tags. */
const RolloutTags = ({ row }: { row: ProductVersionRow }) => {
  const { t } = useTranslation();
  return (
    <Flex wrap gap={4} aria-label={t('firmware.fields.rollout')} style={{ maxWidth: 220 }}>
      {ROLLOUT_SHOWN.map((s) => (
        <Tag key={s} color={UPGRADE_STATE_COLORS[s]} data-state={s} style={{ marginInlineEnd: 0 }}>
          {t(`firmware.upgrade_states.${s}`)} {row.rollout[s]}
        </Tag>
      ))}
    </Flex>
  );
};

const useColumns = (): Columns<typeof firmwareResource> => {
  const { t } = useTranslation();
  return useMemo(
    () => [
      {
        key: 'ver',
        sorter: true,
        render: (_: unknown, r: ProductVersionRow) => (
          <Space size={4}>
            <strong>{r.ver}</strong>
            {r.tag && <Tag>{r.tag}</Tag>}
          </Space>
        ),
      },
      { key: 'ver_num', sorter: true },
      {
        key: 'range',
        // max 0: any firmware below the version's own number.
        render: (_: unknown, r: ProductVersionRow) => `${r.min_ver_num} – ${r.max_ver_num || r.ver_num - 1}`,
      },
      { key: 'state', sorter: true, enumLabels: 'firmware.states', tagColors: STATE_COLORS },
      { key: 'rollout', render: (_: unknown, r: ProductVersionRow) => <RolloutTags row={r} /> },
      {
        key: 'count',
        sorter: true,
        render: (_: unknown, r: ProductVersionRow) =>
          r.limit > 0 ? t('firmware.count_of_limit', { count: r.count, limit: r.limit }) : `${r.count} (${t('firmware.unlimited')})`,
      },
      { key: 'level', sorter: true, enumLabels: 'firmware.levels', tagColors: LEVEL_COLORS },
      {
        key: 'details',
        render: (_: unknown, r: ProductVersionRow) => (
          <Space size={2} wrap>
            {r.details.map((d) => (
              <Tooltip key={d.lang} title={[d.title, d.url].filter(Boolean).join(' · ')}>
                <Tag>{d.lang}</Tag>
              </Tooltip>
            ))}
          </Space>
        ),
      },
      { key: 'gmt_update', time: true, sorter: true },
    ],
    [t],
  );
};

const filters: Fields<'firmware'> = [{ name: 'ver' }, { name: 'state', enumLabels: 'firmware.states' }];

const form: Fields<'firmware'> = [
  { name: 'ver', extra: 'firmware.hints.ver' },
  { name: 'ver_num', extra: 'firmware.hints.ver_num' },
  { name: 'min_ver_num', extra: 'firmware.hints.min_ver_num' },
  { name: 'max_ver_num', extra: 'firmware.hints.max_ver_num' },
  { name: 'state', widget: 'radio', enumLabels: 'firmware.states', extra: 'firmware.hints.state' },
  { name: 'level', widget: 'radio', enumLabels: 'firmware.levels' },
  { name: 'limit', extra: 'firmware.hints.limit' },
  { name: 'tag' },
  { name: 'type', extra: 'firmware.hints.type' },
  { name: 'oem', widget: 'switch' },
  { name: 'link_id' },
  { name: 'link_type' },
  { name: 'batch_id' },
  { name: 'details', widget: 'custom', control: <DetailsEditor />, wide: true },
];

/** A new version starts with an English entry to fill in. */
const NEW_VERSION = { details: [{ lang: 'en', url: '', title: '', content: '', size: null }] };

/**
 * The firmware tab of product/iot: a product of the caller's company (shared products carry no
 * firmware of the caller's), its versions with their rollout, add/edit with details per language,
 * delete, and the devices of each version's rollout.
 */
export const FirmwareTab = ({ pk, onPkChange }: { pk: string; onPkChange: (pk: string) => void }) => {
  const { t } = useTranslation();
  const columns = useColumns();
  const products = productResource.useList({ page_size: PAGE_SIZE_MAX, order_by: 'name' });
  const owned = useMemo(() => (products.data?.rows ?? []).filter((p) => !p.shared), [products.data]);
  const [rollout, setRollout] = useState<ProductVersionRow | null>(null);
  const params = useMemo(() => ({ pk }), [pk]);
  const fixed = useMemo(() => ({ pk }), [pk]);

  const rowActions = useMemo<RowAction<ProductVersionRow>[]>(
    () => [{ key: 'rollout', label: 'firmware.show_rollout', icon: <TeamOutlined />, onClick: (row) => setRollout(row) }],
    [],
  );

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Card variant="borderless">
        <Form layout="inline">
          <Form.Item label={t('firmware.product')} htmlFor="firmware-product" style={{ minWidth: 360 }}>
            <Select
              id="firmware-product"
              value={pk || undefined}
              onChange={(v: string) => onPkChange(v)}
              loading={products.isFetching}
              placeholder={t('common.select')}
              showSearch={{ optionFilterProp: 'label' }}
              options={owned.map((p) => ({ value: p.pk, label: `${p.name} (${p.pk})` }))}
              notFoundContent={t('firmware.no_products')}
            />
          </Form.Item>
        </Form>
      </Card>
      {pk ? (
        <ResourceTable
          key={pk}
          resource={firmwareResource}
          label="firmware.title"
          columns={columns}
          filters={filters}
          form={form}
          formColumns={2}
          baseParams={params}
          addFixed={fixed}
          addValues={NEW_VERSION}
          titles={{ add: 'firmware.add_title', edit: 'firmware.edit_title' }}
          rowActions={rowActions}
        />
      ) : (
        <Card variant="borderless">
          <Empty description={t('firmware.choose_product')} />
        </Card>
      )}
      <Modal
        open={rollout !== null}
        title={rollout ? t('firmware.rollout_of', { ver: rollout.ver }) : ''}
        onCancel={() => setRollout(null)}
        footer={null}
        width={1000}
        destroyOnHidden
      >
        {rollout && <UpgradeTable params={{ version_id: rollout.id }} of="version" label="firmware.fields.rollout" />}
      </Modal>
    </Space>
  );
};
