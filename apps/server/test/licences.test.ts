import crypto from 'node:crypto';
import {
  type IngestOutput,
  LICENCE_XLSX_PATH,
  type LicenceBatch,
  type LicenceExportOutput,
  type LicenceRow,
  type StateHistoryRow,
} from '@iot/contract';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompanyAdmin, startTestServer, type TestServer } from './harness.js';
import { dbOf, fails, ok } from './helpers.js';

/**
 * Licence codes (product/lic_list): generate a batch (scope, limits, uniqueness, one audit
 * row), list filters and scope, revoke, bind from the console and through ingestion, export.
 */
const KEY = 'licence-ingest-key';
const run = crypto.randomBytes(3).toString('hex').toUpperCase();
const MENUS = ['product/lic_list', 'product/iot', 'product/device'];

let t: TestServer;
/** Company A with a child A1; company B is A's sibling. */
let a: { compId: number; token: string };
let a1: { compId: number; token: string };
let b: { compId: number; token: string };
let pkA = '';
let pkA2 = '';
let pkB = '';

const product = async (token: string, compId: number, name: string) =>
  ok(await t.call<{ pk: string }>('user/product/add', { name: `${name}-${run}`, comp_id: compId }, { token })).pk;
const device = async (token: string, uid: string, pk: string, compId: number) =>
  ok(await t.call('v2/iot/web/uid/reg/add', { uid, pk, comp_id: compId }, { token }));
const generate = (token: string, body: object) => t.call<LicenceBatch>('v2/umh/admin/liccode/add', body, { token });
const list = (token: string, body: object = {}) =>
  t.call<LicenceRow[]>('v2/umh/admin/liccode/list', { page_size: 100, ...body }, { token });
const licenceCount = async () =>
  Number(
    (
      await dbOf(t)
        .selectFrom('device_licence')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const ingest = (events: unknown[]) =>
  fetch(`${t.url}/api/v2/iot/ingest/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-key': KEY },
    body: JSON.stringify({ events }),
  }).then(async (res) => (await res.json()) as { code: number; data: IngestOutput });

beforeAll(async () => {
  t = await startTestServer({ ingestServiceKey: KEY });
  a = await createCompanyAdmin(t, { name: `Lic A ${run}`, menuKeys: MENUS, userId: `lic-a-${run}` });
  a1 = await createCompanyAdmin(t, { name: `Lic A1 ${run}`, parentId: a.compId, menuKeys: MENUS, userId: `lic-a1-${run}` });
  b = await createCompanyAdmin(t, { name: `Lic B ${run}`, menuKeys: MENUS, userId: `lic-b-${run}` });
  pkA = await product(a.token, a.compId, 'lic-prod-a');
  pkA2 = await product(a.token, a.compId, 'lic-prod-a2');
  pkB = await product(b.token, b.compId, 'lic-prod-b');
  await device(a.token, `LA-${run}-1`, pkA, a.compId);
  await device(a.token, `LA-${run}-2`, pkA, a1.compId);
  await device(a.token, `LA-${run}-3`, pkA2, a.compId);
  await device(a.token, `LA-${run}-4`, pkA, a.compId);
  await device(b.token, `LB-${run}-2`, pkB, b.compId);
  await device(t.adminToken, `LB-${run}-3`, pkA, b.compId);
});
afterAll(async () => {
  await t?.close();
});

describe('generate', () => {
  it('generates a batch of unguessable unique codes, audited as one row', async () => {
    const batch = ok(await generate(a.token, { pk: pkA, comp_id: a.compId, count: 25 }));
    expect(batch).toMatchObject({ pk: pkA, comp_id: a.compId, count: 25 });
    const rows = ok(await list(a.token, { batch_id: batch.batch_id }));
    expect(rows).toHaveLength(25);
    expect(new Set(rows.map((r) => r.code)).size).toBe(25);
    for (const r of rows) {
      expect(r.code).toMatch(/^[A-Z2-7]{16}$/);
      expect(r).toMatchObject({ state: 'unused', uid: null, pk: pkA, comp_id: a.compId, batch_id: batch.batch_id, gmt_use: null });
    }
    const audit = ok(
      await t.call<{ path: string; action: string; target_id: string; changes: Record<string, { after: unknown }> }[]>(
        'v2/user/audit/list',
        { page_size: 100, path: 'v2/umh/admin/liccode/add' },
        { token: t.adminToken },
      ),
    ).filter((r) => r.path === 'v2/umh/admin/liccode/add' && r.target_id === String(batch.batch_id));
    expect(audit).toHaveLength(1);
    expect(audit[0]?.action).toBe('add');
    expect(audit[0]?.changes.count?.after).toBe(25);
    expect(audit[0]?.changes.pk?.after).toBe(pkA);
  });

  it('generates 10,000 codes in one call, all distinct', async () => {
    const batch = ok(await generate(a.token, { pk: pkA2, comp_id: a1.compId, count: 10_000 }));
    const stats = await dbOf(t)
      .selectFrom('device_licence')
      .select((eb) => [eb.fn.countAll().as('n'), eb.fn.count('code').distinct().as('d')])
      .where('batch_id', '=', batch.batch_id)
      .executeTakeFirstOrThrow();
    expect(Number(stats.n)).toBe(10_000);
    expect(Number(stats.d)).toBe(10_000);
  });

  it('refuses counts out of 1–10,000, foreign products and companies, storing nothing', async () => {
    const before = await licenceCount();
    for (const count of [0, -1, 10_001, 'many', 2.5]) fails(await generate(a.token, { pk: pkA, comp_id: a.compId, count }), 406);
    fails(await generate(a.token, { comp_id: a.compId, count: 1 }), 406);
    // B's product, B's company, a product that does not exist: 406.
    const foreignPk = await generate(a.token, { pk: pkB, comp_id: a.compId, count: 3 });
    fails(foreignPk, 406);
    expect(foreignPk.data).toMatchObject({ fields: { pk: 'not_found' } });
    const foreignComp = await generate(a.token, { pk: pkA, comp_id: b.compId, count: 3 });
    fails(foreignComp, 406);
    expect(foreignComp.data).toMatchObject({ fields: { comp_id: 'not_found' } });
    fails(await generate(a.token, { pk: 'nope', comp_id: a.compId, count: 3 }), 406);
    // The child's scope is its own tree: its parent company is foreign to it.
    fails(await generate(a1.token, { pk: pkA, comp_id: a.compId, count: 3 }), 406);
    expect(await licenceCount()).toBe(before);
    expect(await dbOf(t).selectFrom('licence_batch').select('id').where('comp_id', '=', b.compId).execute()).toHaveLength(0);
  });

  it('refuses callers without the menu', async () => {
    const c = await createCompanyAdmin(t, { name: `Lic C ${run}`, menuKeys: ['product/device'], userId: `lic-c-${run}` });
    fails(await generate(c.token, { pk: pkA, comp_id: a.compId, count: 1 }), 513);
    fails(await list(c.token), 513);
    fails(await t.call('v2/umh/admin/liccode/set', { ids: [1], state: 'revoked' }, { token: c.token }), 513);
    fails(await t.call('v2/umh/admin/liccode/use', { code: 'X', uid: 'Y' }, { token: c.token }), 513);
  });
});

describe('list', () => {
  it('filters by state, pk, company, uid and code, within the scope', async () => {
    ok(await generate(t.adminToken, { pk: pkB, comp_id: b.compId, count: 2 }));
    const all = await list(a.token, { page_size: 1 });
    ok(all);
    expect(all.count).toBe(25 + 10_000);
    const byPk = await list(a.token, { pk: pkA, page_size: 100 });
    expect(byPk.count).toBe(25);
    const byComp = await list(a.token, { comp_id: a1.compId, page_size: 1 });
    expect(byComp.count).toBe(10_000);
    // The child sees only its tree; B only its own.
    expect((await list(a1.token, { page_size: 1 })).count).toBe(10_000);
    const mineB = ok(await list(b.token));
    expect(mineB.map((r) => r.pk)).toEqual([pkB, pkB]);
    // A filter naming a foreign company answers nothing, not B's codes.
    expect((await list(a.token, { comp_id: b.compId })).count).toBe(0);
    const first = ok(byPk)[0] as LicenceRow;
    const byCode = ok(await list(a.token, { code: first.code.slice(0, 10).toLowerCase() }));
    expect(byCode.map((r) => r.id)).toContain(first.id);
    expect(ok(await list(a.token, { state: 'used' }))).toHaveLength(0);
    fails(await list(a.token, { state: 'lost' }), 406);
  });
});

describe('revoke and bind', () => {
  let codes: LicenceRow[] = [];
  beforeAll(async () => {
    const batch = ok(await generate(a.token, { pk: pkA, comp_id: a.compId, count: 6 }));
    codes = ok(await list(a.token, { batch_id: batch.batch_id })).sort((x, y) => x.id - y.id);
  });
  const code = (i: number) => codes[i] as LicenceRow;
  const use = (token: string, body: object) => t.call<LicenceRow>('v2/umh/admin/liccode/use', body, { token });

  it('binds a code to a device of its product in the owner’s tree, once', async () => {
    const bound = ok(await use(a.token, { code: code(0).code, uid: `la-${run}-2` }));
    expect(bound).toMatchObject({ id: code(0).id, state: 'used', uid: `LA-${run}-2` });
    expect(bound.gmt_use).toBeGreaterThan(0);
    const again = await use(a.token, { code: code(0).code, uid: `LA-${run}-1` });
    fails(again, 409);
    fails(await use(a.token, { code: code(0).code, uid: `LA-${run}-2` }), 409);
    expect(ok(await list(a.token, { uid: `LA-${run}-2` })).map((r) => r.id)).toEqual([code(0).id]);
    expect(ok(await list(a.token, { state: 'used' })).map((r) => r.id)).toEqual([code(0).id]);
  });

  it('refuses a device of another product (406), of a company outside the owner’s tree, unknown codes and devices', async () => {
    const wrong = await use(a.token, { code: code(1).code, uid: `LA-${run}-3` });
    fails(wrong, 406);
    expect(wrong.data).toMatchObject({ fields: { uid: 'wrong_product' } });
    // The admin sees B's device of the same product, but B is not in A's tree.
    const outside = await use(t.adminToken, { code: code(1).code, uid: `LB-${run}-3` });
    fails(outside, 406);
    expect(outside.data).toMatchObject({ fields: { uid: 'wrong_company' } });
    // A cannot reach B's device at all; B cannot reach A's code.
    fails(await use(a.token, { code: code(1).code, uid: `LB-${run}-3` }), 406);
    fails(await use(b.token, { code: code(1).code, uid: `LB-${run}-3` }), 406);
    fails(await use(a.token, { code: 'AAAAAAAAAAAAAAAA', uid: `LA-${run}-1` }), 406);
    fails(await use(a.token, { code: code(1).code }), 406);
    const [row] = ok(await list(a.token, { code: code(1).code }));
    expect(row).toMatchObject({ state: 'unused', uid: null });
  });

  it('revokes unused codes; a used code cannot be revoked; a revoked code cannot be used', async () => {
    const set = (token: string, body: object) => t.call<{ revoked: number }>('v2/umh/admin/liccode/set', body, { token });
    // Mixed with a used code: 409, nothing revoked.
    const mixed = await set(a.token, { ids: [code(2).id, code(0).id], state: 'revoked' });
    fails(mixed, 409);
    expect(ok(await list(a.token, { code: code(2).code }))[0]?.state).toBe('unused');
    // Foreign ids: 406, nothing revoked.
    const [foreign] = ok(await list(b.token));
    fails(await set(a.token, { ids: [code(2).id, foreign?.id ?? 0], state: 'revoked' }), 406);
    fails(await set(a.token, { ids: [code(2).id], state: 'used' }), 406);
    fails(await set(a.token, { ids: [], state: 'revoked' }), 406);
    expect(ok(await set(a.token, { ids: [code(2).id, code(3).id], state: 'revoked' }))).toEqual({ revoked: 2 });
    // Again: already revoked, nothing changes.
    expect(ok(await set(a.token, { ids: [code(2).id], state: 'revoked' }))).toEqual({ revoked: 0 });
    const revoked = ok(await list(a.token, { state: 'revoked' }));
    expect(revoked.map((r) => r.id).sort()).toEqual([code(2).id, code(3).id].sort());
    expect(revoked[0]?.gmt_revoke).toBeGreaterThan(0);
    const use2 = await use(a.token, { code: code(2).code, uid: `LA-${run}-1` });
    fails(use2, 406);
    expect(use2.data).toMatchObject({ fields: { code: 'revoked' } });
    const audit = ok(
      await t.call<{ path: string; target_id: string; changes: Record<string, { before: unknown; after: unknown }> }[]>(
        'v2/user/audit/list',
        { page_size: 100, path: 'v2/umh/admin/liccode/set' },
        { token: t.adminToken },
      ),
    ).filter((r) => r.path === 'v2/umh/admin/liccode/set' && r.target_id === String(code(3).id));
    expect(audit[0]?.changes.state).toEqual({ before: 'unused', after: 'revoked' });
  });

  it('binds through ingestion (licence event), reporting each outcome', async () => {
    const out = await ingest([
      { uid: `LA-${run}-4`, type: 'licence', code: code(4).code.toLowerCase() },
      { uid: `LA-${run}-4`, type: 'licence', code: code(4).code },
      { uid: `LA-${run}-1`, type: 'licence', code: code(4).code },
      { uid: `LA-${run}-3`, type: 'licence', code: code(5).code },
      { uid: `LB-${run}-3`, type: 'licence', code: code(5).code },
      { uid: `LA-${run}-1`, type: 'licence', code: code(2).code },
      { uid: `LA-${run}-1`, type: 'licence', code: 'NOPE' },
      { uid: `LA-${run}-1`, type: 'licence' },
      { uid: `NOT-${run}`, type: 'licence', code: code(5).code },
    ]);
    expect(out.code).toBe(200);
    expect(out.data.unknown).toEqual([{ index: 8, uid: `NOT-${run}` }]);
    expect(out.data.licences?.map((l) => [l.index, l.result])).toEqual([
      [0, 'bound'],
      [1, 'bound'],
      [2, 'used'],
      [3, 'wrong_product'],
      [4, 'wrong_company'],
      [5, 'revoked'],
      [6, 'not_found'],
      [7, 'not_found'],
    ]);
    const [row] = ok(await list(a.token, { code: code(4).code }));
    expect(row).toMatchObject({ state: 'used', uid: `LA-${run}-4` });
    expect(ok(await list(a.token, { code: code(5).code }))[0]?.state).toBe('unused');
    // The event is in the device's history with its code; the device counts as seen.
    const history = ok(
      await t.call<StateHistoryRow[]>('v2/iot/web/uid/state/history', { uid: `LA-${run}-4`, type: 'licence' }, { token: t.adminToken }),
    );
    expect(history[0]?.detail).toMatchObject({ code: code(4).code.toLowerCase() });
    // A batch without licence events answers as before.
    const plain = await ingest([{ uid: `LA-${run}-4`, type: 'heartbeat' }]);
    expect(plain.data).toEqual({ accepted: 1, unknown: [] });
  });
});

describe('export', () => {
  const read = async (res: Response) => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    wb.worksheets[0]?.eachRow((r) => {
      rows.push((r.values as unknown[]).slice(1));
    });
    return rows;
  };

  it('downloads the codes of a batch with a ticket, in the caller’s scope only', async () => {
    const batch = ok(await generate(a.token, { pk: pkA, comp_id: a.compId, count: 5 }));
    const link = ok(await t.call<LicenceExportOutput>('v2/umh/admin/liccode/export', { batch_id: batch.batch_id }, { token: a.token }));
    expect(link).toMatchObject({ count: 5, download_path: LICENCE_XLSX_PATH });
    const res = await fetch(`${t.url}/api/${link.download_path}?ticket=${encodeURIComponent(link.download_ticket)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const rows = await read(res);
    expect(rows[0]?.[0]).toBe('Licence code');
    const codes = ok(await list(a.token, { batch_id: batch.batch_id })).map((r) => r.code);
    expect(
      rows
        .slice(1)
        .map((r) => r[0])
        .sort(),
    ).toEqual(codes.sort());
    expect(rows.slice(1).every((r) => r[1] === 'Unused')).toBe(true);

    // B's ticket for A's batch answers nothing of A's.
    const bLink = ok(await t.call<LicenceExportOutput>('v2/umh/admin/liccode/export', { batch_id: batch.batch_id }, { token: b.token }));
    expect(bLink.count).toBe(0);
    const bRows = await read(await fetch(`${t.url}/api/${bLink.download_path}?ticket=${encodeURIComponent(bLink.download_ticket)}`));
    expect(bRows).toHaveLength(1);
    // No ticket, no token: 401; a forged ticket is no ticket; the token works with query filters.
    const codeOf = async (res: Response) => ((await res.json()) as { code: number }).code;
    expect(await codeOf(await fetch(`${t.url}/api/${LICENCE_XLSX_PATH}?batch_id=${batch.batch_id}`))).toBe(401);
    expect(await codeOf(await fetch(`${t.url}/api/${LICENCE_XLSX_PATH}?ticket=forged`))).toBe(401);
    const withToken = await fetch(`${t.url}/api/${LICENCE_XLSX_PATH}?batch_id=${batch.batch_id}&lang=zh-CN`, {
      headers: { authorization: `Bearer ${a.token}` },
    });
    const zh = await read(withToken);
    expect(zh[0]?.[0]).toBe('授权码');
    expect(zh).toHaveLength(6);
  });

  it('refuses more than 50,000 codes at once', async () => {
    for (let i = 0; i < 5; i++) ok(await generate(t.adminToken, { pk: pkB, comp_id: b.compId, count: 10_000 }));
    fails(await t.call('v2/umh/admin/liccode/export', {}, { token: t.adminToken }), 406);
    ok(await t.call('v2/umh/admin/liccode/export', { comp_id: a.compId }, { token: t.adminToken }));
  });
});
