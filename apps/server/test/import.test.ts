import fs from 'node:fs';
import { ImportState } from '@iot/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_HANDLERS, jobServicesOf } from '../src/modules/iot/job-files.js';
import { AbandonJob, createJobRunner, type JobRunner } from '../src/platform/jobs.js';
import { startTestServer, type TestServer } from './harness.js';
import { addCompany, addRole, addUser, dbOf, fails, ok } from './helpers.js';
import {
  buildRawXlsx,
  buildXlsx,
  download,
  formulaCell,
  inlineCell,
  type JobRowLite,
  numberCell,
  type RawWorkbook,
  rawRow,
  readXlsx,
  sharedCell,
  uploadImport,
  waitJob,
} from './jobs-helpers.js';

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
    // One language per report: the import's (downloads.test.ts has one in Chinese).
    expect(report[0]).toHaveLength(6);

    const dups = ok(await t.call<{ uid: string; existing_device_id: number; import_id: number }[]>('iot/uid/duplicate/get', {}, { token }));
    expect(dups.map((d) => [d.uid, d.existing_device_id, d.import_id])).toEqual([['EXIST-0001', existing.id, job.id]]);
  });

  it('the report needs the token or the ticket, and a foreign caller sees neither the job nor its file', async () => {
    const [job] = ok(await t.call<JobRowLite[]>(LIST, {}, { token }));
    if (!job) throw new Error('no job');
    // Refusals are the JSON envelope of every path (platform/downloads.ts).
    const codeOf = async (res: Response) => ((await res.json()) as { code: number }).code;
    expect(await codeOf(await t.raw(`/api/${job.download_path}`, {}))).toBe(401);
    expect(await codeOf(await t.raw(`/api/${job.download_path}?ticket=forged`, {}))).toBe(401);
    expect((await download(t, job, token)).status).toBe(200);
    const other = await login('foreigner', foreign.comp_id);
    expect(ok(await t.call<JobRowLite[]>(LIST, {}, { token: other }))).toEqual([]);
    expect(await codeOf(await download(t, job, other))).toBe(406);
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

  it('a refused upload is removed: its key cannot start an import afterwards', async () => {
    const before = await jobCount();
    const services = jobServicesOf(t.app);
    const key = await uploadImport(t, token, await buildXlsx([['REUSE-000001', '', pk]]));
    const refused = await startImport({ file_key: key, file_name: 'devices.xls', comp_id: comp.comp_id });
    fails(refused, 406);
    expect(refused.data).toEqual({ fields: { file_key: 'format:xlsx' } });
    expect(await services.storage.size(key)).toBeNull();
    const again = await startImport({ file_key: key, file_name: 'devices.xlsx', comp_id: comp.comp_id });
    fails(again, 406);
    expect(again.data).toEqual({ fields: { file_key: 'not_found' } });
    expect(await jobCount()).toBe(before);
    expect((await devicesOf(comp.comp_id)).some((d) => d.uid === 'REUSE-000001')).toBe(false);
  });

  it('a foreign or unknown company, or a missing file, answers 406 and stores nothing', async () => {
    const before = await jobCount();
    const key = await uploadImport(t, token, await buildXlsx([['FOREIGN-001', '', pk]]));
    for (const compId of [foreign.comp_id, 999_999]) {
      const res = await startImport({ file_key: key, comp_id: compId });
      fails(res, 406);
      // CONTRACT §3: the field that failed, as for every refused payload.
      expect(res.data).toEqual({ fields: { comp_id: 'not_found' } });
    }
    fails(await startImport({ file_key: 'imports/nothing-here.xlsx', comp_id: comp.comp_id }), 406);
    fails(await startImport({ file_key: '../../etc/passwd', comp_id: comp.comp_id }), 406);
    expect(await jobCount()).toBe(before);
    expect((await devicesOf(foreign.comp_id)).length).toBe(0);
  });

  it('the default product must be one the caller sees: unknown answers 406 fields.pk, shared into the scope is accepted', async () => {
    const before = await jobCount();
    const key = await uploadImport(t, token, await buildXlsx([['SHARED-0001', '', '']]));
    const unknown = await startImport({ file_key: key, comp_id: comp.comp_id, pk: 'NO_SUCH_PK' });
    fails(unknown, 406);
    expect(unknown.data).toEqual({ fields: { pk: 'not_found' } });
    // Another company's product, invisible until it is shared with the importer's company.
    const other = ok(
      await t.call<{ id: number; pk: string }>(
        'user/product/add',
        { name: 'Shared cam', comp_id: foreign.comp_id },
        { token: t.adminToken },
      ),
    );
    fails(await startImport({ file_key: key, comp_id: comp.comp_id, pk: other.pk }), 406);
    expect(await jobCount()).toBe(before);
    ok(await t.call('v2/umh/admin/product/share/add', { product_id: other.id, comp_id: comp.comp_id }, { token: t.adminToken }));
    const job = ok(await startImport({ file_key: key, comp_id: comp.comp_id, pk: other.pk }));
    const done = await waitJob(t, token, LIST, job.id, FINAL);
    expect([done.state, done.ok_count, done.fail_count]).toEqual([ImportState.IMPORTED, 1, 0]);
    const device = await dbOf(t).selectFrom('device').select(['uid', 'pk']).where('import_id', '=', job.id).executeTakeFirstOrThrow();
    expect(device).toEqual({ uid: 'SHARED-0001', pk: other.pk });
  });

  it('the legacy data-file paths are the same import', async () => {
    const key = await uploadImport(t, token, await buildXlsx([['LEGACY-0001', '', pk]]));
    const job = ok(await t.call<JobRowLite>('iot/data/file/update', { file_key: key, comp_id: comp.comp_id }, { token }));
    const done = await waitJob(t, token, 'iot/data/file/query', job.id, FINAL);
    expect(done.ok_count).toBe(1);
  });
});

// Workbooks written part by part as other generators than exceljs write them (openpyxl, Excel,
// LibreOffice): formulas without a cached value, inline and shared strings, date formats, the
// parts of the archive in their order, more than one sheet.
describe('device import of workbooks from other generators', () => {
  const importRaw = async (book: RawWorkbook, extra: Record<string, unknown> = {}) => {
    const key = await uploadImport(t, token, await buildRawXlsx(book));
    const job = ok(await startImport({ file_key: key, comp_id: comp.comp_id, pk, ...extra }));
    return waitJob(t, token, LIST, job.id, FINAL);
  };
  const reportOf = async (job: JobRowLite) => (await readXlsx(await (await download(t, job)).arrayBuffer())).slice(1);
  const importedBy = async (jobId: number) =>
    dbOf(t).selectFrom('device').select(['uid', 'mac', 'pk']).where('import_id', '=', jobId).orderBy('id').execute();
  const header = rawRow(1, inlineCell('A1', 'UID'), inlineCell('B1', 'MAC'), inlineCell('C1', 'PK'));

  it('a formula without a cached value fails its row (formula_without_value); a cached value is imported', async () => {
    const done = await importRaw({
      order: 'sheets-first', // openpyxl
      sheets: [
        {
          rows: [
            header,
            rawRow(2, inlineCell('A2', 'FORM-0002'), formulaCell('B2', 'CONCAT("AA:BB:CC:","00:00:02")')),
            rawRow(3, formulaCell('A3', 'CONCAT("FORM-","0003")', { str: 'FORM-0003' }), inlineCell('B3', 'AA:BB:CC:00:00:03')),
            rawRow(4, formulaCell('A4', 'CONCAT("FORM-","0004")')),
            rawRow(5, inlineCell('A5', 'FORM-0005'), formulaCell('C5', 'Products!A1')),
            rawRow(6, inlineCell('A6', 'FORM-0006'), formulaCell('B6', 'B3', { str: 'AA:BB:CC:00:00:06' })),
            // An error value reads as itself; a formula whose cached result is an error has no value.
            rawRow(7, inlineCell('A7', 'FORM-0007'), '<c r="B7" t="e"><v>#N/A</v></c>'),
            rawRow(8, inlineCell('A8', 'FORM-0008'), '<c r="B8" t="e"><f>VLOOKUP(1,Z1:Z2,2)</f><v>#N/A</v></c>'),
          ].join(''),
        },
      ],
    });
    expect([done.state, done.ok_count, done.fail_count]).toEqual([ImportState.IMPORTED, 2, 5]);
    expect(await importedBy(done.id)).toEqual([
      { uid: 'FORM-0003', mac: 'AA:BB:CC:00:00:03', pk },
      { uid: 'FORM-0006', mac: 'AA:BB:CC:00:00:06', pk },
    ]);
    const report = await reportOf(done);
    expect(report.map((r) => [r[0], r[1], r[2] ?? '', r[3], r[4]])).toEqual([
      [2, 'FORM-0002', '=CONCAT("AA:BB:CC:","00:00:02")', pk, 'formula_without_value'],
      [4, '=CONCAT("FORM-","0004")', '', pk, 'formula_without_value'],
      [5, 'FORM-0005', '', '=Products!A1', 'formula_without_value'],
      [7, 'FORM-0007', '#N/A', pk, 'mac_format'],
      [8, 'FORM-0008', '=VLOOKUP(1,Z1:Z2,2)', pk, 'formula_without_value'],
    ]);
    expect(report[0]?.[5]).toMatch(/^Formula without a calculated value/);
  });

  it('shared and inline strings import as text whatever the order of the parts and the number of sheets', async () => {
    const strings = ['UID', 'MAC', 'PK', 'notes'];
    for (const order of ['workbook-first', 'sheets-first', 'styles-last'] as const) {
      const prefix = { 'workbook-first': 'EXCEL', 'sheets-first': 'OPENPYXL', 'styles-last': 'LIBRE' }[order];
      const uids = Array.from({ length: 30 }, (_, i) => `${prefix}-${String(i).padStart(4, '0')}`);
      const rows = uids.map((uid, i) => {
        const n = i + 2;
        // Even rows: the UID from the shared strings table; odd rows: an inline string.
        const uidCell = i % 2 === 0 ? sharedCell(`A${n}`, strings.push(uid) - 1) : inlineCell(`A${n}`, uid);
        return rawRow(
          n,
          uidCell,
          inlineCell(`B${n}`, `AA:BB:${(i + 16).toString(16).toUpperCase()}:00:00:${{ EXCEL: '01', OPENPYXL: '02', LIBRE: '03' }[prefix]}`),
        );
      });
      const done = await importRaw({
        order,
        dataDescriptors: order === 'sheets-first',
        sharedStrings: strings,
        sheets: [
          { name: 'devices', rows: [rawRow(1, sharedCell('A1', 0), sharedCell('B1', 1), sharedCell('C1', 2)), ...rows].join('') },
          { name: 'notes', rows: rawRow(1, sharedCell('A1', 3)) },
          { name: 'more notes', rows: rawRow(1, inlineCell('A1', 'nothing to import')) },
        ],
      });
      expect([order, done.state, done.ok_count, done.fail_count]).toEqual([order, ImportState.IMPORTED, uids.length, 0]);
      expect((await importedBy(done.id)).map((d) => d.uid)).toEqual(uids);
    }
  });

  it('date cells read as ISO dates (YYYY-MM-DD, with the time when there is one), checked and reported so', async () => {
    // 45356 is 2024-03-05 (1900 system); 43894 the same day in the 1904 system.
    for (const [order, date1904, day] of [
      ['styles-last', false, 45356],
      ['sheets-first', true, 43894],
    ] as const) {
      const done = await importRaw({
        order,
        date1904,
        numFmts: { 164: 'yyyy-mm-dd hh:mm', 165: 'YYYY' },
        cellStyles: [0, 14, 164, 165],
        sheets: [
          {
            rows: [
              header,
              // A date as the UID: imported as the text the sheet shows, 2024-03-05.
              rawRow(2, numberCell('A2', day, 1)),
              rawRow(3, inlineCell('A3', `DATE-${order}`), numberCell('B3', day + 0.4375, 2)),
              rawRow(4, inlineCell('A4', `TODAY-${order}`), formulaCell('B4', 'TODAY()', { num: day, style: 1 })),
              rawRow(5, inlineCell('A5', `YEAR-${order}`), numberCell('B5', day, 3)),
            ].join(''),
          },
        ],
      });
      expect([order, done.state, done.ok_count, done.fail_count]).toEqual([order, ImportState.IMPORTED, 1, 3]);
      expect((await importedBy(done.id)).map((d) => d.uid)).toEqual(['2024-03-05']);
      await dbOf(t).deleteFrom('device').where('import_id', '=', done.id).execute();
      expect((await reportOf(done)).map((r) => [r[0], r[2], r[4]])).toEqual([
        [3, '2024-03-05T10:30:00', 'mac_format'],
        [4, '2024-03-05', 'mac_format'],
        [5, '2024-03-05', 'mac_format'],
      ]);
    }
  });

  it('an empty workbook, a header-only sheet or rows on another sheet only: the job fails saying why', async () => {
    const empty = await importRaw({ sheets: [{ rows: '' }] });
    expect([empty.state, empty.error, empty.done]).toEqual([ImportState.FAILED, 'no_rows', 0]);

    const key = await uploadImport(t, token, await buildXlsx([]));
    const headerOnly = await waitJob(t, token, LIST, ok(await startImport({ file_key: key, comp_id: comp.comp_id })).id, FINAL);
    expect([headerOnly.state, headerOnly.error]).toEqual([ImportState.FAILED, 'no_rows']);

    const elsewhere = await importRaw({
      sheets: [{ rows: header }, { name: 'Sheet2', rows: rawRow(1, inlineCell('A1', 'ELSEWHERE-01')) }],
    });
    expect([elsewhere.state, elsewhere.error, elsewhere.ok_count]).toEqual([ImportState.FAILED, 'data_not_on_first_sheet', 0]);
    expect(await importedBy(elsewhere.id)).toEqual([]);
    expect(elsewhere.download_path).toBe('');
  });

  it('reads the first visible sheet: a hidden first tab is passed over; blank rows before the header are skipped', async () => {
    const done = await importRaw({
      order: 'sheets-first',
      sheets: [
        { name: 'lists', hidden: true, rows: rawRow(1, inlineCell('A1', 'HIDDEN-0001')) },
        {
          name: 'devices',
          rows: [
            rawRow(1),
            rawRow(2, inlineCell('B2', '')),
            rawRow(3, inlineCell('A3', 'UID')),
            rawRow(4, inlineCell('A4', 'VISIBLE-01')),
          ].join(''),
        },
      ],
    });
    expect([done.state, done.ok_count, done.fail_count]).toEqual([ImportState.IMPORTED, 1, 0]);
    expect((await importedBy(done.id)).map((d) => d.uid)).toEqual(['VISIBLE-01']);
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
