import { API, normalizeMac, normalizeUid } from '@iot/contract';
import { Form, Input, Modal, Select, TreeSelect } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldOption } from '../../../components/field-config';
import type { CompanyTreeData } from '../../../components/pickers';
import { ApiError } from '../../../lib/api';
import { toastSuccess } from '../../../lib/feedback';
import { useApiMutation } from '../../../lib/resource';

interface AddValues {
  uid: string;
  mac?: string;
  pk: string;
  comp_id: number;
}

/** Server refusals (docs/api.md "Devices") → the field and the message shown under it. */
const REFUSAL_KEYS: Record<string, string> = {
  'format:uid': 'device.rules.uid',
  'format:mac': 'device.rules.mac',
  exists: 'device.rules.exists',
  not_found: 'device.rules.not_found',
  dk_limit: 'device.rules.dk_limit',
};

/** Register one device: UID and MAC checked with the contract's own rules before sending. */
export const DeviceAddModal = ({
  open,
  onClose,
  products,
  companies,
  defaultCompany,
}: {
  open: boolean;
  onClose: () => void;
  products: FieldOption[];
  companies: CompanyTreeData;
  defaultCompany?: number | undefined;
}) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<AddValues>();
  const add = useApiMutation(API.deviceAdd.path, ['device', 'company']);
  const [saving, setSaving] = useState(false);

  const submit = async () => {
    const values = await form.validateFields();
    setSaving(true);
    try {
      await add.mutateAsync({ ...values, mac: values.mac ?? '' });
      toastSuccess(t('common.add_success'));
      form.resetFields();
      onClose();
    } catch (err) {
      const fields = err instanceof ApiError ? err.fieldErrors : null;
      if (!fields) throw err;
      form.setFields(
        Object.entries(fields).map(([name, rule]) => ({
          name: name as keyof AddValues,
          errors: [t(REFUSAL_KEYS[rule] ?? 'rules.invalid')],
        })),
      );
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('device.add_title')}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      onOk={() => submit().catch(() => undefined)}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" name="device-add" initialValues={{ comp_id: defaultCompany }} preserve={false}>
        <Form.Item
          name="uid"
          label={t('device.fields.uid')}
          extra={t('device.uid_hint')}
          rules={[
            { required: true, message: t('rules.required') },
            { validator: async (_r, v) => (!v || normalizeUid(v) !== null ? undefined : Promise.reject(new Error(t('device.rules.uid')))) },
          ]}
        >
          <Input maxLength={32} autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="mac"
          label={t('device.fields.mac')}
          extra={t('device.mac_hint')}
          rules={[
            { validator: async (_r, v) => (normalizeMac(v) !== null ? undefined : Promise.reject(new Error(t('device.rules.mac')))) },
          ]}
        >
          <Input maxLength={17} autoComplete="off" />
        </Form.Item>
        <Form.Item name="pk" label={t('device.fields.pk')} rules={[{ required: true, message: t('rules.required') }]}>
          <Select
            showSearch
            optionFilterProp="label"
            options={products.map((p) => ({ value: p.value, label: p.text ?? t(p.label ?? '') }))}
          />
        </Form.Item>
        <Form.Item name="comp_id" label={t('device.fields.comp_id')} rules={[{ required: true, message: t('rules.required') }]}>
          <TreeSelect treeData={companies} treeDefaultExpandAll showSearch treeNodeFilterProp="title" />
        </Form.Item>
      </Form>
    </Modal>
  );
};
