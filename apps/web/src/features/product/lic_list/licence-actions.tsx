import { DownloadOutlined } from '@ant-design/icons';
import { DEVICE_STATE_API, type LicenceBatch, type LicenceRow } from '@iot/contract';
import { Button, Form, Modal, Result } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldOption, Fields } from '../../../components/field-config';
import { readForm, showFieldErrors } from '../../../components/field-rules';
import { FormField } from '../../../components/form-field';
import { type FormModel, formModel } from '../../../components/form-model';
import type { CompanyTreeData } from '../../../components/pickers';
import { ApiError, call, type PayloadOf, showApiError } from '../../../lib/api';
import { downloadHref } from '../../../lib/downloads';
import { toastSuccess } from '../../../lib/feedback';
import { type Payload, useApiMutation } from '../../../lib/resource';

/**
 * Downloads the .xlsx of the codes matching `filters` (a batch: `{batch_id}`): the POST answers
 * a ticket (as for job files and statistics), the browser follows the link.
 */
export const downloadLicences = async (filters: PayloadOf<typeof DEVICE_STATE_API.licCodeExport>) => {
  const link = await call(DEVICE_STATE_API.licCodeExport, filters);
  const a = document.createElement('a');
  a.href = downloadHref(link.download_path, { ticket: link.download_ticket });
  a.download = '';
  document.body.appendChild(a);
  a.click();
  a.remove();
};

/** Labels and messages: `device_state.licence.fields.*`, refusals `device_state.licence.rules.*` (docs/api.md "Licence codes"). */
const AREA = 'device_state.licence';

/** A refusal naming fields is shown on them; anything else is toasted by the query client. */
const showRefusal = (
  form: ReturnType<typeof Form.useForm<Payload>>[0],
  model: FormModel,
  err: unknown,
  t: ReturnType<typeof useTranslation>['t'],
) => {
  const fields = err instanceof ApiError ? err.fieldErrors : null;
  if (fields) showFieldErrors(form, model, fields, t);
};

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
  const [form] = Form.useForm<Payload>();
  const add = useApiMutation(DEVICE_STATE_API.licCodeAdd, [DEVICE_STATE_API.licCodeList]);
  const [batch, setBatch] = useState<LicenceBatch | null>(null);
  const [downloading, setDownloading] = useState(false);
  const model = useMemo(() => {
    const fields: Fields<typeof AREA> = [
      { name: 'pk', widget: 'select', options: products },
      { name: 'comp_id', widget: 'tree-select', treeData: companies, extra: 'device_state.licence.comp_hint' },
      { name: 'count', extra: 'device_state.licence.count_hint' },
    ];
    return formModel({ fields, area: AREA, mode: 'add', schema: DEVICE_STATE_API.licCodeAdd.input });
  }, [products, companies]);

  const close = () => {
    setBatch(null);
    onClose();
  };
  const submit = async () => {
    const input = await readForm(form, model, t);
    if (input === null) return;
    try {
      setBatch(await add.mutateAsync(input));
    } catch (err) {
      showRefusal(form, model, err, t);
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
          initialValues={model.initialValues({ comp_id: defaultCompany, count: 100 })}
          preserve={false}
        >
          {model.fields.map((f) => (
            <FormField key={f.name} field={f} model={model} />
          ))}
        </Form>
      )}
    </Modal>
  );
};

/** Bind a code to a device (the console's side of a device using it). */
export const LicenceBindModal = ({ row, onClose }: { row: LicenceRow | null; onClose: () => void }) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<Payload>();
  const use = useApiMutation(DEVICE_STATE_API.licCodeUse, [DEVICE_STATE_API.licCodeList]);
  const model = useMemo(() => {
    const fields: Fields<typeof AREA> = [
      { name: 'code', readOnly: true },
      { name: 'uid', autoComplete: 'off', extra: 'device_state.licence.bind_hint', extraValues: { pk: row?.pk ?? '' } },
    ];
    return formModel({ fields, area: AREA, mode: 'add', schema: DEVICE_STATE_API.licCodeUse.input });
  }, [row]);

  const submit = async () => {
    if (!row) return;
    const input = await readForm(form, model, t);
    if (input === null) return;
    try {
      await use.mutateAsync(input);
      toastSuccess(t('device_state.licence.bound', { code: row.code }));
      onClose();
    } catch (err) {
      showRefusal(form, model, err, t);
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
        {model.fields.map((f) => (
          <FormField key={f.name} field={f} model={model} />
        ))}
      </Form>
    </Modal>
  );
};
