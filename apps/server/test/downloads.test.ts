import {
  DOWNLOAD_LIST,
  type DownloadDef,
  downloadPathOf,
  ExportState,
  ImportState,
  JOB_FILE_DOWNLOADS,
  type LicenceExportOutput,
} from '@iot/contract';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';
import { addCompany, addRole, addUser, nowSeconds, ok } from './helpers.js';
import { buildXlsx, type JobRowLite, readXlsx, uploadImport, waitJob } from './jobs-helpers.js';

// The one GET download mechanism (platform/downloads.ts): every declared download and the live
// stream refuse the same way (the JSON envelope and HTTP status of every JSON path), validate
// their query like JSON payloads (406 with fields), and write files in the caller's language.
let t: TestServer;
let noMenu: string;
let exportJob: JobRowLite;
let compId: number;
let pk: string;
const DAY = 86_400;

/** A declared path with sample path parameters. */
const urlOf = (d: DownloadDef, query = '') => `/api/${downloadPathOf(d, { id: 1, folder: 'images', name: 'x.png' })}${query}`;
const guarded = DOWNLOAD_LIST.filter((d) => d.access !== 'public');

const answerOf = async (res: Response) => ({
  status: res.status,
  type: res.headers.get('content-type') ?? '',
  body: (await res.json()) as { code: number; msg?: string; data: unknown },
});

beforeAll(async () => {
  t = await startTestServer();
  const comp = await addCompany(t, { comp_name: 'Downloads Co' });
  compId = comp.comp_id;
  const role = await addRole(t, { name: 'roles only', comp_id: comp.comp_id, menuKeys: ['system/role'], data_scope: 1 });
  await addUser(t, { user_id: 'dl-no-menu', comp_id: comp.comp_id, role_id: role.id, user_type: 2 });
  noMenu = await t.login('dl-no-menu', 'Passw0rd!');
  pk = ok(await t.call<{ pk: string }>('user/product/add', { name: 'DL', comp_id: comp.comp_id }, { token: t.adminToken })).pk;
  ok(await t.call('v2/iot/web/uid/reg/add', { uid: 'DLOAD-0001', mac: '', pk, comp_id: comp.comp_id }, { token: t.adminToken }));
  // The console's language travels as Accept-Language; the job records it when it is added.
  const range = { gmt_start: nowSeconds() - DAY, gmt_end: nowSeconds() + DAY };
  const job = ok(
    await t.call<JobRowLite>('iot/uid/export/add', range, {
      token: t.adminToken,
      headers: { 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8' },
    }),
  );
  exportJob = await waitJob(t, t.adminToken, 'iot/uid/export/get', job.id, [ExportState.SUCCESS, ExportState.FAILURE]);
  expect(exportJob.state).toBe(ExportState.SUCCESS);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('refusals', () => {
  it('no credentials: 401, the same answer on every guarded download and the stream', async () => {
    expect(guarded.length).toBeGreaterThanOrEqual(6);
    const answers = await Promise.all(guarded.map(async (d) => answerOf(await t.raw(urlOf(d), {}))));
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.type).toContain('application/json');
      expect(a.body).toEqual({ code: 401, msg: 'Authentication failed, please log in again', data: null });
    }
    // A forged ticket or token is no credential either.
    for (const d of guarded) {
      expect((await answerOf(await t.raw(urlOf(d, '?ticket=forged&token=forged'), {}))).body.code).toBe(401);
      expect((await answerOf(await t.raw(urlOf(d), { headers: { authorization: 'Bearer forged' } }))).body.code).toBe(401);
    }
  });

  it('a caller without the menu: 513, the same answer everywhere (the stream included)', async () => {
    for (const d of guarded) {
      const a = await answerOf(await t.raw(urlOf(d), { headers: { authorization: `Bearer ${noMenu}` } }));
      expect([d.path, a.status, a.body]).toEqual([d.path, 200, { code: 513, msg: 'No permission', data: null }]);
    }
  });

  it('a bad query: 406 with the fields, as a JSON payload would', async () => {
    const auth = { headers: { authorization: `Bearer ${t.adminToken}` } };
    const stats = await answerOf(await t.raw('/api/v2/iot/dev/statistics.xlsx?gmt_start=soon&gmt_end=10', auth));
    expect(stats.body).toMatchObject({ code: 406, data: { fields: { gmt_start: 'type:number' } } });
    const licences = await answerOf(await t.raw('/api/v2/umh/admin/liccode/export.xlsx?state=lost', auth));
    expect(licences.body).toMatchObject({ code: 406, data: { fields: { state: expect.any(String) } } });
    const job = await answerOf(await t.raw('/api/v2/iot/file/abc/device-export.xlsx', auth));
    expect(job.body).toMatchObject({ code: 406, data: { fields: { id: 'type:number' } } });
    // A job that is not there (or not visible) is "not found", as on JSON paths.
    expect((await answerOf(await t.raw('/api/v2/iot/file/999999/device-export.xlsx', auth))).body.code).toBe(406);
  });

  it('a company the caller cannot see: 406 {comp_id: not_found}, as the JSON statistics call answers', async () => {
    const now = nowSeconds();
    const query = `gmt_start=${now - 86_400}&gmt_end=${now}&comp_id=1999999999`;
    const file = await answerOf(
      await t.raw(`/api/v2/iot/dev/statistics.xlsx?${query}`, { headers: { authorization: `Bearer ${t.adminToken}` } }),
    );
    expect(file.body).toMatchObject({ code: 406, msg: 'company does not exist', data: { fields: { comp_id: 'not_found' } } });
    const json = await t.call(
      'v2/iot/dev/statistics/get',
      { gmt_start: now - 86_400, gmt_end: now, comp_id: 1_999_999_999 },
      { token: t.adminToken },
    );
    expect(json).toMatchObject({ code: 406, msg: 'company does not exist', data: { fields: { comp_id: 'not_found' } } });
  });

  it('a ticket opens only the download it was issued for, with the input it fixes', async () => {
    const ticket = encodeURIComponent(exportJob.download_ticket);
    expect((await t.raw(`/api/${exportJob.download_path}?ticket=${ticket}`, {})).status).toBe(200);
    // Another job's id, or another download, with this ticket: no credential.
    const other = downloadPathOf(JOB_FILE_DOWNLOADS.device_export, { id: exportJob.id + 1 });
    expect((await answerOf(await t.raw(`/api/${other}?ticket=${ticket}`, {}))).body.code).toBe(401);
    const stateFile = downloadPathOf(JOB_FILE_DOWNLOADS.state_export, { id: exportJob.id });
    expect((await answerOf(await t.raw(`/api/${stateFile}?ticket=${ticket}`, {}))).body.code).toBe(401);
    expect((await answerOf(await t.raw(`/api/v2/umh/admin/liccode/export.xlsx?ticket=${ticket}`, {}))).body.code).toBe(401);
  });

  it('every declared download is registered (never the unknown-path answer)', async () => {
    for (const d of DOWNLOAD_LIST) {
      const res = await t.raw(urlOf(d), {});
      const body = res.headers.get('content-type')?.includes('json') ? ((await res.json()) as { msg?: string }) : {};
      expect(body.msg ?? '', d.path).not.toMatch(/^Unknown path/);
    }
  });
});

describe('language', () => {
  it('a device export added in zh-CN has Chinese headers and sheet name', async () => {
    const res = await t.raw(`/api/${exportJob.download_path}?ticket=${encodeURIComponent(exportJob.download_ticket)}`, {});
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    expect(res.headers.get('content-disposition')).toContain(`device_export-${exportJob.id}.xlsx`);
    const body = Buffer.from(await res.arrayBuffer());
    const rows = await readXlsx(body);
    expect(rows[0]).toEqual(['ID', 'UID', 'MAC', '产品 PK', '公司 ID', '公司', '注册时间（UTC）', '在线状态', '激活状态']);
    expect(rows[1]?.[1]).toBe('DLOAD-0001');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(body as unknown as Parameters<typeof wb.xlsx.load>[0]);
    expect(wb.worksheets[0]?.name).toBe('设备');
  });

  it('an import added in zh-TW reports its refused rows in Traditional Chinese', async () => {
    const key = await uploadImport(t, t.adminToken, await buildXlsx([['BAD UID!', '', pk]]));
    const job = ok(
      await t.call<JobRowLite>(
        'iot/dev/file/update',
        { file_key: key, comp_id: compId, pk },
        { token: t.adminToken, headers: { 'accept-language': 'zh-TW' } },
      ),
    );
    const done = await waitJob(t, t.adminToken, 'iot/dev/file/query', job.id, [ImportState.IMPORTED, ImportState.FAILED]);
    const res = await t.raw(`/api/${done.download_path}?ticket=${encodeURIComponent(done.download_ticket)}`, {});
    const rows = await readXlsx(Buffer.from(await res.arrayBuffer()));
    expect(rows).toEqual([
      ['列號', 'UID', 'MAC', '產品 PK', '原因代碼', '原因'],
      [2, 'BAD UID!', undefined, pk, 'uid_format', 'UID 格式錯誤'],
    ]);
  });

  it('statistics and licence codes: `lang` first, then Accept-Language, else English', async () => {
    const auth = { authorization: `Bearer ${t.adminToken}` };
    const q = `gmt_start=${nowSeconds() - DAY}&gmt_end=${nowSeconds() + DAY}`;
    const sheetsOf = async (res: Response) => {
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as Parameters<typeof wb.xlsx.load>[0]);
      return wb.worksheets.map((w) => w.name);
    };
    expect(await sheetsOf(await t.raw(`/api/v2/iot/dev/statistics.xlsx?${q}&lang=zh-CN`, { headers: auth }))).toEqual([
      '汇总',
      '每日',
      '国家',
      '产品',
      '公司',
    ]);
    expect(
      await sheetsOf(await t.raw(`/api/v2/iot/dev/statistics.xlsx?${q}`, { headers: { ...auth, 'accept-language': 'zh-TW' } })),
    ).toEqual(['匯總', '每日', '國家', '產品', '公司']);
    expect(await sheetsOf(await t.raw(`/api/v2/iot/dev/statistics.xlsx?${q}`, { headers: { ...auth, 'accept-language': 'fr' } }))).toEqual([
      'Summary',
      'Daily',
      'Countries',
      'Products',
      'Companies',
    ]);
    const link = ok(await t.call<LicenceExportOutput>('v2/umh/admin/liccode/export', {}, { token: t.adminToken }));
    const res = await t.raw(`/api/${link.download_path}?ticket=${encodeURIComponent(link.download_ticket)}&lang=zh-TW`, {});
    expect((await readXlsx(Buffer.from(await res.arrayBuffer())))[0]?.[0]).toBe('授權碼');
  });
});
