// `npm run simulate -- --devices N [--url http://127.0.0.1:8080] [--key …] [--seconds S] [--heartbeat 10] [--ota-every 300]`
//
// Runs N virtual devices against the ingestion interface (POST /api/v2/iot/ingest/events with
// the service key), so the console shows live data on a fresh install:
//   - registration: when fewer than N simulator devices (UIDs SIM-000001…) exist, logs in as
//     `admin` with ADMIN_PASSWORD (--password) through the RSA-OAEP login, finds or creates the
//     product "Simulator" (user/product/add) and registers the missing devices
//     (v2/iot/web/uid/reg/add). Without the password it runs the simulator devices already there.
//   - devices: connect (online, with a NAT type, vendor, protocol, country), heartbeat every
//     --heartbeat seconds; now and then one drops (explicit offline) and comes back, one goes
//     silent past the server's heartbeat timeout (the server marks it offline, reason 2) and
//     comes back, one changes NAT type; low-power ones (1 in 10) toggle their wake state.
//   - the app side (issue 8), through the same interface: --users app users (default: as many as devices)
//     of --apps apps (default 2: "Simulator app 1…", found or added with the admin's login, else app ids 1…)
//     of company --comp-id (default: the admin's, else 1) register over the
//     last 30 days and sign in on some days since, each from a phone naming its push provider and token (APNs,
//     FCM, Huawei, Xiaomi, OPPO, vivo, Honor in turn); each device gets an owner (1 in 5 shared with another user);
//     a week of alarms (types 1-7) and device log lines is backfilled; then, while running, users sign in,
//     devices raise alarms and write log lines, and the platform services (SPEC §9 ids) write service log lines.
//   - firmware (OTA): every device runs firmware 100 and asks for an upgrade (`ota_check`) about every
//     --ota-every seconds; when offered one it reports progress (`ota_progress`) every heartbeat and then the
//     result (`ota_result`): 9 in 10 succeed and run the new version, the others fail and ask again
//     later. With the password, the simulator's product "Simulator", when it has no firmware yet,
//     gets a released version 2.0.0 (ver_num 200, for firmware 100–199) so a fresh install shows a
//     rollout on its firmware tab.
//   - a running summary every 5 s; Ctrl-C (or --seconds) stops, sending `offline` for every device.
//
// The key: --key, else INGEST_SERVICE_KEY, else DATA_DIR/ingest.key (DATA_DIR defaults to ./data),
// the key `npm start` generates on first start.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loginPlaintext, passwordDigestInput } from '../packages/contract/dist/index.js';

const { values: args } = parseArgs({
  options: {
    devices: { type: 'string', default: '100' },
    url: { type: 'string' },
    key: { type: 'string' },
    password: { type: 'string' },
    seconds: { type: 'string' },
    heartbeat: { type: 'string', default: '10' },
    'ota-every': { type: 'string', default: '300' },
    prefix: { type: 'string', default: 'SIM' },
    quiet: { type: 'boolean', default: false },
    users: { type: 'string' },
    apps: { type: 'string', default: '2' },
    'comp-id': { type: 'string' },
  },
});
const N = Number(args.devices);
if (!Number.isInteger(N) || N < 1 || N > 999_999) throw new Error('--devices must be 1…999999');
const URL_BASE = (args.url ?? `http://127.0.0.1:${process.env.PORT || 8080}`).replace(/\/$/, '');
const HEARTBEAT = Math.max(1, Number(args.heartbeat));
/** Seconds between a device's firmware checks (on average). */
const OTA_EVERY = Math.max(2, Number(args['ota-every']));
const PREFIX = args.prefix.toUpperCase();
const dataDir = path.resolve(process.env.DATA_DIR || './data');
const keyFile = path.join(dataDir, 'ingest.key');
const log = (msg) => console.log(`[simulate] ${msg}`);
/** A setup problem: one line saying what to do, no stack trace. */
const fail = (msg) => {
  console.error(`[simulate] ${msg}`);
  process.exit(1);
};
const KEY = args.key ?? process.env.INGEST_SERVICE_KEY ?? (fs.existsSync(keyFile) ? fs.readFileSync(keyFile, 'utf8').trim() : null);
if (!KEY) {
  fail(
    `no service key: pass --key, set INGEST_SERVICE_KEY, or start the server once so ${keyFile} exists (give the simulator the server's DATA_DIR)`,
  );
}
const PASSWORD = args.password ?? process.env.ADMIN_PASSWORD;

const uidOf = (n) => `${PREFIX}-${String(n).padStart(6, '0')}`;

const post = async (p, body, headers = {}) => {
  const res = await fetch(`${URL_BASE}/api/${p}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return res.json();
};
const asUser = (token) => ({ authorization: `Bearer ${token}` });

const login = async () => {
  const key = (await post('v2/user/login/key', {})).data;
  const encoded = crypto.createHash('sha256').update(passwordDigestInput('admin', PASSWORD)).digest('hex');
  const cipher = crypto
    .publicEncrypt(
      { key: key.public_key, padding: crypto.constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(loginPlaintext('admin', encoded, key.server_time)),
    )
    .toString('base64');
  const answer = await post('v2/user/login', {
    device_system: 'web',
    device_model: 'simulator',
    user_id: 'admin',
    user_password: cipher,
    key_id: key.key_id,
  });
  if (answer.code !== 200) {
    throw new Error(
      `login as admin failed: ${answer.code} ${answer.msg ?? ''} (ADMIN_PASSWORD / --password must be admin's current password)`,
    );
  }
  return { token: answer.data.acc_token, compId: answer.data.user.comp_id };
};

/** Simulator devices already registered (through the state list, which every registered device has). */
const existingUids = async (token) => {
  const found = new Set();
  for (let page = 1; ; page++) {
    const answer = await post('v2/umh/admin/dev/state/list', { uid: `${PREFIX}-`, page_no: page, page_size: 1000 }, asUser(token));
    if (answer.code !== 200) throw new Error(`state list: ${answer.code} ${answer.msg ?? ''}`);
    for (const row of answer.data) found.add(row.uid.toUpperCase());
    if (answer.data.length < 1000) return found;
  }
};

/** The product the simulator registers its devices under, when it exists. */
const findProduct = async (token, compId) => {
  const list = await post('v2/umh/admin/product/list', { name: 'Simulator', comp_id: compId, page_size: 10 }, asUser(token));
  return list.code === 200 ? list.data.find((p) => p.name === 'Simulator')?.pk : undefined;
};

const ensureProduct = async (token, compId) => {
  const found = await findProduct(token, compId);
  if (found) return found;
  const added = await post(
    'user/product/add',
    { name: 'Simulator', comp_id: compId, remark: 'virtual devices of npm run simulate' },
    asUser(token),
  );
  if (added.code !== 200) throw new Error(`user/product/add: ${added.code} ${added.msg ?? ''}`);
  return added.data.pk;
};

/** The company the simulated apps belong to: --comp-id, else the admin's, else 1 (the root company). */
let simCompId = args['comp-id'] ? Number(args['comp-id']) : undefined;
/** The simulator's firmware: added once, when the product has no version at all (the console owns the rest). */
const FIRST_FIRMWARE = { ver: '2.0.0', ver_num: 200, min_ver_num: 100, max_ver_num: 199 };
const ensureFirmware = async (token, pk) => {
  const list = await post('v2/ota/admin/product/ver/list', { pk, page_size: 1 }, asUser(token));
  if (list.code === 404) return; // a server without OTA
  if (list.code !== 200) throw new Error(`v2/ota/admin/product/ver/list: ${list.code} ${list.msg ?? ''}`);
  if (list.count > 0) return;
  const added = await post(
    'v2/ota/admin/product/ver/add',
    {
      pk,
      ...FIRST_FIRMWARE,
      state: 1,
      level: 2,
      tag: 'simulator',
      details: [
        {
          lang: 'en',
          // .invalid never resolves (RFC 2606): virtual devices download nothing.
          url: 'https://firmware.invalid/simulator/2.0.0.bin',
          title: 'Simulator firmware 2.0.0',
          content: 'Released by npm run simulate for its virtual devices.',
          size: 8_388_608,
        },
        {
          lang: 'zh-CN',
          url: 'https://firmware.invalid/simulator/2.0.0.bin',
          title: '模拟器固件 2.0.0',
          content: '由 npm run simulate 为虚拟设备发布。',
          size: 8_388_608,
        },
      ],
    },
    asUser(token),
  );
  if (added.code !== 200) throw new Error(`v2/ota/admin/product/ver/add: ${added.code} ${added.msg ?? ''}`);
  log(`released firmware ${FIRST_FIRMWARE.ver} (ver_num ${FIRST_FIRMWARE.ver_num}) for product ${pk}`);
};

const register = async () => {
  if (!PASSWORD) {
    log('no ADMIN_PASSWORD (--password): running the simulator devices already registered');
    return null;
  }
  const { token, compId } = await login();
  const have = await existingUids(token);
  const missing = [];
  for (let n = 1; n <= N; n++) if (!have.has(uidOf(n))) missing.push(uidOf(n));
  simCompId ??= compId;
  // Devices registered before (maybe under another product) leave products alone; the simulator's own product gets firmware.
  const pk = missing.length > 0 ? await ensureProduct(token, compId) : await findProduct(token, compId);
  if (pk) await ensureFirmware(token, pk);
  if (missing.length === 0) return token;
  log(`registering ${missing.length} devices under product ${pk}`);
  let done = 0;
  const worker = async () => {
    while (missing.length > 0) {
      const uid = missing.pop();
      const answer = await post('v2/iot/web/uid/reg/add', { uid, pk, comp_id: compId }, asUser(token));
      if (answer.code === 404) throw new Error('v2/iot/web/uid/reg/add is not available on this server: register devices another way');
      if (answer.code !== 200 && answer.code !== 409) throw new Error(`reg/add ${uid}: ${answer.code} ${answer.msg ?? ''}`);
      done++;
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  log(`registered ${done}`);
  return token;
};

const rand = (a, b) => a + Math.random() * (b - a);
const pick = (list) => list[Math.floor(Math.random() * list.length)];
const VENDORS = ['acme', 'hikam', 'vstarcam', 'tuya'];
const PROTOCOLS = ['p2p', 'rtsp', 'onvif'];
const COUNTRIES = ['CN', 'US', 'IN', 'DE', 'BR', 'JP'];

const token = await register().catch((err) =>
  fail(
    err instanceof Error && err.cause
      ? `cannot reach ${URL_BASE} (${err.cause.code ?? err.message}): is the server running? (--url)`
      : String(err instanceof Error ? err.message : err),
  ),
);
const uids = [];
for (let n = 1; n <= N; n++) uids.push(uidOf(n));
if (!token) {
  log('(the state list needs a login to check which exist; unknown ones are reported by the server)');
}

const now = () => Date.now() / 1000;
const devices = uids.map((uid, i) => ({
  uid,
  lowPower: i % 10 === 9,
  state: 'idle', // idle → online → (dropped | silent) → online …
  next: now() + rand(0, Math.min(5, HEARTBEAT)),
  network: 1 + Math.floor(Math.random() * 5),
  wake: 2,
  /** Firmware version number the device runs. */
  fw: 100,
  /** The upgrade under way: {verNum, progress}, or null. */
  ota: null,
  nextOtaCheck: now() + rand(1, Math.min(60, OTA_EVERY)),
}));
const byUid = new Map(devices.map((d) => [d.uid, d]));
const totals = {
  sent: 0,
  unknown: 0,
  drops: 0,
  silences: 0,
  natChanges: 0,
  wakes: 0,
  errors: 0,
  otaChecks: 0,
  otaOffers: 0,
  otaDone: 0,
  otaFailed: 0,
};
const OTA_ERRORS = ['checksum mismatch', 'flash write failed', 'download interrupted'];
const unknownUids = new Set();
let hinted = false;

const send = async (events) => {
  for (let i = 0; i < events.length; i += 5000) {
    const chunk = events.slice(i, i + 5000);
    try {
      const answer = await post('v2/iot/ingest/events', { events: chunk }, { 'x-service-key': KEY });
      if (answer.code === 401) throw new Error('the server refused the service key (401)');
      if (answer.code !== 200) {
        totals.errors++;
        continue;
      }
      totals.sent += chunk.length;
      for (const u of answer.data.unknown) unknownUids.add(u.uid);
      for (const r of answer.data.ota ?? []) {
        const d = byUid.get(r.uid);
        if (r.result !== 'offered' || !d || d.ota) continue;
        d.ota = { verNum: r.offer.ver_num, progress: 0 };
        totals.otaOffers++;
      }
      if (unknownUids.size > 0 && !PASSWORD && !hinted) {
        hinted = true;
        log(
          'devices not registered on this server are ignored: run again with ADMIN_PASSWORD=<admin password> (or --password) to register them',
        );
      }
    } catch (err) {
      if (String(err).includes('401')) throw err;
      totals.errors++;
    }
  }
};

const tick = async () => {
  const t = now();
  const events = [];
  for (const d of devices) {
    if (unknownUids.has(d.uid) || d.next > t) continue;
    if (d.state === 'idle' || d.state === 'dropped' || d.state === 'silent') {
      d.state = 'online';
      events.push({
        uid: d.uid,
        type: 'online',
        network_type: d.network,
        vendor: pick(VENDORS),
        protocol: pick(PROTOCOLS),
        country: pick(COUNTRIES),
      });
      if (d.lowPower) events.push({ uid: d.uid, type: 'wake', wake_state: d.wake });
      d.next = t + HEARTBEAT;
      continue;
    }
    if (d.ota) {
      // Upgrading: progress every heartbeat, then the result.
      d.ota.progress = Math.min(100, d.ota.progress + Math.round(rand(15, 35)));
      if (d.ota.progress < 100) {
        events.push({ uid: d.uid, type: 'ota_progress', progress: d.ota.progress });
      } else if (Math.random() < 0.9) {
        d.fw = d.ota.verNum;
        totals.otaDone++;
        events.push({ uid: d.uid, type: 'ota_result', success: 1, ver_num: d.fw });
      } else {
        totals.otaFailed++;
        events.push({ uid: d.uid, type: 'ota_result', success: 0, error: pick(OTA_ERRORS) });
      }
      if (d.ota.progress >= 100) {
        d.ota = null;
        d.nextOtaCheck = t + rand(OTA_EVERY / 2, OTA_EVERY * 1.5);
      }
      d.next = t + HEARTBEAT;
      continue;
    }
    if (t >= d.nextOtaCheck) {
      totals.otaChecks++;
      events.push({ uid: d.uid, type: 'ota_check', ver_num: d.fw, lang: pick(['en', 'zh-CN']) });
      d.nextOtaCheck = t + rand(OTA_EVERY / 2, OTA_EVERY * 1.5);
      d.next = t + HEARTBEAT;
      continue;
    }
    const r = Math.random();
    if (r < 0.01) {
      d.state = 'dropped';
      totals.drops++;
      events.push({ uid: d.uid, type: 'offline' });
      d.next = t + rand(10, 60);
    } else if (r < 0.015) {
      d.state = 'silent'; // sends nothing until the server's heartbeat timeout has passed
      totals.silences++;
      d.next = t + rand(120, 240);
    } else if (r < 0.035) {
      d.network = (d.network % 5) + 1;
      totals.natChanges++;
      events.push({ uid: d.uid, type: 'network', network_type: d.network });
      d.next = t + HEARTBEAT;
    } else if (d.lowPower && r < 0.2) {
      d.wake = d.wake === 2 ? 1 : 2;
      totals.wakes++;
      events.push({ uid: d.uid, type: 'wake', wake_state: d.wake });
      d.next = t + HEARTBEAT;
    } else {
      events.push({ uid: d.uid, type: 'heartbeat', properties: Math.random() < 0.05 ? { rssi: -Math.floor(rand(30, 90)) } : undefined });
      d.next = t + HEARTBEAT;
    }
  }
  if (events.length > 0) await send(events);
};

// ───────────── the app side (issue 8) ─────────────
const USERS = Number(args.users ?? N);
const APPS = Math.max(1, Number(args.apps));
const LANGS = ['en', 'zh-CN', 'zh-TW'];
const DAY = 86_400;
const ALARM_TEXTS = ['motion detected', 'sound detected', 'person detected', 'tamper', 'low battery', 'storage full', 'offline too long'];
const DEVICE_LOG_TEXTS = ['boot ok', 'firmware check', 'stream started', 'stream stopped', 'wifi reconnect', 'sd card error', 'nat probe'];
const SERVICE_IDS = [2, 4, 5, 9, 17, 21, 26, 27, 34];
const SERVICE_TEXTS = ['started', 'health check ok', 'queue slow', 'connection pool exhausted', 'config reloaded', 'request timeout'];
const appTotals = { users: 0, logins: 0, alarms: 0, deviceLogs: 0, serviceLogs: 0, refused: 0 };
/** The phone each user signs in on: its push provider and token (sent with every sign-in, so alarms can reach it). */
const PHONE_PUSH = ['apns', 'fcm', 'huawei', 'xiaomi', 'oppo', 'vivo', 'honor'];
const appUsers = Array.from({ length: USERS }, (_, i) => ({
  app_id: 1 + (i % APPS),
  user_id: `${PREFIX.toLowerCase()}-user-${String(i + 1).padStart(6, '0')}`,
  push_provider: PHONE_PUSH[i % PHONE_PUSH.length],
  push_token: `${PREFIX.toLowerCase()}-${PHONE_PUSH[i % PHONE_PUSH.length]}-token-${String(i + 1).padStart(6, '0')}`,
}));
const loginOf = (u, ts) => ({
  type: 'user_login',
  app_id: u.app_id,
  user_id: u.user_id,
  push_provider: u.push_provider,
  push_token: u.push_token,
  ts,
});
const levelOf = () => (Math.random() < 0.6 ? 2 : Math.random() < 0.5 ? 1 : Math.random() < 0.7 ? 3 : 4);

const sendApp = async (events, counter) => {
  for (let i = 0; i < events.length; i += 5000) {
    const chunk = events.slice(i, i + 5000);
    const answer = await post('v2/iot/ingest/events', { events: chunk }, { 'x-service-key': KEY });
    if (answer.code === 401) throw new Error('the server refused the service key (401)');
    if (answer.code !== 200) {
      totals.errors++;
      continue;
    }
    appTotals.refused += answer.data.refused?.length ?? 0;
    if (counter) appTotals[counter] += chunk.length - answer.data.unknown.length - (answer.data.refused?.length ?? 0);
  }
};

/**
 * The simulated apps: with the admin's login, the apps "Simulator app 1…" of the company (found, or added
 * through v2/user/app/add); without it, app ids 1… (users of an app id the server has no app for go to
 * --comp-id's company).
 */
const ensureApps = async (compId) => {
  if (!token) return Array.from({ length: APPS }, (_, i) => i + 1);
  const ids = [];
  for (let n = 1; n <= APPS; n++) {
    const name = `Simulator app ${n}`;
    const found = await post('v2/user/app/list', { name, comp_id: compId, page_size: 10 }, asUser(token));
    const hit = found.code === 200 ? found.data.find((a) => a.name === name) : undefined;
    if (hit) {
      ids.push(hit.id);
      continue;
    }
    const added = await post('v2/user/app/add', { name, comp_id: compId }, asUser(token));
    if (added.code !== 200) throw new Error(`v2/user/app/add: ${added.code} ${added.msg ?? ''}`);
    ids.push(added.data.id);
  }
  return ids;
};

/** Users registered over the last 30 days, sign-ins on some days since, owners and shares, a week of alarms and logs. */
const seedAppSide = async () => {
  const t0 = Math.floor(now());
  const compId = simCompId ?? 1;
  const appIds = await ensureApps(compId);
  appUsers.forEach((u, i) => {
    u.app_id = appIds[i % appIds.length];
  });
  const registrations = [];
  const logins = [];
  for (const [i, u] of appUsers.entries()) {
    const registered = t0 - Math.floor(rand(0, 30 * DAY));
    u.registered = registered;
    registrations.push({
      type: 'user_register',
      app_id: u.app_id,
      comp_id: compId,
      user_id: u.user_id,
      country: pick(COUNTRIES),
      lang: pick(LANGS),
      email: `${u.user_id}@sim.example`,
      phone: `1${String(3_000_000_000 + i * 7919).slice(0, 10)}`,
      ts: registered,
    });
    for (let d = registered + DAY; d < t0; d += DAY) if (Math.random() < 0.4) logins.push(loginOf(u, d));
  }
  await sendApp(registrations, 'users');
  await sendApp(logins, 'logins');
  // Owners (device i → user i), 1 in 5 shared with the next user of the same app.
  const bindings = [];
  uids.forEach((uid, i) => {
    if (appUsers.length === 0) return;
    const owner = appUsers[i % appUsers.length];
    bindings.push({ type: 'bind', uid, app_id: owner.app_id, user_id: owner.user_id });
    const other = appUsers[(i + APPS) % appUsers.length];
    if (i % 5 === 0 && other.app_id === owner.app_id && other !== owner)
      bindings.push({ type: 'share', uid, app_id: owner.app_id, user_id: owner.user_id, to_user_id: other.user_id });
  });
  await sendApp(bindings);
  // A week of history: a few alarms and log lines per device, service lines per service (once: not when
  // an earlier run of these devices left alarms, as far as the admin's login can tell).
  if (token && uids[0]) {
    const seen = await post('v2/umh/admin/alarmlog/list', { uid: uids[0], page_size: 1 }, asUser(token));
    if (seen.code === 200 && seen.count > 0) {
      log(`app side: ${appTotals.users} new users; earlier alarms found, no history backfilled`);
      return;
    }
  }
  const history = [];
  for (const uid of uids) {
    for (let k = 0; k < 3; k++) {
      const type = 1 + Math.floor(Math.random() * 7);
      history.push({ type: 'alarm', uid, alarm_type: type, text: ALARM_TEXTS[type - 1], ts: t0 - Math.floor(rand(0, 7 * DAY)) });
    }
    for (let k = 0; k < 5; k++)
      history.push({ type: 'device_log', uid, level: levelOf(), text: pick(DEVICE_LOG_TEXTS), ts: t0 - Math.floor(rand(0, 7 * DAY)) });
  }
  await sendApp(
    history.filter((e) => e.type === 'alarm'),
    'alarms',
  );
  await sendApp(
    history.filter((e) => e.type === 'device_log'),
    'deviceLogs',
  );
  const serviceHistory = [];
  for (const id of SERVICE_IDS)
    for (let k = 0; k < 20; k++)
      serviceHistory.push({
        type: 'service_log',
        service_id: id,
        level: levelOf(),
        text: pick(SERVICE_TEXTS),
        node: `node-${1 + (k % 3)}`,
        ts: t0 - Math.floor(rand(0, 7 * DAY)),
      });
  await sendApp(serviceHistory, 'serviceLogs');
  log(
    `app side: ${appTotals.users} users of ${APPS} apps (ids ${appIds.join(', ')}, company ${compId}), ${appTotals.logins} past sign-ins, ${bindings.length} bindings and shares, ` +
      `${appTotals.alarms} alarms, ${appTotals.deviceLogs} device and ${appTotals.serviceLogs} service log lines of the last week` +
      (appTotals.refused > 0 ? ` (${appTotals.refused} refused: is company ${compId} there? --comp-id)` : ''),
  );
};

/** One second of the app side: sign-ins, alarms and log lines of online devices, service lines. */
const appTick = async () => {
  const t = Math.floor(now());
  const events = [];
  for (const u of appUsers) if (Math.random() < 0.002) events.push(loginOf(u, t));
  for (const d of devices) {
    if (d.state !== 'online' || unknownUids.has(d.uid)) continue;
    const r = Math.random();
    if (r < 0.002) {
      const type = 1 + Math.floor(Math.random() * 7);
      events.push({ type: 'alarm', uid: d.uid, alarm_type: type, text: ALARM_TEXTS[type - 1], ts: t });
    } else if (r < 0.012) events.push({ type: 'device_log', uid: d.uid, level: levelOf(), text: pick(DEVICE_LOG_TEXTS), ts: t });
  }
  if (Math.random() < 0.3)
    events.push({
      type: 'service_log',
      service_id: pick(SERVICE_IDS),
      level: levelOf(),
      text: pick(SERVICE_TEXTS),
      node: `node-${1 + Math.floor(Math.random() * 3)}`,
      ts: t,
    });
  if (events.length === 0) return;
  const answer = await post('v2/iot/ingest/events', { events }, { 'x-service-key': KEY });
  if (answer.code !== 200) {
    totals.errors++;
    return;
  }
  const failed = new Set([...answer.data.unknown.map((u) => u.index), ...(answer.data.refused ?? []).map((r) => r.index)]);
  events.forEach((e, i) => {
    if (failed.has(i)) return;
    if (e.type === 'user_login') appTotals.logins++;
    else if (e.type === 'alarm') appTotals.alarms++;
    else if (e.type === 'device_log') appTotals.deviceLogs++;
    else appTotals.serviceLogs++;
  });
};

let stopping = false;
const started = Date.now();
let lastSent = 0;
const summary = () => {
  const count = (s) => devices.filter((d) => d.state === s && !unknownUids.has(d.uid)).length;
  const rate = (totals.sent - lastSent) / 5;
  lastSent = totals.sent;
  log(
    `${Math.round((Date.now() - started) / 1000)} s: online ${count('online')}, dropped ${count('dropped')}, silent ${count('silent')}, ` +
      `not yet connected ${count('idle')}, unknown ${unknownUids.size} | sent ${totals.sent} (${rate.toFixed(0)}/s), drops ${totals.drops}, ` +
      `silences ${totals.silences}, NAT changes ${totals.natChanges}, wake toggles ${totals.wakes}, errors ${totals.errors} | ` +
      `app: sign-ins ${appTotals.logins}, alarms ${appTotals.alarms}, device logs ${appTotals.deviceLogs}, service logs ${appTotals.serviceLogs}`,
    `OTA checks ${totals.otaChecks}, offers ${totals.otaOffers}, upgraded ${totals.otaDone}, failed ${totals.otaFailed}`,
  );
};

const stop = async () => {
  if (stopping) return;
  stopping = true;
  await send(devices.filter((d) => d.state === 'online').map((d) => ({ uid: d.uid, type: 'offline' })));
  summary();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());

log(`${N} devices → ${URL_BASE}, heartbeat ${HEARTBEAT} s`);
const summaryTimer = args.quiet ? null : setInterval(summary, 5000);
if (args.seconds) setTimeout(() => void stop(), Number(args.seconds) * 1000);
try {
  await seedAppSide();
} catch (err) {
  fail(`app side: ${err instanceof Error ? err.message : String(err)}`);
}
for (;;) {
  if (stopping) break;
  try {
    await tick();
    await appTick();
  } catch (err) {
    console.error(`[simulate] ${err instanceof Error ? err.message : String(err)}`);
    if (summaryTimer) clearInterval(summaryTimer);
    process.exit(1);
  }
  await new Promise((r) => setTimeout(r, 1000));
}
