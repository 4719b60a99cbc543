import { API, ErrorCode, PHONE_AREA_DEFAULT } from '@iot/contract';
import { Button, Col, Form, Result, Row } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { FieldConfig } from '../../../components/field-config';
import { FormField } from '../../../components/form-field';
import { initialValuesOf, toPayload } from '../../../components/form-values';
import { Hint, PublicFrame } from '../../../components/public-frame';
import { Wizard, type WizardFieldErrors } from '../../../components/wizard';
import { ApiError, call, showApiError } from '../../../lib/api';
import { encodePassword } from '../../../lib/crypto';
import { errorText } from '../../../lib/feedback';
import { serverRuleMessage } from '../../../lib/form-rules';
import type { Payload } from '../../../lib/resource';
import { COMPANY_TYPE_OPTIONS } from '../../operate/company/company-options';

/** Step 1: where to register. */
const companyFields: FieldConfig[] = [
  { name: 'parent_comp_key', required: true, maxLength: 64 },
  { name: 'comp_name', required: true, maxLength: 128 },
  { name: 'comp_short_name', maxLength: 64 },
  { name: 'comp_type', type: 'select', required: true, options: COMPANY_TYPE_OPTIONS, initialValue: 9 },
];

/** Step 2: how to reach the company. */
const contactFields: FieldConfig[] = [
  { name: 'comp_person', required: true, maxLength: 64 },
  { name: 'comp_phone_area', required: true, rules: ['phone_area'], initialValue: PHONE_AREA_DEFAULT },
  { name: 'comp_phone', areaField: 'comp_phone_area', rules: ['phone'] },
  { name: 'country', maxLength: 64 },
  { name: 'comp_addr', maxLength: 255, wide: true },
];

/** Step 3: the company's first account. */
const accountFields: FieldConfig[] = [
  { name: 'user_id', required: true, rules: ['user_id'], autoComplete: 'username' },
  { name: 'user_password', type: 'password', required: true },
  { name: 'confirm_password', type: 'password', required: true, sameAs: 'user_password', transient: true },
  { name: 'user_email', required: true, rules: ['email'], autoComplete: 'email' },
];

const STEPS: { title: string; fields: FieldConfig[] }[] = [
  { title: 'register.step_company', fields: companyFields },
  { title: 'register.step_contact', fields: contactFields },
  { title: 'register.step_account', fields: accountFields },
];

const allFields = STEPS.flatMap((s) => s.fields);

/** The field a refusal is about, when the answer's code names one. */
const CODE_FIELDS: Partial<Record<number, string>> = {
  [ErrorCode.CONFLICT]: 'comp_name',
  [ErrorCode.USER_ID_EXISTS]: 'user_id',
  [ErrorCode.EMAIL_EXISTS]: 'user_email',
  [ErrorCode.PHONE_EXISTS]: 'comp_phone',
};

/** Company self-registration in three steps: a pending company its parent company must approve. */
export default function RegisterPage() {
  const { t } = useTranslation();
  const { search } = useLocation();
  const [form] = Form.useForm<Payload>();
  const [done, setDone] = useState(false);

  /** Sends the registration; a refusal about fields is answered as field errors (the wizard shows their step). */
  const submit = async (): Promise<WizardFieldErrors | undefined> => {
    const values = form.getFieldsValue(true) as Payload;
    try {
      const payload = toPayload(allFields, values);
      const userId = String(payload.user_id);
      payload.user_password = await encodePassword(userId, String(values.user_password));
      await call(API.companyRegister.path, payload);
      setDone(true);
      return undefined;
    } catch (err) {
      if (!(err instanceof ApiError)) {
        showApiError(err);
        return undefined;
      }
      const fields = err.fieldErrors;
      if (fields && Object.keys(fields).some((name) => allFields.some((f) => f.name === name))) {
        return Object.fromEntries(
          Object.entries(fields).map(([name, rule]) => [
            name,
            name === 'parent_comp_key' && rule === 'not_found' ? t('register.parent_key_not_found') : serverRuleMessage(rule, t),
          ]),
        );
      }
      const field = CODE_FIELDS[err.code];
      if (field) return { [field]: err.code === ErrorCode.CONFLICT ? t('register.comp_name_taken') : errorText(err.code) };
      showApiError(err);
      return undefined;
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

  const step = (fields: FieldConfig[]) => (
    <Row gutter={16}>
      {fields.map((f) => (
        <Col key={f.name} xs={24} sm={f.wide ? 24 : 12}>
          <FormField field={f} i18nPrefix="register" />
        </Col>
      ))}
    </Row>
  );

  return (
    <PublicFrame title={t('register.title')} width={640}>
      <Hint>{t('register.subtitle')}</Hint>
      <Wizard
        form={form}
        formProps={{ name: 'register', layout: 'vertical', initialValues: initialValuesOf(allFields) }}
        label="register.title"
        steps={STEPS.map((s) => ({ title: s.title, fields: s.fields.map((f) => f.name), content: step(s.fields) }))}
        onFinish={submit}
        finishText="register.submit"
      />
      <Hint center>
        <Link to={{ pathname: '/login', search }}>{t('register.have_account')}</Link>
      </Hint>
    </PublicFrame>
  );
}
