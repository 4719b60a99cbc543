import crypto from 'node:crypto';
import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool/index.js';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { z } from 'zod';
import { flagField, pemField, portField, requiredText } from '../config-fields.js';
import { DeliveryError, defineProvider, fail, type ProviderOptions } from '../provider.js';

/**
 * Email over SMTP (nodemailer). `ssl` is implicit TLS (usually port 465); without it the
 * connection upgrades with STARTTLS when the server offers it (587, 25). Subject and body
 * are UTF-8 (RFC 2047 encoded words, quoted-printable or base64 parts), so zh-CN text arrives
 * intact.
 */
export const emailConfigSchema = z.object({
  smtp_addr: requiredText,
  /** Default 465 with ssl, 587 without. */
  smtp_port: portField.optional(),
  ssl: flagField.default(false),
  /** SMTP login; also the sender address when `from` is not set. */
  user_id: z.string().optional(),
  password: z.string().optional(),
  /** Sender address. */
  from: z.string().optional(),
  /** Sender display name (the platform's name). */
  from_name: z.string().optional(),
  /** An extra trusted CA (PEM) for a private relay with its own certificate. */
  ca: pemField.optional(),
});

export type EmailConfig = z.output<typeof emailConfigSchema>;

export interface EmailProviderOptions extends ProviderOptions {
  /** Keep connections open per platform and send several messages on each (nodemailer pool). Default true. */
  pool?: boolean;
  /** Connections per platform when pooled. Default 5. */
  maxConnections?: number;
}

type Transport = Transporter<SMTPPool.SentMessageInfo | SMTPTransport.SentMessageInfo>;

interface SmtpError extends Error {
  code?: string;
  responseCode?: number;
  response?: string;
}

const NETWORK_CODES = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNREFUSED', 'ECONNRESET', 'EPROTOCOL', 'ETLS']);
const CERTIFICATE_TROUBLE = /certificate|self[- ]signed|CERT_|hostname\/IP does not match/i;

/** SMTP semantics: 4xx replies are transient, 5xx permanent; authentication failures are permanent. */
const smtpFailure = (err: SmtpError) => {
  const code = err.code;
  const status = err.responseCode;
  const text = (err.message || code || 'failed').replace(/\s+/g, ' ').slice(0, 200);
  const extra = { ...(code ? { code } : {}), ...(status ? { status } : {}) };
  if (code === 'EAUTH' || code === 'ENOAUTH') return fail('email', text, false, extra);
  if (status) return fail('email', text, status < 500, extra);
  if (code && NETWORK_CODES.has(code) && !CERTIFICATE_TROUBLE.test(text)) return fail('email', text, true, extra);
  return fail('email', text, false, extra);
};

const looksLikeAddress = (to: string) => /^[^\s@<>]+@[^\s@<>]+$/.test(to);

export const createEmailProvider = (options: EmailProviderOptions = {}) => {
  const pooled = options.pool ?? true;
  const timeoutMs = options.timeoutMs ?? 10_000;
  // One pool per distinct server + login; the key hashes the password rather than holding it.
  const pools = new Map<string, Transport>();

  const transportOptions = (c: EmailConfig): SMTPTransport.Options => ({
    host: c.smtp_addr,
    port: c.smtp_port ?? (c.ssl ? 465 : 587),
    secure: c.ssl,
    ...(c.user_id ? { auth: { user: c.user_id, pass: c.password ?? '' } } : {}),
    ...(c.ca ? { tls: { ca: c.ca.replace(/\\n/g, '\n') } } : {}),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });

  const transportFor = (c: EmailConfig): { transport: Transport; shared: boolean } => {
    if (!pooled) return { transport: nodemailer.createTransport(transportOptions(c)), shared: false };
    const key = crypto
      .createHash('sha256')
      .update(JSON.stringify([c.smtp_addr, c.smtp_port, c.ssl, c.user_id, c.password, c.ca]))
      .digest('base64url');
    let transport = pools.get(key);
    if (!transport) {
      transport = nodemailer.createTransport({ ...transportOptions(c), pool: true, maxConnections: options.maxConnections ?? 5 });
      pools.set(key, transport);
    }
    return { transport, shared: true };
  };

  return defineProvider(
    {
      kind: 'email',
      configSchema: emailConfigSchema,
      secretsOf: (c) => [c.password],
      async send(config, message, recipient, ctx) {
        if (!looksLikeAddress(recipient.to))
          return fail('email', 'not an email address', false, { code: 'EADDRESS', invalidRecipient: true });
        const sender = config.from ?? config.user_id;
        if (!sender) return fail('email', 'invalid config: from', false, { code: 'CONFIG' });
        const { transport, shared } = transportFor(config);
        const sending = transport.sendMail({
          from: config.from_name ? { name: config.from_name, address: sender } : sender,
          to: recipient.name ? { name: recipient.name, address: recipient.to } : recipient.to,
          subject: message.title,
          ...(message.html ? { html: message.body } : { text: message.body }),
          ...(message.id ? { headers: { 'X-Delivery-Id': message.id } } : {}),
        });
        // nodemailer takes no signal: on abort a connection of our own is closed; a pooled one
        // finishes the message in the background and the answer is the timeout.
        const aborted = new Promise<never>((_, reject) => {
          const onAbort = () => {
            if (!shared) transport.close();
            reject(ctx.signal.reason);
          };
          if (ctx.signal.aborted) onAbort();
          else ctx.signal.addEventListener('abort', onAbort, { once: true });
          void sending.finally(() => ctx.signal.removeEventListener('abort', onAbort)).catch(() => undefined);
        });
        try {
          const info = await Promise.race([sending, aborted]);
          if (info.rejected.length > 0) {
            return fail('email', `rejected by the server: ${String(info.response ?? '')}`.slice(0, 200), false, { invalidRecipient: true });
          }
          return { ok: true, providerId: info.messageId };
        } catch (err) {
          if (ctx.signal.aborted) throw err;
          throw new DeliveryError(smtpFailure(err as SmtpError));
        } finally {
          if (!shared) transport.close();
        }
      },
      async close() {
        for (const transport of pools.values()) transport.close();
        pools.clear();
      },
    },
    options,
  );
};

export type EmailProvider = ReturnType<typeof createEmailProvider>;
