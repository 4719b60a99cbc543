import { DeleteOutlined, PartitionOutlined, SwapOutlined } from '@ant-design/icons';
import { DEVICE_API, type DeviceBulkAction, USER_API } from '@iot/contract';
import { Button, Form, Modal, Radio, Select, Space, TreeSelect, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldOption } from '../../../components/field-config';
import type { CompanyTreeData } from '../../../components/pickers';
import { toastSuccess } from '../../../lib/feedback';
import type { Payload } from '../../../lib/resource';
import { useApiMutation } from '../../../lib/resource';

type Target = 'selected' | 'filter';

/**
 * Bulk actions (assign to a company, change product, delete) on the selected rows or on
 * every device matching the applied filters; the dialog says how many devices it will change.
 */
export const DeviceBulkBar = ({
  selectedIds,
  filters,
  count,
  products,
  companies,
  onDone,
}: {
  selectedIds: number[];
  filters: Payload;
  count: number;
  products: FieldOption[];
  companies: CompanyTreeData;
  onDone: () => void;
}) => {
  const { t } = useTranslation();
  const bulk = useApiMutation(DEVICE_API.deviceBulk, [DEVICE_API.deviceList, USER_API.companyList]);
  const [action, setAction] = useState<DeviceBulkAction | null>(null);
  const [target, setTarget] = useState<Target>('filter');
  const [value, setValue] = useState<number | string | undefined>(undefined);

  const open = (a: DeviceBulkAction) => {
    setAction(a);
    setTarget(selectedIds.length > 0 ? 'selected' : 'filter');
    setValue(undefined);
  };
  const affected = target === 'selected' ? selectedIds.length : count;
  const needsValue = action === 'assign_company' || action === 'change_product';

  const run = async () => {
    if (!action) return;
    const selection = target === 'selected' ? { ids: selectedIds } : { filter: filters };
    const extra = action === 'assign_company' ? { comp_id: value } : action === 'change_product' ? { pk: value } : {};
    const res = await bulk.mutateAsync({ action, ...selection, ...extra });
    toastSuccess(t('device.bulk.done', { count: res.changed }));
    setAction(null);
    onDone();
  };

  return (
    <>
      <Space wrap aria-label={t('device.bulk.label')} role="group">
        {selectedIds.length > 0 && <Typography.Text>{t('device.bulk.selected', { count: selectedIds.length })}</Typography.Text>}
        <Button icon={<PartitionOutlined />} onClick={() => open('assign_company')} disabled={count === 0}>
          {t('device.bulk.assign_company')}
        </Button>
        <Button icon={<SwapOutlined />} onClick={() => open('change_product')} disabled={count === 0}>
          {t('device.bulk.change_product')}
        </Button>
        <Button danger icon={<DeleteOutlined />} onClick={() => open('delete')} disabled={count === 0}>
          {t('device.bulk.delete')}
        </Button>
      </Space>
      <Modal
        open={action !== null}
        title={action ? t(`device.bulk.${action}`) : ''}
        okText={t('device.bulk.confirm', { count: affected })}
        okButtonProps={{ danger: action === 'delete', disabled: affected === 0 || (needsValue && value === undefined) }}
        cancelText={t('common.cancel')}
        confirmLoading={bulk.isPending}
        onOk={() => run().catch(() => undefined)}
        onCancel={() => setAction(null)}
        destroyOnHidden
      >
        <Form layout="vertical" name="device-bulk">
          <Form.Item label={t('device.bulk.target')}>
            <Radio.Group value={target} onChange={(e) => setTarget(e.target.value as Target)}>
              <Space orientation="vertical">
                <Radio value="selected" disabled={selectedIds.length === 0}>
                  {t('device.bulk.target_selected', { count: selectedIds.length })}
                </Radio>
                <Radio value="filter">{t('device.bulk.target_filter', { count })}</Radio>
              </Space>
            </Radio.Group>
          </Form.Item>
          {action === 'assign_company' && (
            <Form.Item label={t('device.bulk.to_company')} required>
              <TreeSelect
                aria-label={t('device.bulk.to_company')}
                treeData={companies}
                treeDefaultExpandAll
                showSearch
                treeNodeFilterProp="title"
                value={value as number | undefined}
                onChange={(v) => setValue(v as number)}
              />
            </Form.Item>
          )}
          {action === 'change_product' && (
            <Form.Item label={t('device.bulk.to_product')} required>
              <Select
                aria-label={t('device.bulk.to_product')}
                showSearch
                optionFilterProp="label"
                options={products.map((p) => ({ value: p.value, label: p.text ?? '' }))}
                value={value as string | undefined}
                onChange={(v) => setValue(v)}
              />
            </Form.Item>
          )}
          <Typography.Paragraph type={action === 'delete' ? 'danger' : undefined}>
            {t(action === 'delete' ? 'device.bulk.delete_warning' : 'device.bulk.change_warning', { count: affected })}
          </Typography.Paragraph>
        </Form>
      </Modal>
    </>
  );
};
