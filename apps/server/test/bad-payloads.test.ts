import { API_LIST, type ApiDef, SERVICE_KEY_HEADER } from '@iot/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { baseOf, coreOf, defOf, type Kind, kindOf, objectOf, type Path, sampleOf } from './contract-samples.js';
import { startTestServer, type TestServer } from './harness.js';
import { addCompany, addProduct, addUser, dbOf, ok } from './helpers.js';

/**
 * Bad payloads generated from every path of the registry (issue 7): for each field of a
 * path's input schema, control characters, wrong types, huge values and prototype keys,
 * each sent on top of an otherwise valid payload, plus `{"id": true}`, `{"ids": [true]}`
 * and bodies that are not objects. As the super administrator (service paths with the
 * service key):
 * - no answer is code 500 or HTTP 5xx;
 * - a payload the contract refuses answers 406 (or HTTP 400 for a poisoned body), and the
 *   classes that must always be refused are: control characters in any text (rule
 *   `format:control_char`) and booleans in any number, id or text field;
 * - nothing changes: every table (bookkeeping aside) hashes the same before and after each
 *   path's refused payloads and its reads.
 * Payloads the contract accepts (a number where text is expected, -1 in a signed field…) are
 * sent to commands last, only to check they answer without a 5xx.
 */

const SERVICE_KEY = 'bad-payloads-key';
/** An id no row has. */
const MISSING_ID = 2_000_000_000;
/** Tables changed by logins, sessions or background work, not by the commands under test. */
const BOOKKEEPING = new Set([
  'user_token',
  'login_key',
  'login_replay',
  'login_failure',
  'device_stats_pending',
  'device_stats_member',
  'device_daily',
  'device_monthly',
  'device_total',
  'device_country',
  'device_online_daily',
]);

// ---- bad values ------------------------------------------------------------------------

/** `control`, `unicode` and `boolean` must always be refused; the rest must only never break the server. */
type BadClass = 'control' | 'unicode' | 'boolean' | 'type' | 'huge' | 'odd' | 'proto';
interface Bad {
  cls: BadClass;
  value: unknown;
}

/**
 * A nesting too deep for recursive JSON.stringify: a marker replaced in the body text on
 * sending (JSON.parse itself does not recurse).
 */
const DEEP = '\u2063deep\u2063';
const DEEP_JSON = `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`;
const toBody = (value: unknown) => JSON.stringify(value).replaceAll(JSON.stringify(DEEP), DEEP_JSON);
const deep = (depth: number, leaf: unknown): unknown => {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
};
/** `{"__proto__": …}` as an own key, the way JSON.parse makes it. */
const protoObject = () => JSON.parse('{"__proto__": {"isSuper": true, "id": 1}, "a": 1}') as Record<string, unknown>;

const CONTROL: Bad[] = ['\u0000', 'a\u0000b', '\u001b[2J', 'x\u007f'].map((value) => ({ cls: 'control', value }));
const BOOLEAN: Bad[] = [true, false].map((value) => ({ cls: 'boolean', value }));
const COMMON: Bad[] = [
  { cls: 'type', value: null },
  { cls: 'type', value: [] },
  { cls: 'type', value: {} },
  { cls: 'proto', value: protoObject() },
  { cls: 'huge', value: 1e30 },
  { cls: 'huge', value: -1 },
  { cls: 'huge', value: 2 ** 53 },
  { cls: 'huge', value: 1.5 },
  { cls: 'huge', value: DEEP },
];
const TEXT_BAD: Bad[] = [
  ...CONTROL,
  ...BOOLEAN,
  ...COMMON,
  { cls: 'huge', value: 'x'.repeat(70_000) },
  { cls: 'unicode', value: '\ud800' },
  { cls: 'unicode', value: 'a\udc00b' },
  { cls: 'odd', value: '\u202egnp.exe' },
  { cls: 'odd', value: "'; drop table app_user; --" },
  { cls: 'odd', value: '%_\\' },
  { cls: 'odd', value: '' },
];
const NUMBER_BAD: Bad[] = [
  ...BOOLEAN,
  ...COMMON,
  { cls: 'type', value: 'abc' },
  { cls: 'type', value: '\u0000' },
  { cls: 'huge', value: '99999999999999999999' },
  { cls: 'huge', value: 2 ** 31 },
  { cls: 'odd', value: '1e3' },
  { cls: 'odd', value: ' 7 ' },
];
const ARRAY_BAD: Bad[] = [
  { cls: 'boolean', value: true },
  { cls: 'type', value: 'a,b' },
  { cls: 'type', value: '\u0000' },
  { cls: 'type', value: [null] },
  { cls: 'type', value: [[1]] },
  { cls: 'type', value: [{}] },
  { cls: 'type', value: {} },
  { cls: 'proto', value: [protoObject()] },
  { cls: 'huge', value: [1e30] },
  { cls: 'huge', value: [-1] },
  { cls: 'huge', value: Array.from({ length: 6_000 }, (_, i) => i + 1) },
  { cls: 'huge', value: 1e30 },
];
const RECORD_BAD: Bad[] = [
  { cls: 'control', value: { '\u0000': 1 } },
  { cls: 'control', value: { a: '\u0000' } },
  { cls: 'control', value: { a: ['ok', { b: 'x\u0001' }] } },
  { cls: 'unicode', value: { a: '\ud800' } },
  { cls: 'boolean', value: true },
  { cls: 'type', value: 'x' },
  { cls: 'type', value: [] },
  { cls: 'proto', value: protoObject() },
  { cls: 'huge', value: deep(200, 'x') },
  { cls: 'huge', value: Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, i])) },
];

interface Payload {
  label: string;
  /** A JSON value, or raw body text. */
  body: unknown;
  raw?: boolean;
  /** The field path whose refusal this payload checks, and how. */
  field?: string;
  cls?: BadClass;
  kind?: Kind;
}

const setAt = (obj: Record<string, unknown>, path: Path, value: unknown): Record<string, unknown> => {
  const copy = structuredClone(obj);
  let cur: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    if (typeof cur[key] !== 'object' || cur[key] === null) cur[key] = typeof key === 'number' ? [] : {};
    cur = cur[key] as Record<string | number, unknown>;
  }
  const last = path[path.length - 1] as string | number;
  // An own `__proto__` key survives only through defineProperty.
  Object.defineProperty(cur, last, { value, enumerable: true, writable: true, configurable: true });
  return copy;
};

/** Bad values for every field (nested objects and array elements too) on top of `base`. */
/**
 * Field schemas already given every bad value on another path (paging fields of every list,
 * a field shared by add and set): later paths get only the values that must be refused.
 */
const covered = new Set<z.ZodType>();
const MUST_REFUSE = new Set<BadClass>(['control', 'unicode', 'boolean']);

const fieldPayloads = (schema: z.ZodType, base: Record<string, unknown>, prefix: Path = []): Payload[] => {
  const obj = objectOf(schema);
  if (!obj) return [];
  const out: Payload[] = [];
  for (const [name, s] of Object.entries(obj.shape as Record<string, z.ZodType>)) {
    const path = [...prefix, name];
    const kind = kindOf(s);
    const all =
      kind === 'string'
        ? TEXT_BAD
        : kind === 'number'
          ? NUMBER_BAD
          : kind === 'array'
            ? ARRAY_BAD
            : kind === 'record'
              ? RECORD_BAD
              : TEXT_BAD;
    const seen = covered.has(coreOf(s));
    covered.add(coreOf(s));
    const bads = seen ? all.filter((b) => MUST_REFUSE.has(b.cls)) : all;
    for (const bad of bads) {
      out.push({
        label: `${path.join('.')}=${show(bad.value)}`,
        body: setAt(base, path, bad.value),
        field: path.join('.'),
        cls: bad.cls,
        kind,
      });
    }
    const core = coreOf(s);
    if (kind === 'object') out.push(...fieldPayloads(core, base, path));
    if (kind === 'array') {
      const element = defOf(core).element as z.ZodType;
      // An optional list the base leaves out gets one valid element, so each bad value meets an otherwise valid one.
      const holder = path.slice(0, -1).reduce<unknown>((cur, key) => (cur as Record<string | number, unknown> | undefined)?.[key], base);
      const withElement = Array.isArray((holder as Record<string | number, unknown> | undefined)?.[name])
        ? base
        : setAt(base, path, [sampleOf(element, name)]);
      if (kindOf(element) === 'object') out.push(...fieldPayloads(element, withElement, [...path, 0]));
    }
  }
  return out;
};

const show = (v: unknown): string => {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
};

/** Payloads every path gets, whatever its fields. */
const globalPayloads = (base: Record<string, unknown>): Payload[] => [
  { label: '{}', body: {} },
  { label: '{"id":true}', body: { id: true } },
  { label: '{"ids":[true]}', body: { ids: [true] } },
  { label: 'base+id:true', body: { ...base, id: true } },
  { label: 'base+ids:[true]', body: { ...base, ids: [true] } },
  { label: 'base+ids:true', body: { ...base, ids: true } },
  { label: 'proto at top', body: JSON.stringify(base).replace('{', '{"__proto__": {"isSuper": true}, ').replace(', }', '}'), raw: true },
  { label: 'constructor.prototype', body: '{"constructor": {"prototype": {"isSuper": true}}}', raw: true },
  { label: 'nested proto', body: '{"a": {"b": [{"__proto__": {"x": 1}}]}}', raw: true },
  { label: 'prototype key', body: { ...base, prototype: { id: 1 }, constructor: { id: 1 } } },
  { label: 'null body', body: 'null', raw: true },
  { label: 'array body', body: '[{"id": 1}]', raw: true },
  { label: 'string body', body: '"x"', raw: true },
  { label: 'number body', body: '1e400', raw: true },
  { label: 'deep body', body: `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`, raw: true },
  { label: 'legacy envelope', body: { params: { id: true, ids: [true] }, api_ver: '1.0.1' } },
  { label: 'legacy params junk', body: { params: '\u0000', acc_token: 5 } },
];

// ---- running ---------------------------------------------------------------------------

let t: TestServer;
let bookkeepingFree: string[] = [];

/** One hash per table of everything in it. */
const snapshot = async (): Promise<Record<string, string>> => {
  const db = dbOf(t);
  const parts = bookkeepingFree.map(
    (table) =>
      sql`select ${table} as name, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as hash from ${sql.table(table)} x`,
  );
  const { rows } = await sql<{ name: string; hash: string }>`${sql.join(parts, sql` union all `)}`.execute(db);
  return Object.fromEntries(rows.map((r) => [r.name, r.hash]));
};

interface Sent {
  status: number;
  code: number;
  fields: Record<string, string> | undefined;
}

const send = async (api: ApiDef, p: Payload, token: string): Promise<Sent> => {
  const headers: Record<string, string> = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  if (api.access === 'service') headers[SERVICE_KEY_HEADER] = SERVICE_KEY;
  const body = p.raw ? (p.body as string) : toBody(p.body);
  const res = await t.raw(`/api/${api.path}`, { method: 'POST', headers, body });
  const text = await res.text();
  let json: { code?: number; data?: { fields?: Record<string, string> } } = {};
  try {
    json = JSON.parse(text) as typeof json;
  } catch {
    // A non-JSON answer is judged by its status alone.
  }
  return { status: res.status, code: json.code ?? res.status, fields: json.data?.fields };
};

/** Sends in small parallel batches (the server's queue, not the client, should be the limit). */
const sendAll = async (api: ApiDef, payloads: Payload[], token: string) => {
  const answers: Sent[] = [];
  for (let i = 0; i < payloads.length; i += 8) {
    answers.push(...(await Promise.all(payloads.slice(i, i + 8).map((p) => send(api, p, token)))));
  }
  return answers;
};

/** Parses a payload the way the server will (raw bodies through JSON.parse). */
const contractAccepts = (api: ApiDef, p: Payload): boolean => {
  const text = p.raw ? (p.body as string) : toBody(p.body);
  if (text.includes('__proto__') || text.includes('"constructor": {"prototype"')) return false;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const obj = value as Record<string, unknown>;
  const payload = typeof obj.params === 'object' && obj.params !== null && ('api_ver' in obj || 'acc_token' in obj) ? obj.params : obj;
  try {
    return api.input.safeParse(payload).success;
  } catch (err) {
    throw new Error(`${api.path}: the contract throws on ${text.slice(0, 80)}: ${String(err)}`);
  }
};

const valueAt = (body: unknown, field: string): unknown =>
  field
    .split('.')
    .reduce<unknown>((cur, key) => (cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[key] : undefined), body);

const isRead = (api: ApiDef) => api.kind === 'list' || api.kind === 'get';

interface PathPlan {
  api: ApiDef;
  base: Record<string, unknown>;
  baseValid: boolean;
  payloads: Payload[];
}

const plans: PathPlan[] = API_LIST.map((api) => {
  const base = baseOf(api.input);
  return {
    api,
    base,
    baseValid: api.input.safeParse(base).success,
    payloads: [...fieldPayloads(api.input, base), ...globalPayloads(base)],
  };
});

beforeAll(async () => {
  t = await startTestServer({ ingestServiceKey: SERVICE_KEY, heartbeatTimeoutSeconds: 86_400, statsFoldMs: 3_600_000 });
  // Rows for reads and commands to meet: a company, a user, a product, a device.
  const company = await addCompany(t, { comp_name: 'Bad Payload Co' });
  await addUser(t, { user_id: 'bad.payload', comp_id: company.comp_id });
  await addProduct(t, 'pkbadpayload', company.comp_id);
  ok(
    await t.call('v2/iot/web/uid/reg/add', { uid: 'BADPAYLOAD01', pk: 'pkbadpayload', comp_id: company.comp_id }, { token: t.adminToken }),
  );
  const { rows } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name not like 'kysely_%'
    order by table_name
  `.execute(dbOf(t));
  bookkeepingFree = rows.map((r) => r.name).filter((name) => !BOOKKEEPING.has(name));
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('bad payloads on every path of the registry', () => {
  it('covers the registry', () => {
    const total = plans.reduce((n, p) => n + p.payloads.length, 0);
    // Printed for the record: paths, payloads, and paths whose generated base is not valid.
    console.info(
      `bad payloads: ${plans.length} paths, ${total} payloads; bases not valid: ${plans
        .filter((p) => !p.baseValid)
        .map((p) => p.api.path)
        .join(', ')}`,
    );
    expect(plans.length).toBe(API_LIST.length);
    expect(total).toBeGreaterThan(plans.length * 20);
  });

  it('refuses what the contract refuses, never answers 5xx, and changes nothing', async () => {
    const problems: string[] = [];
    for (const plan of plans) {
      const { api } = plan;
      // Logging out with any payload is what logout does: it gets a token of its own.
      const token = api.path === 'user/logout' ? await t.login('bad.payload', 'Passw0rd!') : t.adminToken;
      const payloads = plan.payloads.filter((p) => isRead(api) || !contractAccepts(api, p));
      const before = await snapshot();
      const answers = await sendAll(api, payloads, token);
      const after = await snapshot();
      for (const [table, hash] of Object.entries(before)) {
        if (after[table] !== hash) problems.push(`${api.path}: table ${table} changed`);
      }
      payloads.forEach((p, i) => {
        const a = answers[i] as Sent;
        const where = `${api.path} ${p.label}`;
        if (a.status >= 500 || a.code === 500) problems.push(`${where}: HTTP ${a.status} code ${a.code}`);
        const accepted = contractAccepts(api, p);
        if (!accepted && a.code === 200) problems.push(`${where}: the contract refuses it, the server answered 200`);
        if (!accepted && ![406, 401, 513].includes(a.code)) problems.push(`${where}: refused with ${a.code}, not 406`);
        // Control characters, lone surrogates and booleans in a field must be refused by the contract itself, naming the field.
        if (p.field && (p.cls === 'control' || p.cls === 'unicode' || p.cls === 'boolean')) {
          if (accepted) problems.push(`${where}: the contract accepts it`);
          const rules = Object.entries(a.fields ?? {}).filter(([k]) => k === p.field || k.startsWith(`${p.field}.`));
          if (rules.length === 0) problems.push(`${where}: answered ${a.code} without naming ${p.field}: ${JSON.stringify(a.fields)}`);
          const isText = p.kind === 'string' && typeof valueAt(p.body, p.field) === 'string';
          const expected = p.cls === 'control' ? 'format:control_char' : 'format:unicode';
          if (p.cls !== 'boolean' && isText && !rules.some(([, r]) => r === expected))
            problems.push(`${where}: rule ${JSON.stringify(rules)}, not ${expected}`);
        }
      });
    }
    // The server runs in this process: no prototype was polluted.
    expect(({} as Record<string, unknown>).isSuper).toBeUndefined();
    expect(({} as Record<string, unknown>).id).toBeUndefined();
    expect(problems.slice(0, 60)).toEqual([]);
  }, 240_000);

  it('answers payloads the contract accepts without a 5xx (commands too)', async () => {
    const problems: string[] = [];
    for (const plan of plans) {
      const { api } = plan;
      // Deletes and logout would only remove what the other paths need; reads were covered above.
      if (isRead(api) || api.kind === 'del' || api.path === 'user/logout') continue;
      // A change aims at a row that does not exist (accepted junk such as `validity_time: " 7 "`
      // would otherwise expire the administrator running this); its own id field keeps its junk.
      const idField = api.kind === 'set' ? Object.keys(plan.base)[0] : undefined;
      const payloads = plan.payloads
        .filter((p) => contractAccepts(api, p))
        .map((p) =>
          idField && p.field !== idField && !p.raw && typeof p.body === 'object' && p.body !== null
            ? { ...p, body: setAt(p.body as Record<string, unknown>, [idField], MISSING_ID) }
            : p,
        )
        .filter((p) => contractAccepts(api, p));
      const answers = await sendAll(api, payloads, t.adminToken);
      payloads.forEach((p, i) => {
        const a = answers[i] as Sent;
        if (a.status >= 500 || a.code === 500) problems.push(`${api.path} ${p.label}: HTTP ${a.status} code ${a.code}`);
      });
    }
    expect(problems.slice(0, 60)).toEqual([]);
    // The administrator's session survived all of it.
    ok(await t.call('v2/user/account/get', {}, { token: t.adminToken }));
  }, 240_000);
});
