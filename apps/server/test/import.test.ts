import fs from 'node:fs';
import { ImportState } from '@iot/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_HANDLERS, jobServicesOf } from '../src/modules/iot/job-files.js';
import { AbandonJob, createJobRunner, type JobRunner } from '../src/platform/jobs.js';
import { startTestServer, type TestServer } from './harness.js';
import { addCompany, addRole, addUser, dbOf, fails, ok } from './helpers.js';
import { buildXlsx, download, type JobRowLite, readXlsx, uploadImport, waitJob } from './jobs-helpers.js';

// xlsx device import (product/device): a background job that checks every row, stores
// valid rows in chunks, reports refused ones, and survives a kill mid-way.
let t: TestServer;
let comp: { comp_id: number };
let foreign: { comp_id: number };
let token: string;
let pk: string;

const IMPORT = 'iot/dev/file/update';
const LIST = 'iot/dev/file/query';
const FINAL = [ImportState.IMPORTED, ImportState.FAILED];

const startImport = (body: Record<string, unknown>, tk = token) => t.call<JobRowLite>(IMPORT, body, { token: tk });
const devicesOf = (compId: number) =>
  dbOf(t).selectFrom('device').select(['id', 'uid', 'mac', 'import_id']).where('comp_id', '=', compId).orderBy('id').execute();
const dkOf = async (compId: number) =>
  Number((await dbOf(t).selectFrom('company').select('dk').where('comp_id', '=', compId).executeTakeFirstOrThrow()).dk);
const jobCount = async () => Number((await sql<{ n: number }>`select count(*)::int as n from job`.execute(dbOf(t))).rows[0]?.n);

const login = async (name: string, compId: number) => {
  await addRole(t, { name: `${name} role`, comp_id: compId, menuKeys: ['product/device', 'product/dev_dup'], data_scope: 2 });
  const roles = ok(
    await t.call<{ id: number; name: string }[]>('v2/user/role/list', { comp_id: compId, page_size: 100 }, { token: t.adminToken }),
  );
  const role = roles.find((r) => r.name === `${name} role`);
  await addUser(t, { user_id: name, comp_id: compId, role_id: role?.id, user_type: 2 });
  return t.login(name, 'Passw0rd!');
};

beforeAll(async () => {
  t = await startTestServer();
  comp = await addCompany(t, { comp_name: 'Import Co', dk_limit: 1000 });
  foreign = await addCompany(t, { comp_name: 'Foreign Co' });
  token = await login('importer', comp.comp_id);
  pk = ok(await t.call<{ pk: string }>('user/product/add', { name: 'Cam', comp_id: comp.comp_id }, { token: t.adminToken })).pk;
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('device import', () => {
  it('answers a template with the UID, MAC, PK header and no data row', async () => {
    const res = await t.raw('/api/v2/iot/import/template.xlsx', {});
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const rows = await readXlsx(await res.arrayBuffer());
    expect(rows).toEqual([['UID', 'MAC', 'PK']]);
  });

  it('imports valid rows, reports every bad row with its reason, records duplicates', async () => {
    const existing = ok(
      await t.call<{ id: number }>('v2/iot/web/uid/reg/add', { uid: 'EXIST-0001', mac: '', pk, comp_id: comp.comp_id }, { token }),
    );
    const file = await buildXlsx([
      ['GOOD-0001', 'AA:BB:CC:00:00:01', pk],
      ['good-0002', 'aabbcc000002', pk],
      ['GOOD-0003', '', ''], // empty PK: the import's default pk
      ['BAD UID!', 'AA:BB:CC:00:00:04', pk],
      ['GOOD-0005', 'NOT-A-MAC', pk],
      ['GOOD-0006', 'AA:BB:CC:00:00:06', 'NO_SUCH_PK'],
      ['GOOD-0001', 'AA:BB:CC:00:00:07', pk], // same UID as row 2
      ['EXIST-0001', 'AA:BB:CC:00:00:08', pk], // already registered
      ['', 'AA:BB:CC:00:00:09', pk],
      ['GOOD-0010', 'AA:BB:CC:00:00:10', pk],
    ]);
    const key = await uploadImport(t, token, file);
    const job = ok(await startImport({ file_key: key, file_name: 'devices.xlsx', comp_id: comp.comp_id, pk }));
    expect(job.state === ImportState.AWAITING || job.state === ImportState.IMPORTING).toBe(true);
    const done = await waitJob(t, token, LIST, job.id, FINAL);
    expect(done.state).toBe(ImportState.IMPORTED);
    expect(done.ok_count).toBe(4);
    expect(done.fail_count).toBe(6);
    expect(done.done).toBe(10);
    expect(done.total).toBe(10);

    const devices = await devicesOf(comp.comp_id);
    expect(devices.filter((d) => d.import_id === job.id).map((d) => d.uid)).toEqual(['GOOD-0001', 'GOOD-0002', 'GOOD-0003', 'GOOD-0010']);
    expect(await dkOf(comp.comp_id)).toBe(devices.length);

    const res = await download(t, done);
    expect(res.status).toBe(200);
    const report = await readXlsx(await res.arrayBuffer());
    expect(report[0]?.slice(0, 5)).toEqual(['Row', 'UID', 'MAC', 'PK', 'Reason code']);
    expect(report.slice(1).map((r) => [r[0], r[4]])).toEqual([
      [5, 'uid_format'],
      [6, 'mac_format'],
      [7, 'unknown_pk'],
      [8, 'duplicate_in_file'],
      [9, 'duplicate_uid'],
      [10, 'uid_required'],
    ]);
    expect(report[1]?.[5]).toBe('UID format is wrong');
    expect(report[1]?.[6]).toBe('UID 格式错误');

    const dups = ok(await t.call<{ uid: string; existing_device_id: number; import_id: number }[]>('iot/uid/duplicate/get', {}, { token }));
    expect(dups.map((d) => [d.uid, d.existing_device_id, d.import_id])).toEqual([['EXIST-0001', existing.id, job.id]]);
  });

  it('the report needs the token or the ticket, and a foreign caller sees neither the job nor its file', async () => {
    const [job] = ok(await t.call<JobRowLite[]>(LIST, {}, { token }));
    if (!job) throw new Error('no job');
    expect((await t.raw(`/api/${job.download_path}`, {})).status).toBe(401);
    expect((await t.raw(`/api/${job.download_path}?ticket=forged`, {})).status).toBe(401);
    expect((await download(t, job, token)).status).toBe(200);
    const other = await login('foreigner', foreign.comp_id);
    expect(ok(await t.call<JobRowLite[]>(LIST, {}, { token: other }))).toEqual([]);
    expect((await download(t, job, other)).status).toBe(404);
  });

  it('refuses over dk_limit row by row', async () => {
    const small = await addCompany(t, { comp_name: 'Small Co', dk_limit: 3 });
    const file = await buildXlsx(Array.from({ length: 5 }, (_, i) => [`LIMIT-${String(i).padStart(4, '0')}`, '', pk]));
    const key = await uploadImport(t, t.adminToken, file);
    const job = ok(await startImport({ file_key: key, comp_id: small.comp_id }, t.adminToken));
    const done = await waitJob(t, t.adminToken, LIST, job.id, FINAL);
    expect([done.ok_count, done.fail_count]).toEqual([3, 2]);
    const report = await readXlsx(await (await download(t, done)).arrayBuffer());
    expect(report.slice(1).map((r) => r[4])).toEqual(['dk_limit', 'dk_limit']);
    expect(await dkOf(small.comp_id)).toBe(3);
  });

  it('only xlsx: a wrong file type answers 406 and stores nothing', async () => {
    const before = await jobCount();
    const form = new FormData();
    form.append('folder', 'imports');
    form.append('file', new Blob(['uid,mac\nA,B']), 'devices.csv');
    const up = await t.raw('/api/v2/oss/upload', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    expect(up.status).toBe(406);
    // A file named .xlsx that is not a workbook (put straight into storage, past the upload's own check).
    const services = jobServicesOf(t.app);
    const { key } = await services.storage.put('imports', 'xlsx', Buffer.from('uid,mac\nAAAAAA,'));
    const res = await startImport({ file_key: key, comp_id: comp.comp_id });
    fails(res, 406);
    expect(res.msg).toBe('Only xlsx files may be uploaded');
    expect(await services.storage.size(key)).toBeNull();
    const good = await uploadImport(t, token, await buildXlsx([['NAME-000001', '', pk]]));
    fails(await startImport({ file_key: good, file_name: 'devices.xls', comp_id: comp.comp_id }), 406);
    expect(await jobCount()).toBe(before);
  });

  it('a foreign or unknown company, or a missing file, answers 406 and stores nothing', async () => {
    const before = await jobCount();
    const key = await uploadImport(t, token, await buildXlsx([['FOREIGN-001', '', pk]]));
    fails(await startImport({ file_key: key, comp_id: foreign.comp_id }), 406);
    fails(await startImport({ file_key: key, comp_id: 999_999 }), 406);
    fails(await startImport({ file_key: 'imports/nothing-here.xlsx', comp_id: comp.comp_id }), 406);
    fails(await startImport({ file_key: '../../etc/passwd', comp_id: comp.comp_id }), 406);
    expect(await jobCount()).toBe(before);
    expect((await devicesOf(foreign.comp_id)).length).toBe(0);
  });

  it('the legacy data-file paths are the same import', async () => {
    const key = await uploadImport(t, token, await buildXlsx([['LEGACY-0001', '', pk]]));
    const job = ok(await t.call<JobRowLite>('iot/data/file/update', { file_key: key, comp_id: comp.comp_id }, { token }));
    const done = await waitJob(t, token, 'iot/data/file/query', job.id, FINAL);
    expect(done.ok_count).toBe(1);
  });
});

describe('an import killed mid-way', () => {
  let quiet: TestServer;
  let quietToken: string;
  let quietComp: { comp_id: number };
  let quietPk: string;
  const runners: JobRunner[] = [];
  const ROWS = 5_000;
  /** Every 50th row has a bad MAC, every 100th repeats the previous UID. */
  const rowsOf = (prefix: string) =>
    Array.from({ length: ROWS }, (_, i) => {
      const n = i % 100 === 99 ? i - 1 : i;
      return [`${prefix}-${String(n).padStart(6, '0')}`, i % 50 === 7 ? 'XX' : '', quietPk];
    });
  const expected = (prefix: string) => {
    const seen = new Set<string>();
    const good: string[] = [];
    rowsOf(prefix).forEach(([uid, mac], i) => {
      const dup = seen.has(String(uid));
      seen.add(String(uid));
      if (!dup && mac === '' && i >= 0) good.push(String(uid));
    });
    return good;
  };

  beforeAll(async () => {
    quiet = await startTestServer({ jobWorkers: 0 });
    quietComp = await addCompany(quiet, { comp_name: 'Crash Co' });
    quietToken = quiet.adminToken;
    quietPk = ok(
      await quiet.call<{ pk: string }>('user/product/add', { name: 'Crash cam', comp_id: quietComp.comp_id }, { token: quietToken }),
    ).pk;
  }, 60_000);
  afterAll(async () => {
    for (const r of runners) await r.stop();
    await quiet?.close();
  });

  const runner = (opts: { leaseMs?: number; afterCommit?: (commits: number) => void }) => {
    const r = createJobRunner({
      services: jobServicesOf(quiet.app),
      handlers: JOB_HANDLERS,
      log: quiet.app.log,
      leaseMs: opts.leaseMs ?? 30_000,
      afterCommit: opts.afterCommit ? (_job, commits) => opts.afterCommit?.(commits) : undefined,
    });
    runners.push(r);
    return r;
  };
  const imported = (jobId: number) =>
    dbOf(quiet).selectFrom('device').select('uid').where('import_id', '=', jobId).orderBy('uid').execute();
  const jobOf = (id: number) => dbOf(quiet).selectFrom('job').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('resumes from its checkpoint after the lease of the dead runner expires: nothing lost, nothing twice', async () => {
    const key = await uploadImport(quiet, quietToken, await buildXlsx(rowsOf('CRASH')));
    const job = ok(await quiet.call<JobRowLite>(IMPORT, { file_key: key, comp_id: quietComp.comp_id }, { token: quietToken }));
    // The first process "dies" right after its first chunk committed.
    const dying = runner({
      leaseMs: 1_500,
      afterCommit: (commits) => {
        if (commits === 1) throw new AbandonJob();
      },
    });
    await dying.drain();
    const mid = await jobOf(job.id);
    expect(mid.state).toBe('running');
    expect(mid.checkpoint).toBe(2_001);
    const storedMid = (await imported(job.id)).length;
    expect(storedMid).toBeGreaterThan(0);
    expect(storedMid).toBeLessThan(expected('CRASH').length);
    // Another process takes over once the lease has run out.
    const heir = runner({});
    expect(await heir.drain()).toBe(0);
    await new Promise((r) => setTimeout(r, 1_600));
    expect(await heir.drain()).toBe(1);
    const done = await waitJob(quiet, quietToken, LIST, job.id, FINAL);
    expect(done.state).toBe(ImportState.IMPORTED);
    expect(done.resumed).toBe(1);
    const uids = (await imported(job.id)).map((d) => d.uid);
    expect(uids).toEqual(expected('CRASH').sort());
    expect(done.ok_count).toBe(uids.length);
    expect(done.fail_count).toBe(ROWS - uids.length);
    expect(done.done).toBe(ROWS);
    const errors = await dbOf(quiet).selectFrom('job_row_error').select('row_no').where('job_id', '=', job.id).execute();
    expect(errors.length).toBe(ROWS - uids.length);
    const dk = await dbOf(quiet).selectFrom('company').select('dk').where('comp_id', '=', quietComp.comp_id).executeTakeFirstOrThrow();
    const all = await dbOf(quiet).selectFrom('device').select('id').where('comp_id', '=', quietComp.comp_id).execute();
    expect(Number(dk.dk)).toBe(all.length);
  }, 120_000);

  it('a graceful shutdown hands the job back after the current chunk; the next runner finishes it', async () => {
    const key = await uploadImport(quiet, quietToken, await buildXlsx(rowsOf('STOP')));
    const job = ok(await quiet.call<JobRowLite>(IMPORT, { file_key: key, comp_id: quietComp.comp_id }, { token: quietToken }));
    let stopping: Promise<void> | null = null;
    const first = runner({
      afterCommit: (commits) => {
        if (commits === 1) stopping = first.stop();
      },
    });
    await first.drain();
    await stopping;
    const mid = await jobOf(job.id);
    expect(mid.state).toBe('queued');
    expect(mid.checkpoint).toBe(2_001);
    expect(await runner({}).drain()).toBe(1);
    const uids = (await imported(job.id)).map((d) => d.uid);
    expect(uids).toEqual(expected('STOP').sort());
  }, 120_000);

  it('fails cleanly, saying why, when its file vanished before it resumed', async () => {
    const key = await uploadImport(quiet, quietToken, await buildXlsx(rowsOf('GONE')));
    const job = ok(await quiet.call<JobRowLite>(IMPORT, { file_key: key, comp_id: quietComp.comp_id }, { token: quietToken }));
    await runner({
      leaseMs: 100,
      afterCommit: () => {
        throw new AbandonJob();
      },
    }).drain();
    const services = jobServicesOf(quiet.app);
    const file = services.storage.localPath(key);
    if (file) fs.rmSync(file);
    await new Promise((r) => setTimeout(r, 200));
    await runner({}).drain();
    const done = await waitJob(quiet, quietToken, LIST, job.id, FINAL);
    expect(done.state).toBe(ImportState.FAILED);
    expect(done.error).toBe('file_missing');
    expect((await imported(job.id)).length).toBe(2_000 - Math.floor(2_000 / 50) - 20);
  }, 120_000);
});
