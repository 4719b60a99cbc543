import { ExportState } from '@iot/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { addCompany, addRole, addUser, dbOf, fails, nowSeconds, ok } from './helpers.js';
import { download, type JobRowLite, readXlsx, waitJob } from './jobs-helpers.js';

// Device exports (product/device, product/device_state): background jobs writing .xlsx,
// at most three months of registration time, scoped like the list.
let t: TestServer;
let compA: { comp_id: number };
let compB: { comp_id: number };
let tokenA: string;
let pkA: string;
let pkA2: string;
const DAY = 86_400;
const FINAL = [ExportState.SUCCESS, ExportState.FAILURE];

const jobCount = async () => Number((await sql<{ n: number }>`select count(*)::int as n from job`.execute(dbOf(t))).rows[0]?.n);

beforeAll(async () => {
  t = await startTestServer();
  compA = await addCompany(t, { comp_name: 'Export A' });
  compB = await addCompany(t, { comp_name: 'Export B' });
  const role = await addRole(t, {
    name: 'exporter',
    comp_id: compA.comp_id,
    menuKeys: ['product/device', 'product/device_state'],
    data_scope: 1,
  });
  await addUser(t, { user_id: 'exporter', comp_id: compA.comp_id, role_id: role.id, user_type: 2 });
  tokenA = await t.login('exporter', 'Passw0rd!');
  pkA = ok(await t.call<{ pk: string }>('user/product/add', { name: 'A1', comp_id: compA.comp_id }, { token: t.adminToken })).pk;
  pkA2 = ok(await t.call<{ pk: string }>('user/product/add', { name: 'A2', comp_id: compA.comp_id }, { token: t.adminToken })).pk;
  const pkB = ok(await t.call<{ pk: string }>('user/product/add', { name: 'B1', comp_id: compB.comp_id }, { token: t.adminToken })).pk;
  for (let i = 0; i < 12; i++) {
    ok(
      await t.call(
        'v2/iot/web/uid/reg/add',
        { uid: `EXPA-${String(i).padStart(4, '0')}`, mac: '', pk: i % 3 === 0 ? pkA2 : pkA, comp_id: compA.comp_id },
        { token: t.adminToken },
      ),
    );
  }
  for (let i = 0; i < 3; i++) {
    ok(await t.call('v2/iot/web/uid/reg/add', { uid: `EXPB-${i}000`, mac: '', pk: pkB, comp_id: compB.comp_id }, { token: t.adminToken }));
  }
  // Two of A's devices were registered long ago: outside a recent range.
  await dbOf(t)
    .updateTable('device')
    .set({ gmt_create: nowSeconds() - 200 * DAY })
    .where('uid', 'in', ['EXPA-0001', 'EXPA-0002'])
    .execute();
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const range = () => ({ gmt_start: nowSeconds() - 30 * DAY, gmt_end: nowSeconds() + DAY });

describe('device export', () => {
  it('writes an .xlsx whose rows are exactly the filtered list, in scope', async () => {
    const job = ok(await t.call<JobRowLite>('iot/uid/export/add', { ...range(), pk: pkA }, { token: tokenA }));
    expect(job.state).toBe(ExportState.EXPORTING);
    const done = await waitJob(t, tokenA, 'iot/uid/export/get', job.id, FINAL);
    expect(done.state).toBe(ExportState.SUCCESS);
    const rows = await readXlsx(await (await download(t, done)).arrayBuffer());
    expect(rows[0]?.slice(0, 4)).toEqual(['ID', 'UID', 'MAC', 'PK']);
    const list = ok(await t.call<{ uid: string }[]>('v2/iot/web/uid/reg/list', { ...range(), pk: pkA, page_size: 100 }, { token: tokenA }));
    const exported = rows.slice(1).map((r) => String(r[1]));
    expect(exported.sort()).toEqual(list.map((r) => r.uid).sort());
    expect(exported.length).toBe(6); // 8 of product A1, two of them too old
    expect(done.ok_count).toBe(6);
    expect(done.done).toBe(done.total);
  });

  it('takes the list’s last-online range too', async () => {
    const list = ok(await t.call<{ id: number; uid: string }[]>('v2/iot/web/uid/reg/list', { ...range(), pk: pkA }, { token: tokenA }));
    const seen = list[0] as { id: number; uid: string };
    await dbOf(t).updateTable('device_state').set({ last_online: 1_700_000_000 }).where('device_id', '=', seen.id).execute();
    const filter = { ...range(), online_start: 1_700_000_000, online_end: 1_700_000_001 };
    const job = ok(await t.call<JobRowLite>('iot/uid/export/add', filter, { token: tokenA }));
    const done = await waitJob(t, tokenA, 'iot/uid/export/get', job.id, FINAL);
    const rows = await readXlsx(await (await download(t, done)).arrayBuffer());
    expect(rows.slice(1).map((r) => String(r[1]))).toEqual([seen.uid]);
  });

  it('a company-scoped caller exports only its own devices', async () => {
    const job = ok(await t.call<JobRowLite>('iot/uid/export/add', range(), { token: tokenA }));
    const done = await waitJob(t, tokenA, 'iot/uid/export/get', job.id, FINAL);
    const rows = await readXlsx(await (await download(t, done, tokenA)).arrayBuffer());
    expect(rows.slice(1).every((r) => String(r[1]).startsWith('EXPA-'))).toBe(true);
    expect(rows.length - 1).toBe(10);
    fails(await t.call('iot/uid/export/add', { ...range(), comp_id: compB.comp_id }, { token: tokenA }), 406);
  });

  it('refuses more than three months, or an empty range, and stores nothing', async () => {
    const before = await jobCount();
    const now = nowSeconds();
    const long = await t.call('iot/uid/export/add', { gmt_start: now - 93 * DAY, gmt_end: now }, { token: tokenA });
    fails(long, 406);
    expect(long.data).toEqual({ fields: { gmt_end: 'range:3_months' } });
    fails(await t.call('iot/uid/export/add', { gmt_start: now, gmt_end: now - DAY }, { token: tokenA }), 406);
    fails(await t.call('iot/uid/export/add', {}, { token: tokenA }), 406);
    fails(await t.call('v2/umh/admin/dev/state/export/add', { gmt_start: now - 100 * DAY, gmt_end: now }, { token: tokenA }), 406);
    expect(await jobCount()).toBe(before);
  });

  it('exports the device state list on the same mechanism', async () => {
    const job = ok(await t.call<JobRowLite>('v2/umh/admin/dev/state/export/add', range(), { token: tokenA }));
    const done = await waitJob(t, tokenA, 'v2/umh/admin/dev/state/export/list', job.id, FINAL);
    expect(done.state).toBe(ExportState.SUCCESS);
    const rows = await readXlsx(await (await download(t, done)).arrayBuffer());
    expect(rows[0]?.slice(0, 6)).toEqual(['ID', 'UID', 'PK', 'Company', 'Online', 'Active']);
    expect(rows.length - 1).toBe(10);
    // The device list's export jobs and the state list's are separate lists.
    const deviceJobs = ok(await t.call<JobRowLite[]>('iot/uid/export/get', {}, { token: tokenA }));
    expect(deviceJobs.some((j) => j.id === job.id)).toBe(false);
  });

  it('lists jobs by state and answers 406 (not found) for a file of another company', async () => {
    const other = await addCompany(t, { comp_name: 'Export C' });
    const role = await addRole(t, { name: 'c-exporter', comp_id: other.comp_id, menuKeys: ['product/device'], data_scope: 1 });
    await addUser(t, { user_id: 'c-exporter', comp_id: other.comp_id, role_id: role.id, user_type: 2 });
    const tokenC = await t.login('c-exporter', 'Passw0rd!');
    const [mine] = ok(await t.call<JobRowLite[]>('iot/uid/export/get', { state: ExportState.SUCCESS }, { token: tokenA }));
    if (!mine) throw new Error('no job');
    expect(ok(await t.call<JobRowLite[]>('iot/uid/export/get', {}, { token: tokenC }))).toEqual([]);
    expect(((await (await download(t, mine, tokenC)).json()) as { code: number }).code).toBe(406);
    expect(ok(await t.call<JobRowLite[]>('iot/uid/export/get', { state: ExportState.FAILURE }, { token: tokenA }))).toEqual([]);
  });
});
