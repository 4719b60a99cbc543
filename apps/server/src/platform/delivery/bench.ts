import type { AddressInfo } from 'node:net';
import { render } from '@iot/contract';
import { createEmailProvider } from './adapters/email.js';

/**
 * Email throughput through the real adapter: a local SMTP server (smtp-server, a dev
 * dependency, so loaded only here) with login, and N rendered zh-CN messages sent through the
 * pooled transport, `concurrency` at a time. For scripts/bench.mjs (from the built dist).
 * Both ends share this process, so the figure is a floor for a remote relay's client side.
 */
export interface SmtpBenchOptions {
  /** Messages to send. Default 2,000. */
  messages?: number;
  /** Sends in flight at once. Default 20. */
  concurrency?: number;
  /** SMTP connections in the pool. Default 5. */
  maxConnections?: number;
}

export interface SmtpBenchResult {
  sent: number;
  failed: number;
  /** The first failure's text, if any. */
  firstError?: string;
  /** Messages the server received. */
  received: number;
  seconds: number;
  perSecond: number;
}

const USER = 'bench@example.com';
const PASSWORD = 'bench-password';

export const benchSmtp = async (options: SmtpBenchOptions = {}): Promise<SmtpBenchResult> => {
  const messages = options.messages ?? 2000;
  const concurrency = Math.max(1, options.concurrency ?? 20);
  const { SMTPServer } = await import('smtp-server');
  let received = 0;
  const server = new SMTPServer({
    authMethods: ['PLAIN'],
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth: (auth, _session, callback) =>
      auth.username === USER && auth.password === PASSWORD ? callback(null, { user: USER }) : callback(new Error('bad login')),
    onData(stream, _session, callback) {
      stream.on('end', () => {
        received++;
        callback();
      });
      stream.resume();
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = (server as unknown as { server: { address(): AddressInfo } }).server.address();

  const email = createEmailProvider({ pool: true, maxConnections: options.maxConnections ?? 5 });
  const config = { smtp_addr: '127.0.0.1', smtp_port: port, ssl: false, user_id: USER, password: PASSWORD, from_name: '智能看家' };
  const template = { title: '{{app_name}}验证码 {{code}}', body: '您好 {{user_name}}，您的验证码是 {{code}}，10 分钟内有效。' };
  let next = 0;
  let sent = 0;
  let failed = 0;
  let firstError: string | undefined;
  const started = process.hrtime.bigint();
  const worker = async () => {
    while (next < messages) {
      const n = next++;
      const msg = render(template, { app_name: '智能看家', user_name: `用户${n}`, code: String(100000 + n) });
      const result = await email.send(config, msg, { to: `user${n}@example.com` });
      if (result.ok) sent++;
      else {
        failed++;
        firstError ??= result.error;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, messages) }, worker));
  } finally {
    await email.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { sent, failed, ...(firstError ? { firstError } : {}), received, seconds, perSecond: sent / seconds };
};
