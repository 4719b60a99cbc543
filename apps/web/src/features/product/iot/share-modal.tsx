import { DeleteOutlined, ShareAltOutlined } from '@ant-design/icons';
import { PAGE_SIZE_DEFAULT, PRODUCT_API, type ProductRow, type ProductShareRow } from '@iot/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Form, Modal, Popconfirm, Space, Table, TreeSelect, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCompanyTreeData } from '../../../components/pickers';
import { toastSuccess } from '../../../lib/feedback';
import { formatTime } from '../../../lib/format';
import { listQueryOptions, useApiMutation } from '../../../lib/resource';

/** A change refreshes the share list and the product list (visibility changes). */
const AFFECTS = [PRODUCT_API.productShareList, PRODUCT_API.productList];

/** The companies a product is shared with: list, add (company picker), remove. */
export const ShareModal = ({ product, onClose }: { product: ProductRow | null; onClose: () => void }) => {
  const { t } = useTranslation();
  const [page, setPage] = useState({ no: 1, size: PAGE_SIZE_DEFAULT });
  const [compId, setCompId] = useState<number | undefined>();
  const treeData = useCompanyTreeData();
  const shares = useQuery({
    ...listQueryOptions(PRODUCT_API.productShareList, {
      product_id: product?.id,
      page_no: page.no,
      page_size: page.size,
    }),
    enabled: product !== null,
  });
  const add = useApiMutation(PRODUCT_API.productShareAdd, AFFECTS);
  const remove = useApiMutation(PRODUCT_API.productShareDelete, AFFECTS);

  const share = async () => {
    if (!product || compId === undefined) return;
    await add.mutateAsync({ product_id: product.id, comp_id: compId });
    toastSuccess(t('product.share_added'));
    setCompId(undefined);
  };

  return (
    <Modal
      open={product !== null}
      title={product ? t('product.share_title', { name: product.name }) : ''}
      onCancel={onClose}
      footer={null}
      width={720}
      destroyOnHidden
      afterClose={() => {
        setPage({ no: 1, size: PAGE_SIZE_DEFAULT });
        setCompId(undefined);
      }}
    >
      <Space orientation="vertical" style={{ width: '100%' }} size="middle">
        <Typography.Text type="secondary">{t('product.share_hint')}</Typography.Text>
        <Form layout="inline" onFinish={share} style={{ rowGap: 8 }}>
          <Form.Item label={t('product.share_company')} htmlFor="share-company" style={{ minWidth: 320 }}>
            <TreeSelect
              id="share-company"
              value={compId}
              onChange={(v: number | undefined) => setCompId(v)}
              treeData={treeData}
              allowClear
              showSearch={{ treeNodeFilterProp: 'title' }}
              treeDefaultExpandAll
              placeholder={t('common.select')}
              style={{ width: '100%' }}
            />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" icon={<ShareAltOutlined />} disabled={compId === undefined} loading={add.isPending}>
              {t('product.share_add')}
            </Button>
          </Form.Item>
        </Form>
        <Table<ProductShareRow>
          aria-label={t('product.shared_with')}
          rowKey="comp_id"
          size="small"
          loading={shares.isFetching}
          dataSource={shares.data?.rows ?? []}
          locale={{ emptyText: t('product.share_none') }}
          scroll={{ x: 'max-content' }}
          columns={[
            { key: 'comp_name', dataIndex: 'comp_name', title: t('product.shared_with') },
            { key: 'gmt_create', dataIndex: 'gmt_create', title: t('product.shared_since'), render: (v: number) => formatTime(v) },
            {
              key: 'actions',
              title: t('common.actions'),
              render: (_: unknown, row: ProductShareRow) => (
                <Popconfirm
                  title={t('product.share_remove_confirm')}
                  okText={t('common.ok')}
                  cancelText={t('common.cancel')}
                  onConfirm={async () => {
                    await remove.mutateAsync({ product_id: row.product_id, comp_id: row.comp_id });
                    toastSuccess(t('product.share_removed'));
                  }}
                >
                  <Button size="small" type="link" danger icon={<DeleteOutlined />}>
                    {t('product.share_remove')}
                  </Button>
                </Popconfirm>
              ),
            },
          ]}
          pagination={{
            current: page.no,
            pageSize: page.size,
            total: shares.data?.count ?? 0,
            hideOnSinglePage: true,
            onChange: (no, size) => setPage({ no, size }),
          }}
        />
      </Space>
    </Modal>
  );
};
