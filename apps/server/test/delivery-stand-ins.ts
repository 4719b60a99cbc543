import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

/**
 * Local stand-ins for the delivery providers: each checks a request the way the provider
 * would, from the provider's documented algorithm, written here independently of the
 * adapters' own signing code.
 */

export interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface HttpStandIn {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

export const startHttpStandIn = async (answer: (req: Received) => Reply | Promise<Reply> | 'hang'): Promise<HttpStandIn> => {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const r: Received = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(r);
      const reply = await answer(r);
      if (reply === 'hang') return;
      const text = reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

/** A local port nothing listens on (bound, then released). */
export const refusedUrl = async (): Promise<string> => {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
};

export const formOf = (body: string): Record<string, string> => Object.fromEntries(new URLSearchParams(body));

/** base64url → bytes, and the JSON of a JWT part. */
export const fromB64url = (s: string): Buffer => Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
export const jwtParts = (jwt: string) => {
  const [h = '', p = '', s = ''] = jwt.split('.');
  return {
    header: JSON.parse(fromB64url(h).toString('utf8')) as Record<string, unknown>,
    claims: JSON.parse(fromB64url(p).toString('utf8')) as Record<string, unknown>,
    signingInput: Buffer.from(`${h}.${p}`),
    signature: fromB64url(s),
  };
};

export const ecKeyPair = () => {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { pem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), publicKey };
};

export const rsaKeyPair = () => {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { pem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), publicKey };
};

/** A self-signed certificate for 127.0.0.1 / localhost (openssl), for TLS stand-ins. */
export const selfSignedCert = (): { key: string; cert: string } => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'delivery-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    return { key: fs.readFileSync(path.join(dir, 'key.pem'), 'utf8'), cert: fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
};

export interface Mail {
  from: string | undefined;
  to: string | undefined;
  subject: string | undefined;
  text: string | undefined;
  html: string | false | undefined;
  deliveryId: unknown;
  user: string | undefined;
}

export const USER = 'alerts@example.com';
export const PASSWORD = 'smtp-Pa55word-0123';

/** An SMTP server that takes one login and parses what it receives. */
export const startSmtp = async (extra: Partial<SMTPServerOptions> = {}) => {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authMethods: ['PLAIN', 'LOGIN'],
    allowInsecureAuth: true,
    disabledCommands: extra.secure ? [] : ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === USER && auth.password === PASSWORD) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          mails.push({
            from: parsed.from?.text,
            to: Array.isArray(parsed.to) ? parsed.to.map((t) => t.text).join(', ') : parsed.to?.text,
            subject: parsed.subject,
            text: parsed.text,
            html: parsed.html,
            deliveryId: parsed.headers.get('x-delivery-id'),
            user: typeof session.user === 'string' ? session.user : undefined,
          });
          callback();
        })
        .catch(callback);
    },
    ...extra,
  });
  // Clients that give up (the untrusted-certificate test) show up as server errors.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = (server as unknown as { server: { address(): AddressInfo } }).server.address();
  return { port, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
};
