import { Col, Form, Modal, Row } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../lib/api';
import { toastError } from '../lib/feedback';
import { serverRuleMessage } from '../lib/form-rules';
import type { Payload } from '../lib/resource';
import { useIsMobile } from '../lib/use-mobile';
import type { FieldConfig } from './field-config';
import { FormField } from './form-field';
import { initialValuesOf, toFormValues, toPayload } from './form-values';

export interface ModalFormProps {
  open: boolean;
  /** i18n key of the title. */
  title: string;
  fields: FieldConfig[];
  /** Labels are `<i18nPrefix>.fields.<name>`. */
  i18nPrefix: string;
  mode: 'add' | 'edit';
  /** Edit: the row being changed (wire values). Add: extra initial values. */
  values?: Payload;
  /**
   * Gets the payload (see toPayload). Throw the ApiError of the call: a 406 with
   * `data.fields` is shown on the fields; other errors are toasted by the query
   * client (use resource mutations).
   */
  onSubmit: (payload: Payload) => Promise<unknown>;
  onClose: () => void;
  /** Two columns on wide screens (long forms). */
  columns?: 1 | 2;
}

/** antd Modal + Form built from a field config (SPEC §2 shared widget). */
export const ModalForm = ({ open, title, fields, i18nPrefix, mode, values, onSubmit, onClose, columns = 1 }: ModalFormProps) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<Payload>();
  const [busy, setBusy] = useState(false);
  const isMobile = useIsMobile();
  const visible = fields.filter((f) => !f.only || f.only === mode);
  const cols = isMobile ? 1 : columns;

  // Only when the dialog opens: later re-renders must not overwrite what the user types.
  // biome-ignore lint/correctness/useExhaustiveDependencies: deliberately keyed on `open` only
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(mode === 'edit' && values ? toFormValues(visible, values) : { ...initialValuesOf(visible), ...values });
  }, [open]);

  const submit = async () => {
    let formValues: Payload;
    try {
      formValues = await form.validateFields();
    } catch {
      toastError(t('rules.fill_required'));
      return;
    }
    setBusy(true);
    try {
      await onSubmit(toPayload(visible, formValues));
      onClose();
    } catch (err) {
      const fieldErrors = err instanceof ApiError ? err.fieldErrors : null;
      if (fieldErrors) {
        const names = new Set(visible.map((f) => f.name));
        form.setFields(
          Object.entries(fieldErrors)
            .filter(([name]) => names.has(name))
            .map(([name, rule]) => ({ name, errors: [serverRuleMessage(rule, t)] })),
        );
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t(title)}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={busy}
      destroyOnHidden
      forceRender
      width={cols === 2 ? 820 : 560}
      mask={{ closable: false }}
    >
      <Form form={form} layout="vertical" name={`${i18nPrefix}-${mode}`} onFinish={submit} scrollToFirstError>
        <Row gutter={16}>
          {visible.map((f) => (
            <Col key={f.name} span={cols === 2 && !f.wide && f.type !== 'textarea' ? 12 : 24}>
              <FormField field={f} i18nPrefix={i18nPrefix} disabled={mode === 'edit' && f.disabledOnEdit} />
            </Col>
          ))}
        </Row>
        {/* Enter in a text field submits. */}
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </Form>
    </Modal>
  );
};
