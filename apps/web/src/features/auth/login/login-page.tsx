import { LockOutlined, UserOutlined } from '@ant-design/icons';
import type { LoginOutput } from '@iot/contract';
import { Alert, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { Hint, PublicFrame } from '../../../components/public-frame';
import { ApiError, call, NETWORK_ERROR } from '../../../lib/api';
import { hasWebCrypto, loginCipher } from '../../../lib/crypto';
import { errorText } from '../../../lib/feedback';
import { currentLanguage } from '../../../lib/i18n';
import { withLang } from '../../../lib/lang';
import { takeReturnPath } from '../../../lib/return-path';
import { setSessionInfo, setToken } from '../../../lib/session';
import { LOGIN, LOGIN_KEY } from '../../../lib/shell-paths';

interface LoginValues {
  user_id: string;
  password: string;
}

/** CONTRACT §4: fetch a key, encrypt account + encoded password + time, log in. */
const logIn = async ({ user_id, password }: LoginValues): Promise<LoginOutput> => {
  const key = await call(LOGIN_KEY);
  const receivedAt = Date.now();
  const userId = user_id.trim();
  const cipher = await loginCipher(key, receivedAt, userId, password);
  return call(LOGIN, {
    device_system: 'web',
    device_model: navigator.userAgent.slice(0, 128),
    user_id: userId,
    user_password: cipher,
    key_id: key.key_id,
  });
};

const LoginForm = ({ variant }: { variant: 'console' | 'link3' }) => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { search } = useLocation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const insecure = !hasWebCrypto();

  const submit = async (values: LoginValues) => {
    setBusy(true);
    setError(null);
    try {
      const answer = await logIn(values);
      setToken(answer.acc_token);
      setSessionInfo({ user: answer.user, menus: answer.menus ?? [] });
      const [pathname = '/dashboard', hash = ''] = takeReturnPath().split('#');
      navigate({ pathname, search: withLang(search, currentLanguage()), hash: hash ? `#${hash}` : '' }, { replace: true });
    } catch (err) {
      const code = err instanceof ApiError ? err.code : 'unknown_error';
      setError(errorText(code === NETWORK_ERROR ? 'network' : code));
    } finally {
      setBusy(false);
    }
  };

  return (
    <PublicFrame title={t(variant === 'link3' ? 'login.auth_title' : 'login.title')}>
      {variant === 'console' && <Hint>{t('login.subtitle')}</Hint>}
      {insecure && <Alert type="warning" showIcon title={t('app.insecure')} style={{ marginBottom: 16 }} />}
      {error && <Alert type="error" showIcon title={error} role="alert" style={{ marginBottom: 16 }} />}
      <Form<LoginValues> name="login" layout="vertical" onFinish={submit} requiredMark={false} disabled={busy}>
        <Form.Item name="user_id" label={t('login.account')} rules={[{ required: true, whitespace: true, message: t('rules.required') }]}>
          <Input prefix={<UserOutlined aria-hidden />} autoComplete="username" autoFocus size="large" />
        </Form.Item>
        <Form.Item name="password" label={t('login.password')} rules={[{ required: true, message: t('rules.required') }]}>
          <Input.Password prefix={<LockOutlined aria-hidden />} autoComplete="current-password" size="large" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block size="large" loading={busy}>
          {t('login.submit')}
        </Button>
      </Form>
      {variant === 'console' && (
        <p style={{ margin: '16px 0 0', textAlign: 'center' }}>
          <Link to={{ pathname: '/register', search }}>{t('login.register')}</Link>
        </p>
      )}
    </PublicFrame>
  );
};

export default function LoginPage() {
  return <LoginForm variant="console" />;
}

/** /link3_login: the same login for third-party linking (English by default). */
export function Link3LoginPage() {
  return <LoginForm variant="link3" />;
}
