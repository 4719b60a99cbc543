import { CloudUploadOutlined, ShareAltOutlined } from '@ant-design/icons';
import { PRODUCT_API, type ProductRow } from '@iot/contract';
import { useQuery } from '@tanstack/react-query';
import { Image, Space, Tabs, Tag, Typography } from 'antd';
import type { i18n as I18n } from 'i18next';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { FieldOption, Fields } from '../../../components/field-config';
import { useCompanyTreeData } from '../../../components/pickers';
import { type Columns, ResourceTable, type RowAction } from '../../../components/resource-table';
import type { AreaName } from '../../../lib/i18n';
import { dataQueryOptions } from '../../../lib/resource';
import { ImageUpload } from '../../../shared/upload/image-upload';
import { FirmwareTab } from './firmware-tab';
import { productResource } from './product-resource';
import { ShareModal } from './share-modal';

const NODE_TYPE_COLORS: Record<string, string> = { 1: 'blue', 2: 'purple', 3: 'cyan' };

/** A category's name in the current language (cn_name in Chinese when set). */
const categoryLabel = (c: { name: string; cn_name: string }, i18n: I18n) =>
  i18n.language.startsWith('zh') ? c.cn_name || c.name : c.name || c.cn_name;

const useCategoryOptions = (): FieldOption[] => {
  const { i18n } = useTranslation();
  const categories = useQuery(dataQueryOptions(PRODUCT_API.productCategoryGet, {}));
  return useMemo(
    () => (categories.data ?? []).map((c) => ({ value: c.id, text: categoryLabel(c, i18n) })),
    // i18n.language: labels follow the language.
    [categories.data, i18n, i18n.language],
  );
};

/** Attributes are edited as indented JSON; stored compact. */
const prettyAttr = (attr: string) => {
  try {
    return JSON.stringify(JSON.parse(attr), null, 2);
  } catch {
    return attr;
  }
};

const useColumns = (): Columns<typeof productResource> => {
  const { t, i18n } = useTranslation();
  return useMemo(
    () => [
      {
        key: 'img',
        render: (_: unknown, r: ProductRow) =>
          r.img_url ? (
            <Image src={r.img_url} alt={t('product.image_of', { name: r.name })} width={40} height={40} style={{ objectFit: 'contain' }} />
          ) : null,
      },
      {
        key: 'name',
        sorter: true,
        render: (_: unknown, r: ProductRow) => (
          <Space size={4}>
            <span>{r.name}</span>
            {r.shared && <Tag color="gold">{t('product.shared_tag')}</Tag>}
          </Space>
        ),
      },
      {
        key: 'pk',
        sorter: true,
        render: (_: unknown, r: ProductRow) => (
          <Typography.Text code copyable={{ text: r.pk, tooltips: [t('product.copy_pk'), t('product.copied')] }}>
            {r.pk}
          </Typography.Text>
        ),
      },
      { key: 'comp_name', sorter: 'comp_id' },
      { key: 'node_type', enumLabels: 'product.node_types', tagColors: NODE_TYPE_COLORS, sorter: true },
      {
        key: 'category',
        sorter: 'category_id',
        render: (_: unknown, r: ProductRow) =>
          r.category ? categoryLabel({ name: r.category_name, cn_name: r.category_cn_name }, i18n) : '',
      },
      { key: 'oem', enumLabels: 'product.oem_values', sorter: true },
      {
        key: 'link_batch',
        render: (_: unknown, r: ProductRow) => [r.link_id && `${r.link_id} (${r.link_type})`, r.batch_id].filter(Boolean).join(' / '),
      },
      { key: 'create_time', time: true, sorter: true },
    ],
    // i18n.language: category names follow the language.
    [t, i18n, i18n.language],
  );
};

/** The message areas this page uses (locales/areas.ts). */
export const areas: readonly AreaName[] = ['firmware', 'product'];

/**
 * IoT products (product/iot): CRUD, image upload, attributes as JSON, sharing with companies; the
 * firmware tab (`?tab=firmware&pk=…`) holds a product's firmware versions and their rollout.
 */
export default function ProductPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const tab = search.get('tab') === 'firmware' ? 'firmware' : 'products';
  const pk = search.get('pk') ?? '';
  const show = (next: { tab: string; pk?: string }) =>
    setSearch((prev) => {
      const params = new URLSearchParams(prev);
      if (next.tab === 'firmware') params.set('tab', 'firmware');
      else params.delete('tab');
      if (next.pk !== undefined) params.set('pk', next.pk);
      return params;
    });
  return (
    <Tabs
      activeKey={tab}
      onChange={(key) => show({ tab: key })}
      items={[
        {
          key: 'products',
          label: t('firmware.tabs.products'),
          children: <ProductsTab onFirmware={(row) => show({ tab: 'firmware', pk: row.pk })} />,
        },
        {
          key: 'firmware',
          label: t('firmware.tabs.firmware'),
          children: <FirmwareTab pk={pk} onPkChange={(next) => show({ tab: 'firmware', pk: next })} />,
        },
      ]}
    />
  );
}

/** The products themselves; `onFirmware` opens a product's firmware tab. */
const ProductsTab = ({ onFirmware }: { onFirmware: (row: ProductRow) => void }) => {
  const columns = useColumns();
  const treeData = useCompanyTreeData();
  const categoryOptions = useCategoryOptions();
  const [sharing, setSharing] = useState<ProductRow | null>(null);

  const filters = useMemo<Fields<'product'>>(
    () => [
      { name: 'name' },
      { name: 'pk' },
      { name: 'comp_id', widget: 'tree-select', treeData },
      { name: 'category_id', widget: 'select', options: categoryOptions },
      { name: 'node_type', enumLabels: 'product.node_types' },
      { name: 'oem', enumLabels: 'product.oem_values' },
    ],
    [treeData, categoryOptions],
  );

  const form = useMemo<Fields<'product'>>(
    () => [
      { name: 'comp_id', widget: 'tree-select', treeData, disabledOnEdit: true },
      { name: 'name' },
      { name: 'node_type', enumLabels: 'product.node_types' },
      { name: 'category', widget: 'select', options: categoryOptions },
      { name: 'img', widget: 'custom', control: <ImageUpload />, wide: true },
      { name: 'attr', widget: 'textarea', extra: 'product.attr_hint', wide: true },
      { name: 'oem', widget: 'switch' },
      { name: 'link_id' },
      { name: 'link_type' },
      { name: 'batch_id' },
      { name: 'remark', widget: 'textarea', wide: true },
    ],
    [treeData, categoryOptions],
  );

  const rowActions = useMemo<RowAction<ProductRow>[]>(
    () => [
      {
        key: 'share',
        label: 'product.share',
        icon: <ShareAltOutlined />,
        visible: (row) => !row.shared,
        onClick: (row) => setSharing(row),
      },
      {
        key: 'firmware',
        label: 'firmware.open_firmware',
        icon: <CloudUploadOutlined />,
        visible: (row) => !row.shared,
        onClick: onFirmware,
      },
    ],
    [onFirmware],
  );

  return (
    <>
      <ResourceTable
        resource={productResource}
        label="menu.product/iot"
        columns={columns}
        filters={filters}
        form={form}
        formColumns={2}
        titles={{ add: 'product.add_title', edit: 'product.edit_title' }}
        canEdit={(row) => !row.shared}
        canDelete={(row) => !row.shared}
        rowActions={rowActions}
        loadEditValues={async (row) => ({ ...row, attr: prettyAttr(row.attr) })}
      />
      <ShareModal product={sharing} onClose={() => setSharing(null)} />
    </>
  );
};
