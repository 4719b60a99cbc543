import ExcelJS from 'exceljs';
import { expect } from 'vitest';
import type { TestServer } from './harness.js';
import { ok } from './helpers.js';

/** An .xlsx built here, with the template's header unless `header` is false. */
export const buildXlsx = async (rows: (string | number)[][], header: string[] | false = ['UID', 'MAC', 'PK']): Promise<Buffer> => {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('devices');
  if (header) ws.addRow(header);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
};

/** Reads every row of an .xlsx (tests only: small files). */
export const readXlsx = async (body: ArrayBuffer | Buffer): Promise<unknown[][]> => {
  const wb = new ExcelJS.Workbook();
  // exceljs types its argument as the old non-generic Buffer.
  await wb.xlsx.load((body instanceof Buffer ? body : Buffer.from(new Uint8Array(body))) as unknown as Parameters<typeof wb.xlsx.load>[0]);
  const ws = wb.worksheets[0];
  const out: unknown[][] = [];
  ws?.eachRow((row) => {
    out.push((row.values as unknown[]).slice(1));
  });
  return out;
};

/** Through the upload endpoint (folder imports), as the console does. */
export const uploadImport = async (t: TestServer, token: string, file: Buffer, name = 'devices.xlsx') => {
  const form = new FormData();
  form.append('folder', 'imports');
  form.append('file', new Blob([new Uint8Array(file)]), name);
  const res = await t.raw('/api/v2/oss/upload', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const body = (await res.json()) as { code: number; data: { key: string }; msg?: string };
  expect(body.code, body.msg).toBe(200);
  return body.data.key;
};

export interface JobRowLite {
  id: number;
  state: number;
  done: number;
  total: number;
  ok_count: number;
  fail_count: number;
  resumed: number;
  error: string;
  download_path: string;
  download_ticket: string;
}

/** Polls a job list until the job leaves its running states. */
export const waitJob = async (t: TestServer, token: string, listPath: string, id: number, finalStates: number[], ms = 60_000) => {
  const end = Date.now() + ms;
  for (;;) {
    const rows = ok(await t.call<JobRowLite[]>(listPath, { id }, { token }));
    const job = rows[0];
    if (job && finalStates.includes(job.state)) return job;
    if (Date.now() > end) throw new Error(`job ${id} did not finish: ${JSON.stringify(job)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

export const download = async (t: TestServer, job: JobRowLite, token?: string) => {
  const url = token ? `/api/${job.download_path}` : `/api/${job.download_path}?ticket=${encodeURIComponent(job.download_ticket)}`;
  return t.raw(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
};
