import { ShareAltOutlined } from '@ant-design/icons';
import { API, NODE_TYPES, NodeType, OEM_VALUES, type ProductCategory, type ProductRow } from '@iot/contract';
import { useQuery } from '@tanstack/react-query';
import { Image, Space, Tag, Typography } from 'antd';
import type { i18n as I18n } from 'i18next';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldConfig, FieldOption } from '../../../components/field-config';
import { useCompanyTreeData } from '../../../components/pickers';
import { type ColumnConfig, ResourceTable, type RowAction } from '../../../components/resource-table';
import { dataQueryOptions } from '../../../lib/resource';
import { ImageUpload } from './image-upload';
import { productResource } from './product-resource';
import { ShareModal } from './share-modal';

const NODE_TYPE_OPTIONS: FieldOption[] = NODE_TYPES.map((v) => ({ value: v, label: `product.node_types.${v}` }));
const OEM_OPTIONS: FieldOption[] = OEM_VALUES.map((v) => ({ value: v, label: `product.oem_values.${v}` }));
const NODE_TYPE_COLORS: Record<string, string> = { 1: 'blue', 2: 'purple', 3: 'cyan' };

/** A category's name in the current language (cn_name in Chinese when set). */
const categoryLabel = (c: { name: string; cn_name: string }, i18n: I18n) =>
  i18n.language.startsWith('zh') ? c.cn_name || c.name : c.name || c.cn_name;

const useCategoryOptions = (): FieldOption[] => {
  const { i18n } = useTranslation();
  const categories = useQuery(dataQueryOptions<ProductCategory[]>('product_category', API.productCategoryGet.path));
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

const useColumns = (): ColumnConfig<ProductRow>[] => {
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
      { key: 'node_type', enumPrefix: 'product.node_types', tagColors: NODE_TYPE_COLORS, sorter: true },
      {
        key: 'category',
        sorter: 'category_id',
        render: (_: unknown, r: ProductRow) =>
          r.category ? categoryLabel({ name: r.category_name, cn_name: r.category_cn_name }, i18n) : '',
      },
      { key: 'oem', enumPrefix: 'product.oem_values', sorter: true },
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

/** IoT products (product/iot): CRUD, image upload, attributes as JSON, sharing with companies. */
export default function ProductPage() {
  const columns = useColumns();
  const treeData = useCompanyTreeData();
  const categoryOptions = useCategoryOptions();
  const [sharing, setSharing] = useState<ProductRow | null>(null);

  const filters = useMemo<FieldConfig[]>(
    () => [
      { name: 'name' },
      { name: 'pk' },
      { name: 'comp_id', type: 'tree-select', treeData },
      { name: 'category_id', type: 'select', options: categoryOptions },
      { name: 'node_type', type: 'select', options: NODE_TYPE_OPTIONS },
      { name: 'oem', type: 'select', options: OEM_OPTIONS },
    ],
    [treeData, categoryOptions],
  );

  const form = useMemo<FieldConfig[]>(
    () => [
      { name: 'comp_id', type: 'tree-select', required: true, treeData, disabledOnEdit: true },
      { name: 'name', required: true, maxLength: 128 },
      { name: 'node_type', type: 'select', required: true, options: NODE_TYPE_OPTIONS, initialValue: NodeType.DIRECT },
      { name: 'category', type: 'select', options: categoryOptions, emptyValue: null },
      { name: 'img', type: 'custom', control: <ImageUpload />, emptyValue: '', wide: true },
      { name: 'attr', type: 'textarea', rules: ['json'], maxLength: 16_384, emptyValue: '', extra: 'product.attr_hint', wide: true },
      { name: 'oem', type: 'switch', switchValues: [1, 0], initialValue: 0 },
      { name: 'link_id', maxLength: 64 },
      { name: 'link_type', type: 'integer', min: 0, emptyValue: 0 },
      { name: 'batch_id', maxLength: 64 },
      { name: 'remark', type: 'textarea', maxLength: 500, wide: true },
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
    ],
    [],
  );

  return (
    <>
      <ResourceTable<ProductRow>
        resource={productResource}
        i18nPrefix="product"
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
}
