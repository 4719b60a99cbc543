import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
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

export const APNS_KEY_ID = 'ABC123DEFG';
export const APNS_TEAM_ID = 'DEF123GHIJ';
export const APNS_BUNDLE_ID = 'com.example.iot';
export const APNS_GONE_DEVICE = 'b'.repeat(64);

export interface ApnsPush {
  path: string;
  headers: http2.IncomingHttpHeaders;
  body: unknown;
}

/**
 * An APNs stand-in: HTTP/2 (TLS or cleartext), checks the provider JWT with the team's
 * public key as Apple does (ES256, kid, iss, iat within the hour), the topic and push type.
 */
export const startApns = async (publicKey: crypto.KeyObject, tls?: { key: string; cert: string }) => {
  const pushes: ApnsPush[] = [];
  let sessions = 0;
  const handler = (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answer = (status: number, reason?: string) => {
        res.writeHead(status, { 'apns-id': 'A5C2B8F0-1D5E-4C4B-9E4F-0123456789AB', 'content-type': 'application/json' });
        if (reason) res.end(JSON.stringify({ reason }));
        else res.end();
      };
      const token = /^bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
      if (!token) return answer(403, 'MissingProviderToken');
      const jwt = jwtParts(token);
      const valid = crypto.verify('sha256', jwt.signingInput, { key: publicKey, dsaEncoding: 'ieee-p1363' }, jwt.signature);
      const iat = Number(jwt.claims.iat);
      if (!valid || jwt.header.alg !== 'ES256' || jwt.header.kid !== APNS_KEY_ID || jwt.claims.iss !== APNS_TEAM_ID)
        return answer(403, 'InvalidProviderToken');
      if (Math.abs(Date.now() / 1000 - iat) > 3600) return answer(403, 'ExpiredProviderToken');
      if (req.method !== 'POST') return answer(405, 'MethodNotAllowed');
      if (req.headers['apns-topic'] !== APNS_BUNDLE_ID) return answer(400, 'TopicDisallowed');
      if (req.headers['apns-push-type'] !== 'alert') return answer(400, 'InvalidPushType');
      pushes.push({ path: req.url, headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      if (req.url === `/3/device/${APNS_GONE_DEVICE}`) return answer(410, 'Unregistered');
      if (!req.url.startsWith('/3/device/')) return answer(404, 'BadPath');
      answer(200);
    });
  };
  const server = tls ? http2.createSecureServer({ key: tls.key, cert: tls.cert }, handler) : http2.createServer(handler);
  const open = new Set<http2.ServerHttp2Session>();
  server.on('session', (session: http2.ServerHttp2Session) => {
    sessions++;
    open.add(session);
    session.on('close', () => open.delete(session));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    pushes,
    sessions: () => sessions,
    /** Also ends the sessions clients keep open (a server's pooled connection). */
    close: () =>
      new Promise<void>((resolve) => {
        for (const session of open) session.destroy();
        server.close(() => resolve());
      }),
  };
};

/** RFC 3986 percent-encoding, byte by byte (Aliyun's POP signature rules). */
const aliyunEncode = (s: string) =>
  Array.from(Buffer.from(s, 'utf8'), (b) =>
    /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
  ).join('');

/** Aliyun's SendSms as Aliyun checks it: the RPC signature over the sorted, encoded parameters (HMAC-SHA1 with `secret&`). */
export const aliyunCheck = (KEYS: Record<string, string>) => (req: Received) => {
  const params = formOf(req.body);
  const { Signature: signature, ...rest } = params;
  const secret = KEYS[rest.AccessKeyId ?? ''];
  if (!secret) return { status: 404, body: { Code: 'InvalidAccessKeyId.NotFound', Message: 'Specified access key is not found.' } };
  const canonical = Object.keys(rest)
    .sort()
    .map((k) => `${aliyunEncode(k)}=${aliyunEncode(rest[k] ?? '')}`)
    .join('&');
  const expected = crypto
    .createHmac('sha1', `${secret}&`)
    .update(`${req.method}&${aliyunEncode('/')}&${aliyunEncode(canonical)}`)
    .digest('base64');
  // Aliyun answers a bad signature with HTTP 400 SignatureDoesNotMatch.
  if (signature !== expected)
    return { status: 400, body: { Code: 'SignatureDoesNotMatch', Message: 'Specified signature is not matched with our calculation.' } };
  if (rest.PhoneNumbers === '0000') return { status: 200, body: { Code: 'isv.MOBILE_NUMBER_ILLEGAL', Message: '非法手机号' } };
  if (rest.PhoneNumbers === '1111') return { status: 200, body: { Code: 'isv.BUSINESS_LIMIT_CONTROL', Message: '业务限流' } };
  return {
    status: 200,
    body: { Code: 'OK', Message: 'OK', BizId: '900619746936498440^0', RequestId: 'F655A8D5-B967-440B-8683-DAD6FF8DE990' },
  };
};

const tc3Hmac = (key: string | Buffer, text: string) => crypto.createHmac('sha256', key).update(text).digest();
const tc3Sha = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

/** Tencent Cloud SMS's TC3-HMAC-SHA256 check, from the API 3.0 signature document; `+860` is an incorrect number. */
export const tencentCheck = (SECRETS: Record<string, string>) => (req: Received) => {
  const auth =
    /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d\d-\d\d)\/sms\/tc3_request, SignedHeaders=([a-z;-]+), Signature=([0-9a-f]{64})$/.exec(
      String(req.headers.authorization ?? ''),
    );
  const fault = (Code: string, Message: string) => ({ status: 200, body: { Response: { Error: { Code, Message }, RequestId: 'r' } } });
  if (!auth) return fault('AuthFailure.InvalidAuthorization', 'Authorization header is malformed');
  const [, secretId = '', date = '', signedHeaders = '', signature] = auth;
  const secret = SECRETS[secretId];
  if (!secret) return fault('AuthFailure.SecretIdNotFound', 'The SecretId is not found');
  const timestamp = String(req.headers['x-tc-timestamp']);
  if (new Date(Number(timestamp) * 1000).toISOString().slice(0, 10) !== date) return fault('AuthFailure.SignatureFailure', 'date');
  const headers = signedHeaders.split(';');
  const canonicalHeaders = headers
    .map(
      (h) =>
        `${h}:${String(req.headers[h] ?? '')
          .trim()
          .toLowerCase()}\n`,
    )
    .join('');
  const canonicalRequest = ['POST', '/', '', canonicalHeaders, signedHeaders, tc3Sha(req.body)].join('\n');
  const stringToSign = ['TC3-HMAC-SHA256', timestamp, `${date}/sms/tc3_request`, tc3Sha(canonicalRequest)].join('\n');
  const key = tc3Hmac(tc3Hmac(tc3Hmac(`TC3${secret}`, date), 'sms'), 'tc3_request');
  if (crypto.createHmac('sha256', key).update(stringToSign).digest('hex') !== signature) {
    return fault('AuthFailure.SignatureFailure', 'The provided credentials could not be validated.');
  }
  if (req.headers['x-tc-action'] !== 'SendSms' || req.headers['x-tc-version'] !== '2021-01-11') return fault('InvalidAction', 'action');
  const { PhoneNumberSet } = JSON.parse(req.body) as { PhoneNumberSet: string[] };
  const to = PhoneNumberSet[0] ?? '';
  const sendStatus =
    to === '+860'
      ? { Code: 'InvalidParameterValue.IncorrectPhoneNumber', Message: 'incorrect phone number', PhoneNumber: to }
      : { SerialNo: '5000:1045710669157053657849499619', PhoneNumber: to, Fee: 1, Code: 'Ok', Message: 'send success', IsoCode: 'CN' };
  return { status: 200, body: { Response: { SendStatusSet: [sendStatus], RequestId: 'a0aabda6-cf91-4f3e-a81f-9198114a2279' } } };
};
