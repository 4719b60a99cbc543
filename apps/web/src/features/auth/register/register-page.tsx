import { API, PHONE_AREA_DEFAULT } from '@iot/contract';
import { Button, Col, Form, Result, Row, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { FieldConfig } from '../../../components/field-config';
import { FormField } from '../../../components/form-field';
import { toPayload } from '../../../components/form-values';
import { Hint, PublicFrame } from '../../../components/public-frame';
import { ApiError, call, showApiError } from '../../../lib/api';
import { encodePassword } from '../../../lib/crypto';
import { toastError } from '../../../lib/feedback';
import { serverRuleMessage } from '../../../lib/form-rules';
import type { Payload } from '../../../lib/resource';
import { COMPANY_TYPE_OPTIONS } from '../../operate/company/company-options';

const companyFields: FieldConfig[] = [
  { name: 'parent_comp_key', required: true, maxLength: 64 },
  { name: 'comp_name', required: true, maxLength: 128 },
  { name: 'comp_short_name', maxLength: 64 },
  { name: 'comp_type', type: 'select', required: true, options: COMPANY_TYPE_OPTIONS, initialValue: 9 },
  { name: 'comp_person', required: true, maxLength: 64 },
  { name: 'comp_phone_area', required: true, rules: ['phone_area'], initialValue: PHONE_AREA_DEFAULT },
  { name: 'comp_phone', areaField: 'comp_phone_area', rules: ['phone'] },
  { name: 'country', maxLength: 64 },
  { name: 'comp_addr', maxLength: 255, wide: true },
];

const accountFields: FieldConfig[] = [
  { name: 'user_id', required: true, rules: ['user_id'], autoComplete: 'username' },
  { name: 'user_email', required: true, rules: ['email'], autoComplete: 'email' },
  { name: 'user_password', type: 'password', required: true },
  { name: 'confirm_password', type: 'password', required: true, sameAs: 'user_password', transient: true },
];

const allFields = [...companyFields, ...accountFields];

/** Company self-registration: a pending company its parent company must approve. */
export default function RegisterPage() {
  const { t } = useTranslation();
  const { search } = useLocation();
  const [form] = Form.useForm<Payload>();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  const submit = async () => {
    let values: Payload;
    try {
      values = await form.validateFields();
    } catch {
      toastError(t('rules.fill_required'));
      return;
    }
    setBusy(true);
    try {
      const payload = toPayload(allFields, values);
      const userId = String(payload.user_id);
      payload.user_password = await encodePassword(userId, String(values.user_password));
      await call(API.companyRegister.path, payload);
      setDone(true);
    } catch (err) {
      const fields = err instanceof ApiError ? err.fieldErrors : null;
      if (fields) {
        form.setFields(Object.entries(fields).map(([name, rule]) => ({ name, errors: [serverRuleMessage(rule, t)] })));
        toastError(t('rules.fill_required'));
      } else showApiError(err);
    } finally {
      setBusy(false);
    }
  };

  if (done) {
    return (
      <PublicFrame title={t('register.title')} width={640}>
        <Result
          status="success"
          title={t('register.success_title')}
          subTitle={t('register.success_desc')}
          extra={
            <Link to={{ pathname: '/login', search }}>
              <Button type="primary">{t('register.back_to_login')}</Button>
            </Link>
          }
        />
      </PublicFrame>
    );
  }

  const section = (title: string, fields: FieldConfig[]) => (
    <section aria-label={t(title)}>
      <Typography.Title level={2} style={{ fontSize: 16 }}>
        {t(title)}
      </Typography.Title>
      <Row gutter={16}>
        {fields.map((f) => (
          <Col key={f.name} xs={24} sm={f.wide ? 24 : 12}>
            <FormField field={f} i18nPrefix="register" />
          </Col>
        ))}
      </Row>
    </section>
  );

  return (
    <PublicFrame title={t('register.title')} width={640}>
      <Hint>{t('register.subtitle')}</Hint>
      <Form
        form={form}
        name="register"
        layout="vertical"
        onFinish={submit}
        disabled={busy}
        initialValues={{ comp_type: 9, comp_phone_area: PHONE_AREA_DEFAULT }}
      >
        {section('register.section_company', companyFields)}
        {section('register.section_account', accountFields)}
        <Button type="primary" htmlType="submit" block size="large" loading={busy}>
          {t('register.submit')}
        </Button>
      </Form>
      <Hint center>
        <Link to={{ pathname: '/login', search }}>{t('register.have_account')}</Link>
      </Hint>
    </PublicFrame>
  );
}
