import crypto from 'node:crypto';
import { formOf, type HttpStandIn, type Received, type Reply, startHttpStandIn } from './delivery-stand-ins.js';

/**
 * Stand-ins for the Android vendors' push services (Huawei, Honor, vivo): each issues access
 * tokens only for the right credentials (client id and secret; vivo's MD5 sign recomputed here
 * from its documented recipe, not from the adapter), accepts a send only with a token it issued,
 * checks the message's shape as the service documents it, and keeps what it accepted.
 *
 * Recipients that make it answer otherwise: `gone-…` (the push token is no longer valid),
 * `busy-…` (HTTP 503: the service is overloaded).
 */

export interface VendorPush {
  path: string;
  headers: Received['headers'];
  body: Record<string, unknown>;
}

export interface VendorStandIn extends HttpStandIn {
  /** Accepted sends. */
  pushes: VendorPush[];
  /** How many tokens were asked for (good credentials or not). */
  authCalls(): number;
  /** Every token issued so far expires now (the next send with one is refused as expired). */
  expireTokens(): void;
}

const json = (status: number, body: unknown): Reply => ({ status, body });

/**
 * The OAuth 2.0 client-credentials grant Huawei and Honor run, and their send check: bearer
 * tokens it issued, expired ones refused with 80200003, unknown ones with 80200001. The refusal
 * of a bad secret quotes it back, as a careless gateway might: the adapter must mask it.
 */
const startOAuthVendor = async (
  tokenPath: string,
  clients: Readonly<Record<string, string>>,
  sendPath: RegExp,
  check: (req: Received, body: Record<string, unknown>) => Reply | undefined,
  accept: (req: Received, body: Record<string, unknown>) => Reply,
): Promise<VendorStandIn> => {
  const issued = new Set<string>();
  const expired = new Set<string>();
  const pushes: VendorPush[] = [];
  let authCalls = 0;
  const standIn = await startHttpStandIn((req) => {
    if (req.path === tokenPath) {
      authCalls++;
      const form = formOf(req.body);
      if (req.method !== 'POST' || !String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded'))
        return json(400, { error: 1101, sub_error: 20001, error_description: 'invalid request' });
      if (form.grant_type !== 'client_credentials')
        return json(400, { error: 1102, sub_error: 20002, error_description: 'unsupported grant_type' });
      const secret = clients[form.client_id ?? ''];
      if (!secret) return json(400, { error: 1102, sub_error: 20186, error_description: 'client id invalid' });
      if (form.client_secret !== secret)
        return json(401, { error: 1101, sub_error: 20058, error_description: `invalid client_secret ${form.client_secret}` });
      const token = `AT${crypto.randomBytes(12).toString('hex')}`;
      issued.add(token);
      return json(200, { access_token: token, expires_in: 3600, token_type: 'Bearer' });
    }
    if (req.method !== 'POST' || !sendPath.test(req.path)) return json(404, { code: '80100001', msg: `no such path ${req.path}` });
    const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1] ?? '';
    if (expired.has(bearer)) return json(401, { code: '80200003', msg: 'Oauth Token expired' });
    if (!issued.has(bearer)) return json(401, { code: '80200001', msg: 'Oauth authentication error' });
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(req.body) as Record<string, unknown>;
    } catch {
      return json(400, { code: '80100003', msg: 'Illegal message structure' });
    }
    const refused = check(req, body);
    if (refused) return refused;
    pushes.push({ path: req.path, headers: req.headers, body });
    return accept(req, body);
  });
  return {
    ...standIn,
    pushes,
    authCalls: () => authCalls,
    expireTokens() {
      for (const token of issued) expired.add(token);
      issued.clear();
    },
  };
};

const notificationOk = (n: unknown): boolean =>
  typeof n === 'object' &&
  n !== null &&
  typeof (n as { title?: unknown }).title === 'string' &&
  typeof (n as { body?: unknown }).body === 'string';

/** The single push token of a message (`token: [t]`), or undefined. */
const soleToken = (m: Record<string, unknown>): string | undefined =>
  Array.isArray(m.token) && m.token.length === 1 && typeof m.token[0] === 'string' ? m.token[0] : undefined;

/**
 * Huawei Push Kit v1: POST /v1/<app id>/messages:send, `{validate_only, message: {notification,
 * android.notification (click_action type 1–4), token: [..]}}`; `data` must be a string.
 */
export const startHuawei = (clients: Readonly<Record<string, string>>, appId: string): Promise<VendorStandIn> =>
  startOAuthVendor(
    '/oauth2/v3/token',
    clients,
    /^\/v1\/[^/]+\/messages:send$/,
    (req, body) => {
      if (req.path !== `/v1/${appId}/messages:send`) return json(403, { code: '80300002', msg: 'APP has no permission to send' });
      const message = body.message as Record<string, unknown> | undefined;
      const android = (message?.android as { notification?: { click_action?: { type?: unknown } } } | undefined)?.notification;
      if (
        typeof body.validate_only !== 'boolean' ||
        !message ||
        !notificationOk(message.notification) ||
        !notificationOk(android) ||
        ![1, 2, 3, 4].includes(Number(android?.click_action?.type)) ||
        !soleToken(message) ||
        (message.data !== undefined && typeof message.data !== 'string')
      )
        return json(400, { code: '80100003', msg: 'Illegal message structure' });
      const token = soleToken(message) ?? '';
      if (token.startsWith('gone-')) return json(400, { code: '80300007', msg: 'All the tokens are invalid' });
      if (token.startsWith('busy-')) return json(503, { code: '81000001', msg: 'System inner error' });
      return undefined;
    },
    () => json(200, { code: '80000000', msg: 'Success', requestId: '157440955549500001002006' }),
  );

/**
 * Honor Push: POST /api/v1/<app id>/sendMessage with a `timestamp` header (ms, within five
 * minutes), `{notification, android.notification (clickAction type 1–3), token: [..]}`.
 */
export const startHonor = (clients: Readonly<Record<string, string>>, appId: string): Promise<VendorStandIn> =>
  startOAuthVendor(
    '/auth/token',
    clients,
    /^\/api\/v1\/[^/]+\/sendMessage$/,
    (req, body) => {
      if (req.path !== `/api/v1/${appId}/sendMessage`) return json(403, { code: '80300002', msg: 'no permission to send' });
      const timestamp = Number(req.headers.timestamp);
      if (!Number.isInteger(timestamp) || Math.abs(Date.now() - timestamp) > 300_000)
        return json(400, { code: '80100001', msg: 'timestamp invalid' });
      const android = (body.android as { notification?: { clickAction?: { type?: unknown } } } | undefined)?.notification;
      if (
        !notificationOk(body.notification) ||
        !notificationOk(android) ||
        ![1, 2, 3].includes(Number(android?.clickAction?.type)) ||
        !soleToken(body) ||
        (body.data !== undefined && typeof body.data !== 'string')
      )
        return json(400, { code: '80100003', msg: 'Illegal message structure' });
      const token = soleToken(body) ?? '';
      if (token.startsWith('gone-'))
        return json(200, { code: 200, message: 'success', data: { sendResult: false, requestId: 'h-2', expireTokens: [token] } });
      if (token.startsWith('busy-')) return json(503, { code: '81000001', message: 'service unavailable' });
      return undefined;
    },
    () => json(200, { code: 200, message: 'success', data: { sendResult: true, requestId: '1713254869786318848' } }),
  );

/** vivo's sign: lowercase hex MD5 of appId + appKey + timestamp + appSecret (trimmed), as its document writes it. */
const vivoSign = (appId: string, appKey: string, timestamp: string, appSecret: string) =>
  crypto.createHash('md5').update(`${appId}${appKey}${timestamp}${appSecret}`.trim()).digest('hex');

/**
 * vivo push: POST /message/auth `{appId, appKey, timestamp, sign}` (sign checked, timestamp
 * within ten minutes), POST /message/send with header `authToken` and `{regId, notifyType 1–4,
 * title, content, skipType 1–4, requestId}`; a repeated requestId is refused.
 */
export const startVivo = (app: { appId: string; appKey: string; appSecret: string }): Promise<VendorStandIn> => {
  const issued = new Set<string>();
  const expired = new Set<string>();
  const requestIds = new Set<string>();
  const pushes: VendorPush[] = [];
  let authCalls = 0;
  const parse = (text: string): Record<string, unknown> | undefined => {
    try {
      return JSON.parse(text) as Record<string, unknown>;
    } catch {
      return undefined;
    }
  };
  return startHttpStandIn((req) => {
    const body = parse(req.body);
    if (!body || req.method !== 'POST') return json(400, { result: 10050, desc: 'bad request' });
    if (req.path === '/message/auth') {
      authCalls++;
      const timestamp = String(body.timestamp ?? '');
      if (String(body.appId) !== app.appId || body.appKey !== app.appKey)
        return json(200, { result: 10200, desc: 'appId or appKey invalid' });
      if (Math.abs(Date.now() - Number(timestamp)) > 600_000) return json(200, { result: 10201, desc: 'timestamp expired' });
      if (body.sign !== vivoSign(String(body.appId), String(body.appKey), timestamp, app.appSecret))
        return json(200, { result: 10202, desc: 'sign invalid' });
      const authToken = crypto.randomUUID();
      issued.add(authToken);
      return json(200, { result: 0, desc: '请求成功', authToken });
    }
    if (req.path !== '/message/send') return json(404, { result: 10404, desc: `no such path ${req.path}` });
    const token = String(req.headers.authtoken ?? '');
    if (!issued.has(token)) return json(200, { result: 10000, desc: expired.has(token) ? 'authToken expired' : 'authToken invalid' });
    if (
      typeof body.regId !== 'string' ||
      ![1, 2, 3, 4].includes(Number(body.notifyType)) ||
      typeof body.title !== 'string' ||
      typeof body.content !== 'string' ||
      ![1, 2, 3, 4].includes(Number(body.skipType)) ||
      typeof body.requestId !== 'string' ||
      body.requestId.length === 0 ||
      body.requestId.length > 64
    )
      return json(200, { result: 10050, desc: 'parameter invalid' });
    if (requestIds.has(body.requestId)) return json(200, { result: 10070, desc: 'requestId repeated' });
    requestIds.add(body.requestId);
    if (body.regId.startsWith('gone-')) return json(200, { result: 10302, desc: 'regId invalid' });
    if (body.regId.startsWith('busy-')) return json(503, { result: 20000, desc: 'server busy' });
    pushes.push({ path: req.path, headers: req.headers, body });
    return json(200, { result: 0, desc: '请求成功', taskId: '642467287613526016' });
  }).then((standIn) => ({
    ...standIn,
    pushes,
    authCalls: () => authCalls,
    expireTokens() {
      for (const token of issued) expired.add(token);
      issued.clear();
    },
  }));
};
