import { DownloadOutlined } from '@ant-design/icons';
import { API, LICENCE_BATCH_MAX, type LicenceBatch, type LicenceExportOutput, type LicenceRow } from '@iot/contract';
import { Button, Form, Input, InputNumber, Modal, Result, Select, TreeSelect } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldOption } from '../../../components/field-config';
import type { CompanyTreeData } from '../../../components/pickers';
import { ApiError, call, showApiError } from '../../../lib/api';
import { toastSuccess } from '../../../lib/feedback';
import { currentLanguage } from '../../../lib/i18n';
import { type Payload, useApiMutation } from '../../../lib/resource';

/**
 * Downloads the .xlsx of the codes matching `filters` (a batch: `{batch_id}`): the POST answers
 * a ticket (as for job files and statistics), the browser follows the link.
 */
export const downloadLicences = async (filters: Payload) => {
  const link = (await call<LicenceExportOutput>(API.licCodeExport.path, filters)).data;
  const q = new URLSearchParams({ ticket: link.download_ticket, lang: currentLanguage() });
  const a = document.createElement('a');
  a.href = `/api/${link.download_path}?${q.toString()}`;
  a.download = '';
  document.body.appendChild(a);
  a.click();
  a.remove();
};

/** Server refusals (docs/api.md "Licence codes") → the field and the message under it. */
const REFUSAL_KEYS: Record<string, string> = {
  not_found: 'device_state.licence.rules.not_found',
  used: 'device_state.licence.rules.used',
  revoked: 'device_state.licence.rules.revoked',
  wrong_product: 'device_state.licence.rules.wrong_product',
  wrong_company: 'device_state.licence.rules.wrong_company',
};

const showRefusals = <T,>(form: ReturnType<typeof Form.useForm<T>>[0], err: unknown, t: (k: string) => string) => {
  const fields = err instanceof ApiError ? err.fieldErrors : null;
  if (!fields) throw err;
  form.setFields(
    Object.entries(fields).map(([name, rule]) => ({
      name: name as never,
      errors: [t(REFUSAL_KEYS[rule] ?? 'rules.invalid')],
    })),
  );
};

interface GenerateValues {
  pk: string;
  comp_id: number;
  count: number;
}

/** Generate a batch: product, owner company, how many; then the batch's codes to download. */
export const LicenceGenerateModal = ({
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
  const [form] = Form.useForm<GenerateValues>();
  const add = useApiMutation<LicenceBatch>(API.licCodeAdd.path, ['licence']);
  const [batch, setBatch] = useState<LicenceBatch | null>(null);
  const [downloading, setDownloading] = useState(false);

  const close = () => {
    setBatch(null);
    onClose();
  };
  const submit = async () => {
    const values = await form.validateFields();
    try {
      setBatch(await add.mutateAsync({ ...values }));
    } catch (err) {
      showRefusals(form, err, t);
    }
  };
  const download = async () => {
    if (!batch) return;
    setDownloading(true);
    try {
      await downloadLicences({ batch_id: batch.batch_id });
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('device_state.licence.generate_title')}
      onCancel={close}
      destroyOnHidden
      footer={
        batch
          ? [
              <Button key="done" type="primary" onClick={close}>
                {t('device_state.licence.done')}
              </Button>,
            ]
          : [
              <Button key="cancel" onClick={close}>
                {t('common.cancel')}
              </Button>,
              <Button key="ok" type="primary" loading={add.isPending} onClick={() => submit().catch(() => undefined)}>
                {t('device_state.licence.generate')}
              </Button>,
            ]
      }
    >
      {batch ? (
        <Result
          status="success"
          title={t('device_state.licence.generated', { count: batch.count, batch: batch.batch_id })}
          extra={
            <Button icon={<DownloadOutlined />} loading={downloading} onClick={() => download().catch(showApiError)}>
              {t('device_state.licence.download_batch')}
            </Button>
          }
        />
      ) : (
        <Form
          form={form}
          layout="vertical"
          name="licence-generate"
          initialValues={{ comp_id: defaultCompany, count: 100 }}
          preserve={false}
        >
          <Form.Item name="pk" label={t('device_state.licence.fields.pk')} rules={[{ required: true, message: t('rules.required') }]}>
            <Select
              showSearch
              optionFilterProp="label"
              options={products.map((p) => ({ value: p.value, label: p.text ?? t(p.label ?? '') }))}
            />
          </Form.Item>
          <Form.Item
            name="comp_id"
            label={t('device_state.licence.fields.comp_id')}
            extra={t('device_state.licence.comp_hint')}
            rules={[{ required: true, message: t('rules.required') }]}
          >
            <TreeSelect treeData={companies} treeDefaultExpandAll showSearch treeNodeFilterProp="title" />
          </Form.Item>
          <Form.Item
            name="count"
            label={t('device_state.licence.fields.count')}
            extra={t('device_state.licence.count_hint', { max: LICENCE_BATCH_MAX })}
            rules={[{ required: true, message: t('rules.required') }]}
          >
            <InputNumber min={1} max={LICENCE_BATCH_MAX} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
};

/** Bind a code to a device (the console's side of a device using it). */
export const LicenceBindModal = ({ row, onClose }: { row: LicenceRow | null; onClose: () => void }) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ code: string; uid: string }>();
  const use = useApiMutation<LicenceRow>(API.licCodeUse.path, ['licence']);

  const submit = async () => {
    if (!row) return;
    const values = await form.validateFields();
    try {
      await use.mutateAsync({ code: row.code, uid: values.uid });
      toastSuccess(t('device_state.licence.bound', { code: row.code }));
      onClose();
    } catch (err) {
      showRefusals(form, err, t);
    }
  };

  return (
    <Modal
      open={row !== null}
      title={t('device_state.licence.bind_title', { code: row?.code ?? '' })}
      okText={t('device_state.licence.bind')}
      cancelText={t('common.cancel')}
      confirmLoading={use.isPending}
      onOk={() => submit().catch(() => undefined)}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" name="licence-bind" preserve={false} initialValues={{ code: row?.code }}>
        <Form.Item name="code" label={t('device_state.licence.fields.code')}>
          <Input readOnly />
        </Form.Item>
        <Form.Item
          name="uid"
          label={t('device_state.licence.fields.uid')}
          extra={t('device_state.licence.bind_hint', { pk: row?.pk ?? '' })}
          rules={[{ required: true, message: t('rules.required') }]}
        >
          <Input maxLength={64} autoComplete="off" />
        </Form.Item>
      </Form>
    </Modal>
  );
};
