import { ErrorCode, USER_API } from '@iot/contract';
import { Button, Col, Form, Result, Row } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import type { Fields } from '../../../components/field-config';
import { fieldRuleMessage, recheckTouched } from '../../../components/field-rules';
import { FormField } from '../../../components/form-field';
import { formModel, type ResolvedField } from '../../../components/form-model';
import { Hint, PublicFrame } from '../../../components/public-frame';
import { Wizard, type WizardFieldErrors } from '../../../components/wizard';
import { ApiError, call, showApiError } from '../../../lib/api';
import { encodePassword } from '../../../lib/crypto';
import { errorText } from '../../../lib/feedback';
import type { LabelKey } from '../../../lib/labels';
import type { Payload } from '../../../lib/resource';
import { checkPayload } from '../../../lib/schema-fields';

/** The three steps: where to register, how to reach the company, its first account. */
const STEPS: { title: LabelKey; fields: Fields<'register'> }[] = [
  {
    title: 'register.step_company',
    fields: [
      { name: 'parent_comp_key' },
      { name: 'comp_name' },
      { name: 'comp_short_name' },
      { name: 'comp_type', enumLabels: 'company.types' },
    ],
  },
  {
    title: 'register.step_contact',
    fields: [
      { name: 'comp_person' },
      { name: 'comp_phone_area' },
      { name: 'comp_phone' },
      { name: 'country' },
      { name: 'comp_addr', wide: true },
    ],
  },
  {
    title: 'register.step_account',
    fields: [
      { name: 'user_id', autoComplete: 'username' },
      { name: 'user_password', widget: 'password', encoded: true },
      { name: 'confirm_password', widget: 'password', sameAs: 'user_password' },
      { name: 'user_email', autoComplete: 'email' },
    ],
  },
];

/** Every field's rules are the registration command's schema. */
const model = formModel({ fields: STEPS.flatMap((s) => s.fields), area: 'register', mode: 'add', schema: USER_API.companyRegister.input });
const byName = new Map(model.fields.map((f) => [f.name, f]));

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

  const messagesOf = (fields: Record<string, string>): WizardFieldErrors =>
    Object.fromEntries(Object.entries(fields).map(([name, rule]) => [name, fieldRuleMessage(model, byName.get(name), rule, t)]));

  /** Sends the registration; a refusal about fields is answered as field errors (the wizard shows their step). */
  const submit = async (): Promise<WizardFieldErrors | undefined> => {
    const values = form.getFieldsValue(true) as Payload;
    try {
      const payload = model.payloadOf(values);
      payload.user_password = await encodePassword(String(payload.user_id), String(values.user_password));
      const checked = checkPayload(USER_API.companyRegister.input, payload);
      if (checked.errors) return messagesOf(checked.errors);
      await call(USER_API.companyRegister, checked.input);
      setDone(true);
      return undefined;
    } catch (err) {
      if (!(err instanceof ApiError)) {
        showApiError(err);
        return undefined;
      }
      const fields = err.fieldErrors;
      if (fields && Object.keys(fields).some((name) => byName.has(name))) return messagesOf(fields);
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

  const step = (fields: ResolvedField[]) => (
    <Row gutter={16}>
      {fields.map((f) => (
        <Col key={f.name} xs={24} sm={f.wide ? 24 : 12}>
          <FormField field={f} model={model} />
        </Col>
      ))}
    </Row>
  );

  return (
    <PublicFrame title={t('register.title')} width={640}>
      <Hint>{t('register.subtitle')}</Hint>
      <Wizard
        form={form}
        formProps={{
          name: 'register',
          layout: 'vertical',
          initialValues: model.initialValues(),
          onValuesChange: (changed: Payload) => recheckTouched(form, model, Object.keys(changed)),
        }}
        label="register.title"
        steps={STEPS.map((s) => ({
          title: s.title,
          fields: s.fields.map((f) => f.name),
          content: step(model.fields.filter((f) => s.fields.some((sf) => sf.name === f.name))),
        }))}
        onFinish={submit}
        finishText="register.submit"
      />
      <Hint center>
        <Link to={{ pathname: '/login', search }}>{t('register.have_account')}</Link>
      </Hint>
    </PublicFrame>
  );
}
