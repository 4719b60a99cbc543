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

/**
 * A workbook written part by part (raw OOXML through jszip), the way other generators than
 * exceljs write them: openpyxl's formula cells without a cached value, inline strings, shared
 * strings, date number formats, and their own order of the parts in the archive.
 */
export interface RawSheet {
  name?: string;
  /** The inner XML of `<sheetData>` (see `rawRow` and the cell helpers below). */
  rows: string;
  hidden?: boolean;
}

export interface RawWorkbook {
  sheets: RawSheet[];
  /** xl/sharedStrings.xml items (plain text), referenced by `sharedCell`. */
  sharedStrings?: string[];
  /** Custom number formats by id (164 and up). */
  numFmts?: Record<number, string>;
  /** The numFmtId of each cell style (`s` attribute = index); style 0 is General. */
  cellStyles?: number[];
  date1904?: boolean;
  /**
   * The order of the parts in the archive:
   * - `workbook-first` (Excel): workbook and its relations, then sheets, styles, shared strings;
   * - `sheets-first` (openpyxl): sheets, shared strings, styles, then the workbook;
   * - `styles-last` (rels and shared strings before the sheets, styles after them).
   */
  order?: 'workbook-first' | 'sheets-first' | 'styles-last';
  /** Sizes and CRC after each part's data (bit 3), as streaming zip writers store them. */
  dataDescriptors?: boolean;
}

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** `<row r="n">…</row>`. */
export const rawRow = (n: number, ...cells: string[]) => `<row r="${n}">${cells.join('')}</row>`;
/** An inline string cell (`t="inlineStr"`). */
export const inlineCell = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${xmlEscape(text)}</t></is></c>`;
/** A shared string cell (`t="s"`, index into `sharedStrings`). */
export const sharedCell = (ref: string, index: number) => `<c r="${ref}" t="s"><v>${index}</v></c>`;
/** A number cell, with a cell style (`s`) when given. */
export const numberCell = (ref: string, value: number, style?: number) =>
  `<c r="${ref}"${style === undefined ? '' : ` s="${style}"`}><v>${value}</v></c>`;
/** A formula cell; without `cached` there is no `<v>` (as openpyxl writes every formula). */
export const formulaCell = (ref: string, formula: string, cached?: { str: string } | { num: number; style?: number }) => {
  if (cached === undefined) return `<c r="${ref}"><f>${xmlEscape(formula)}</f></c>`;
  if ('str' in cached) return `<c r="${ref}" t="str"><f>${xmlEscape(formula)}</f><v>${xmlEscape(cached.str)}</v></c>`;
  return `<c r="${ref}"${cached.style === undefined ? '' : ` s="${cached.style}"`}><f>${xmlEscape(formula)}</f><v>${cached.num}</v></c>`;
};

export const buildRawXlsx = async (book: RawWorkbook): Promise<Buffer> => {
  const { default: JSZip } = await import('jszip');
  const sheetParts = book.sheets.map((s, i) => ({
    path: `xl/worksheets/sheet${i + 1}.xml`,
    xml: `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheetData>${s.rows}</sheetData></worksheet>`,
  }));
  const rels = [
    ...book.sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`),
    `<Relationship Id="rIdStyles" Type="${REL_NS}/styles" Target="styles.xml"/>`,
    book.sharedStrings ? `<Relationship Id="rIdStrings" Type="${REL_NS}/sharedStrings" Target="sharedStrings.xml"/>` : '',
  ].join('');
  const numFmts = Object.entries(book.numFmts ?? {});
  const styles = book.cellStyles ?? [0];
  const parts: Record<string, string> = {
    '[Content_Types].xml': `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${sheetParts
      .map(
        (p) => `<Override PartName="/${p.path}" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
      )
      .join(
        '',
      )}<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>${book.sharedStrings ? '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' : ''}</Types>`,
    '_rels/.rels': `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml': `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><workbookPr${book.date1904 ? ' date1904="1"' : ''}/><sheets>${book.sheets
      .map(
        (s, i) =>
          `<sheet name="${xmlEscape(s.name ?? `Sheet${i + 1}`)}" sheetId="${i + 1}"${s.hidden ? ' state="hidden"' : ''} r:id="rId${i + 1}"/>`,
      )
      .join('')}</sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">${rels}</Relationships>`,
    'xl/styles.xml': `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">${numFmts.length > 0 ? `<numFmts count="${numFmts.length}">${numFmts.map(([id, code]) => `<numFmt numFmtId="${id}" formatCode="${xmlEscape(code)}"/>`).join('')}</numFmts>` : ''}<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills><borders count="1"><border/></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="${styles.length}">${styles.map((id) => `<xf numFmtId="${id}" fontId="0" fillId="0" borderId="0" xfId="0"${id === 0 ? '' : ' applyNumberFormat="1"'}/>`).join('')}</cellXfs></styleSheet>`,
  };
  if (book.sharedStrings) {
    parts['xl/sharedStrings.xml'] =
      `${XML_HEAD}<sst xmlns="${MAIN_NS}" count="${book.sharedStrings.length}" uniqueCount="${book.sharedStrings.length}">${book.sharedStrings
        .map((s) => `<si><t>${xmlEscape(s)}</t></si>`)
        .join('')}</sst>`;
  }
  const sheets = sheetParts.map((p) => p.path);
  for (const p of sheetParts) parts[p.path] = p.xml;
  const book_ = ['xl/workbook.xml', 'xl/_rels/workbook.xml.rels'];
  const order = {
    'workbook-first': ['[Content_Types].xml', '_rels/.rels', ...book_, ...sheets, 'xl/styles.xml', 'xl/sharedStrings.xml'],
    'sheets-first': [...sheets, 'xl/sharedStrings.xml', 'xl/styles.xml', ...book_, '_rels/.rels', '[Content_Types].xml'],
    'styles-last': [
      '_rels/.rels',
      'xl/_rels/workbook.xml.rels',
      'xl/sharedStrings.xml',
      'xl/workbook.xml',
      ...sheets,
      'xl/styles.xml',
      '[Content_Types].xml',
    ],
  }[book.order ?? 'workbook-first'];
  const zip = new JSZip();
  for (const name of order) {
    const xml = parts[name];
    if (xml !== undefined) zip.file(name, xml, { createFolders: false });
  }
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', streamFiles: book.dataDescriptors ?? false });
};
