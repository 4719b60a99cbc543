import { render } from '@iot/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmailProvider, type EmailConfig } from '../src/platform/delivery/adapters/email.js';
import { PASSWORD, refusedUrl, selfSignedCert, startSmtp, USER } from './delivery-stand-ins.js';

describe('email (SMTP)', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  const email = createEmailProvider({ pool: false });
  const config = (): EmailConfig => ({
    smtp_addr: '127.0.0.1',
    smtp_port: smtp.port,
    ssl: false,
    user_id: USER,
    password: PASSWORD,
    from_name: '智能看家',
  });

  beforeAll(async () => {
    smtp = await startSmtp();
  });
  afterAll(async () => {
    await email.close();
    await smtp.close();
  });

  it('logs in and delivers a zh-CN subject and body intact', async () => {
    const msg = render(
      { title: '{{app_name}}验证码', body: '您好 {{user_name}}，您的验证码是 {{code}}，10 分钟内有效。' },
      { app_name: '智能看家', user_name: '张三', code: '428913' },
    );
    const result = await email.send(config(), { ...msg, id: 'rec-1' }, { to: 'zhang@example.cn', name: '张三' });
    expect(result).toMatchObject({ ok: true });
    expect(result.ok && result.providerId).toMatch(/^<.+@.+>$/);
    const mail = smtp.mails.at(-1)!;
    expect(mail.subject).toBe('智能看家验证码');
    expect(mail.text?.trim()).toBe('您好 张三，您的验证码是 428913，10 分钟内有效。');
    expect(mail.from).toBe(`"智能看家" <${USER}>`);
    expect(mail.to).toBe('"张三" <zhang@example.cn>');
    expect(mail.deliveryId).toBe('rec-1');
    expect(mail.user).toBe(USER);
  });

  it('sends an HTML body with the values escaped', async () => {
    const msg = render(
      { title: 'Alarm on {{dev_name}}', body: '<p>Device <b>{{dev_name}}</b> raised an alarm.</p>' },
      { dev_name: 'Door <cam> & "1"' },
      { html: true },
    );
    const result = await email.send(config(), { ...msg, html: true }, { to: 'ops@example.com' });
    expect(result.ok).toBe(true);
    const mail = smtp.mails.at(-1)!;
    expect(mail.subject).toBe('Alarm on Door <cam> & "1"');
    expect(String(mail.html).trim()).toBe('<p>Device <b>Door &lt;cam&gt; &amp; &quot;1&quot;</b> raised an alarm.</p>');
  });

  it('a wrong password is refused for good, and the password is not in the error', async () => {
    const result = await email.send({ ...config(), password: 'wrong-Secret-9876' }, { title: 't', body: 'b' }, { to: 'a@example.com' });
    expect(result).toMatchObject({ ok: false, retryable: false, code: 'EAUTH' });
    expect(result.ok || result.error).not.toContain('wrong-Secret-9876');
    expect(result.ok || result.error).not.toContain(Buffer.from('wrong-Secret-9876').toString('base64'));
  });

  it('a refused connection is worth retrying', async () => {
    const port = Number(new URL(await refusedUrl()).port);
    const result = await email.send({ ...config(), smtp_port: port }, { title: 't', body: 'b' }, { to: 'a@example.com' });
    expect(result).toMatchObject({ ok: false, retryable: true });
    expect(result.ok || result.error).not.toContain(PASSWORD);
  });

  it('refuses a recipient that is not an address, and an invalid config, without sending', async () => {
    expect(await email.send(config(), { title: 't', body: 'b' }, { to: 'not-an-address' })).toMatchObject({
      ok: false,
      retryable: false,
      invalidRecipient: true,
    });
    const bad = await email.send({ ...config(), smtp_addr: '' }, { title: 't', body: 'b' }, { to: 'a@example.com' });
    expect(bad).toMatchObject({ ok: false, retryable: false, code: 'CONFIG', error: 'email: invalid config: smtp_addr' });
  });

  it('a server that does not answer in time gives a retryable timeout', async () => {
    const quick = createEmailProvider({ pool: false, timeoutMs: 300 });
    const silent = await startSmtp({ onConnect: () => undefined });
    // A greeting that never comes: onConnect never calls back.
    const result = await quick.send({ ...config(), smtp_port: silent.port }, { title: 't', body: 'b' }, { to: 'a@example.com' });
    expect(result).toMatchObject({ ok: false, retryable: true });
    await quick.close();
    await silent.close();
  });
});

describe('email over implicit TLS (ssl)', () => {
  it('connects with TLS, trusting the configured CA', async () => {
    const { key, cert } = selfSignedCert();
    const smtp = await startSmtp({ secure: true, key, cert });
    const email = createEmailProvider({ pool: true });
    const base: EmailConfig = { smtp_addr: '127.0.0.1', smtp_port: smtp.port, ssl: true, user_id: USER, password: PASSWORD };
    expect(await email.send({ ...base, ca: cert }, { title: '安全连接', body: '正文' }, { to: 'a@example.com' })).toMatchObject({
      ok: true,
    });
    expect(smtp.mails.at(-1)).toMatchObject({ subject: '安全连接' });
    expect(smtp.mails.at(-1)?.text?.trim()).toBe('正文');
    // Without the CA the self-signed certificate is refused: a configuration fault, not retried.
    const untrusted = await email.send(base, { title: 't', body: 'b' }, { to: 'a@example.com' });
    expect(untrusted).toMatchObject({ ok: false, retryable: false });
    await email.close();
    await smtp.close();
  });
});

describe('benchSmtp', () => {
  it('sends every message through the pooled transport to its own server', async () => {
    const { benchSmtp } = await import('../src/platform/delivery/bench.js');
    const result = await benchSmtp({ messages: 40, concurrency: 8, maxConnections: 2 });
    expect(result).toMatchObject({ sent: 40, failed: 0, received: 40 });
    expect(result.perSecond).toBeGreaterThan(0);
  });
});
