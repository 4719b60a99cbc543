import { Button, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Panel } from '../../components/panel';
import { callRaw } from '../../lib/api';

interface ApiTestValues {
  path: string;
  body: string;
}

/** /___api_test (super admin only): call any path with a JSON body, show the raw answer. */
export default function ApiTestPage() {
  const { t } = useTranslation();
  const [answer, setAnswer] = useState<string>('');
  const [busy, setBusy] = useState(false);

  const send = async ({ path, body }: ApiTestValues) => {
    setBusy(true);
    try {
      const payload = body?.trim() ? (JSON.parse(body) as object) : {};
      const env = await callRaw(path.trim(), payload);
      setAnswer(JSON.stringify(env, null, 2));
    } catch (err) {
      setAnswer(String(err instanceof Error ? `${err.name}: ${err.message}` : err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Panel title={t('route.api_test')}>
      <Typography.Paragraph type="secondary">{t('api_test.hint')}</Typography.Paragraph>
      <Form<ApiTestValues> name="api-test" layout="vertical" onFinish={send} initialValues={{ path: 'v2/user/account/get', body: '{}' }}>
        <Form.Item name="path" label={t('api_test.path')} rules={[{ required: true, whitespace: true, message: t('rules.required') }]}>
          <Input addonBefore="POST /api/" spellCheck={false} />
        </Form.Item>
        <Form.Item
          name="body"
          label={t('api_test.body')}
          rules={[
            {
              validator: async (_r, v: string) => {
                if (!v?.trim()) return;
                JSON.parse(v);
              },
              message: t('rules.json'),
            },
          ]}
        >
          <Input.TextArea autoSize={{ minRows: 4, maxRows: 16 }} spellCheck={false} style={{ fontFamily: 'monospace' }} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy}>
          {t('api_test.send')}
        </Button>
      </Form>
      <section aria-labelledby="api-test-answer">
        <Typography.Title level={2} id="api-test-answer" style={{ fontSize: 16, marginTop: 24 }}>
          {t('api_test.answer')}
        </Typography.Title>
        <pre style={{ background: '#fafafa', border: '1px solid #f0f0f0', padding: 12, overflow: 'auto', maxHeight: 480, minHeight: 48 }}>
          {answer}
        </pre>
      </section>
    </Panel>
  );
}
