import { ErrorCode, USER_API } from '@iot/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Col, Descriptions, Form, Input, Row, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Fields } from '../../../components/field-config';
import { formItemProps, showFieldErrors } from '../../../components/field-rules';
import { formModel } from '../../../components/form-model';
import { Panel } from '../../../components/panel';
import { roleLabel } from '../../../components/pickers';
import { fetchAccount } from '../../../lib/account';
import { ApiError, call, showApiError } from '../../../lib/api';
import { encodePassword } from '../../../lib/crypto';
import { toastError } from '../../../lib/feedback';
import { formatTime } from '../../../lib/format';
import type { Payload } from '../../../lib/resource';
import { checkPayload } from '../../../lib/schema-fields';
import { USER_STATE_COLORS } from '../../../lib/user-state';

const PASSWORD_FIELDS: Fields<'account'> = [
  { name: 'old_password', widget: 'password', encoded: true, autoComplete: 'current-password' },
  { name: 'new_password', widget: 'password', encoded: true },
  { name: 'confirm_password', widget: 'password', sameAs: 'new_password' },
];

/** The command's schema checks the passwords (both sent encoded); the confirmation is the form's. */
const passwordModel = formModel({ fields: PASSWORD_FIELDS, area: 'account', mode: 'add', schema: USER_API.passwordModify.input });

/** Change own password (user/password/modify): both passwords encoded; other sessions end. */
const PasswordCard = ({ userId }: { userId: string }) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<Payload>();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  const submit = async (values: Payload) => {
    setBusy(true);
    setDone(false);
    try {
      const payload = {
        user_id: userId,
        old_password: await encodePassword(userId, String(values.old_password)),
        new_password: await encodePassword(userId, String(values.new_password)),
      };
      const checked = checkPayload(USER_API.passwordModify.input, payload);
      if (checked.errors) {
        showFieldErrors(form, passwordModel, checked.errors, t);
        return;
      }
      await call(USER_API.passwordModify, checked.input);
      form.resetFields();
      setDone(true);
    } catch (err) {
      if (err instanceof ApiError && err.code === ErrorCode.WRONG_PASSWORD) {
        form.setFields([{ name: 'old_password', errors: [t('errors.512')] }]);
      } else showApiError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Panel title={t('account.password_title')}>
      {done && <Alert type="success" showIcon title={t('account.password_changed')} style={{ marginBottom: 16 }} role="status" />}
      <Form
        form={form}
        layout="vertical"
        name="password-modify"
        aria-label={t('account.password_title')}
        onFinish={submit}
        onFinishFailed={() => toastError(t('rules.fill_required'))}
        style={{ maxWidth: 420 }}
      >
        {passwordModel.fields.map((f) => (
          <Form.Item key={f.name} {...formItemProps(passwordModel, f, t)}>
            <Input.Password autoComplete={f.autoComplete ?? 'new-password'} />
          </Form.Item>
        ))}
        <Button type="primary" htmlType="submit" loading={busy}>
          {t('account.change_password')}
        </Button>
      </Form>
    </Panel>
  );
};

/** Own account and company (user/info), and the password change. */
export default function InfoPage() {
  const { t, i18n } = useTranslation();
  const account = useQuery({ queryKey: ['account-info'], queryFn: ({ signal }) => fetchAccount(signal) });
  const user = account.data?.user;
  const company = account.data?.company;
  const role = account.data?.role;
  const phone = user?.user_phone ? `${user.user_phone_area} ${user.user_phone}` : '';
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={14}>
        <Panel title={t('account.profile')} loading={account.isLoading} style={{ marginBottom: 16 }}>
          {user && (
            <Descriptions column={{ xs: 1, sm: 2 }} size="small">
              <Descriptions.Item label={t('user.fields.user_id')}>{user.user_id}</Descriptions.Item>
              <Descriptions.Item label={t('user.fields.user_name')}>{user.user_name}</Descriptions.Item>
              <Descriptions.Item label={t('user.fields.user_email')}>{user.user_email}</Descriptions.Item>
              <Descriptions.Item label={t('user.fields.phone')}>{phone}</Descriptions.Item>
              <Descriptions.Item label={t('user.fields.user_type')}>{t(`user.types.${user.user_type}`)}</Descriptions.Item>
              <Descriptions.Item label={t('user.fields.role_name')}>{role ? roleLabel(role, i18n) : '–'}</Descriptions.Item>
              <Descriptions.Item label={t('user.fields.state')}>
                <Tag color={USER_STATE_COLORS[user.state as 1 | 2]}>{t(`user.states.${user.state}`)}</Tag>
              </Descriptions.Item>
              <Descriptions.Item label={t('user.fields.validity_time')}>
                {formatTime(user.validity_time, 'YYYY-MM-DD') || t('user.never')}
              </Descriptions.Item>
              <Descriptions.Item label={t('user.fields.gmt_create')}>{formatTime(user.gmt_create)}</Descriptions.Item>
            </Descriptions>
          )}
        </Panel>
        <Panel title={t('account.company')} loading={account.isLoading}>
          {company && (
            <Descriptions column={{ xs: 1, sm: 2 }} size="small">
              <Descriptions.Item label={t('company.fields.comp_name')}>{company.comp_name}</Descriptions.Item>
              <Descriptions.Item label={t('company.fields.comp_key')}>
                <span style={{ fontFamily: 'monospace' }}>{company.comp_key}</span>
              </Descriptions.Item>
              <Descriptions.Item label={t('company.fields.comp_type')}>{t(`company.types.${company.comp_type}`)}</Descriptions.Item>
              <Descriptions.Item label={t('company.fields.country')}>{company.country}</Descriptions.Item>
            </Descriptions>
          )}
        </Panel>
      </Col>
      <Col xs={24} xl={10}>
        {user && <PasswordCard userId={user.user_id} />}
      </Col>
    </Row>
  );
}
