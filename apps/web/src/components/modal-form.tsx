import { Col, Form, Modal, Row } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../lib/api';
import type { LabelKey } from '../lib/labels';
import type { Payload } from '../lib/resource';
import { useIsMobile } from '../lib/use-mobile';
import { readForm, recheckTouched, showFieldErrors } from './field-rules';
import { FormField } from './form-field';
import { type FormModelOptions, formModel, narrowChoices } from './form-model';

export interface ModalFormProps extends Omit<FormModelOptions, 'row'> {
  open: boolean;
  title: LabelKey;
  /** i18n key of the OK button; default common.save. */
  okText?: LabelKey | undefined;
  /** Edit: the row being changed (wire values). Add: extra initial values. */
  values?: Payload | undefined;
  /** The page's last touch on the payload before it is checked and sent (password encoding, the id of a set). */
  prepare?: ((payload: Payload) => Payload | Promise<Payload>) | undefined;
  /**
   * Gets the payload, checked against the schema. Throw the ApiError of the call: a 406 with
   * `data.fields` is shown on the fields; other errors are toasted by the query client (use
   * resource mutations).
   */
  onSubmit: (payload: Payload) => Promise<unknown>;
  onClose: () => void;
  /** Two columns on wide screens (long forms). */
  columns?: 1 | 2 | undefined;
}

/** antd Modal + Form of a command: fields from the page, rules from the contract schema (SPEC §2 shared widget). */
export const ModalForm = ({ open, title, okText, values, prepare, onSubmit, onClose, columns = 1, ...options }: ModalFormProps) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<Payload>();
  const [busy, setBusy] = useState(false);
  const isMobile = useIsMobile();
  const cols = isMobile ? 1 : columns;
  const { fields, area, mode, schema, addSchema, fixed } = options;
  const model = useMemo(
    () => formModel({ fields, area, mode, schema, addSchema, fixed, row: mode === 'edit' ? values : undefined }),
    [fields, area, mode, schema, addSchema, fixed, values],
  );

  // Only when the dialog opens: later re-renders must not overwrite what the user types.
  // biome-ignore lint/correctness/useExhaustiveDependencies: deliberately keyed on `open` only
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(model.initialValues(values));
  }, [open]);

  const submit = async () => {
    setBusy(true);
    try {
      const body = await readForm(form, model, t, prepare);
      if (body === null) return;
      // The payload the form built, accepted by the schema.
      await onSubmit(body as Payload);
      onClose();
    } catch (err) {
      // A 406 or 409 names its fields; the query client has toasted the error already.
      const fieldErrors = err instanceof ApiError ? err.fieldErrors : null;
      if (fieldErrors) showFieldErrors(form, model, fieldErrors, t);
    } finally {
      setBusy(false);
    }
  };

  const current = Form.useWatch([], form) as Payload | undefined;
  const shown = model.fields
    .filter((f) => !f.showWhen || f.showWhen.values.includes((current ?? values)?.[f.showWhen.field]))
    .map((f) => narrowChoices(f, current ?? values));

  return (
    <Modal
      open={open}
      title={t(title)}
      okText={t(okText ?? 'common.save')}
      cancelText={t('common.cancel')}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={busy}
      destroyOnHidden
      forceRender
      width={cols === 2 ? 820 : 560}
      mask={{ closable: false }}
    >
      <Form
        form={form}
        layout="vertical"
        name={`${area}-${mode}`}
        onFinish={submit}
        onValuesChange={(changed: Payload) => recheckTouched(form, model, Object.keys(changed))}
        scrollToFirstError
      >
        <Row gutter={16}>
          {shown.map((f) => (
            <Col key={f.name} span={cols === 2 && !f.wide && f.widget !== 'textarea' ? 12 : 24}>
              <FormField field={f} model={model} disabled={mode === 'edit' && f.disabledOnEdit} />
            </Col>
          ))}
        </Row>
        {/* Enter in a text field submits. */}
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </Form>
    </Modal>
  );
};
