import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Storage } from '../../platform/storage.js';

/** The first bytes of every .xlsx (a ZIP archive). */
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

export const isXlsxName = (name: string) => /\.xlsx$/i.test(name.trim());

/** SPEC §5 "only xlsx": the stored file must start like a ZIP archive (the extension alone proves nothing). */
export const hasZipMagic = async (storage: Storage, key: string): Promise<boolean> => {
  const stream = await storage.open(key);
  if (!stream) return false;
  const head = await new Promise<Buffer>((resolve, reject) => {
    const parts: Buffer[] = [];
    let got = 0;
    stream.on('data', (chunk: Buffer) => {
      parts.push(chunk);
      got += chunk.length;
      if (got >= 4) stream.destroy();
    });
    stream.on('close', () => resolve(Buffer.concat(parts)));
    stream.on('error', reject);
  });
  return head.subarray(0, 4).equals(ZIP_MAGIC);
};

/**
 * A number format that shows a date or a time: y, m, d, h, s outside quoted text and [colour] or
 * [locale] sections (exceljs tests lower case letters and M only: it misses a format such as `YYYY`).
 */
export const isDateFormat = (format: string | undefined): boolean =>
  !!format && /[ymdhsb]/i.test(format.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, ''));

/** A spreadsheet serial day number as a time (the 1900 or the 1904 system), as exceljs counts it. */
const serialToDate = (serial: number, date1904: boolean) => new Date(Math.round((serial - 25569 + (date1904 ? 1462 : 0)) * 86_400_000));

/**
 * A date cell as ISO 8601: `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM:SS` when it has a time of day, `HH:MM:SS`
 * for a time alone (day 0). To the nearest second: serial numbers carry floating-point noise.
 */
export const formatCellDate = (date: Date): string => {
  const iso = new Date(Math.round(date.getTime() / 1000) * 1000).toISOString();
  const day = iso.slice(0, 10);
  const time = iso.slice(11, 19);
  if (day === '1899-12-30') return time;
  return time === '00:00:00' ? day : `${day}T${time}`;
};

/** What one cell holds for an import: its visible text, or a formula whose result the file does not carry. */
export type CellReading = { text: string; formulaWithoutValue: false } | { text: string; formulaWithoutValue: true };

const textOf = (value: ExcelJS.CellValue | undefined): string => {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return formatCellDate(value);
  if (typeof value === 'object') {
    if ('richText' in value)
      return value.richText
        .map((r) => r.text)
        .join('')
        .trim();
    if ('text' in value && typeof value.text === 'string') return value.text.trim();
    // An error value (#N/A, #REF!…) reads as itself: it then fails the column's format check.
    if ('error' in value) return String(value.error);
  }
  return '';
};

/**
 * A cell of exceljs's streaming reader as its visible text: strings (shared, inline, rich), numbers,
 * dates (by the cell's number format, ISO 8601), hyperlinks, and a formula's cached result. A
 * formula stored without a result (openpyxl and other generators write them so; Excel computes them
 * on opening) has no text to import: `formulaWithoutValue`, with the formula as its text.
 */
export const readCell = (cell: Pick<ExcelJS.Cell, 'value' | 'numFmt'>, date1904: boolean): CellReading => {
  const value = cell.value;
  if (value !== null && typeof value === 'object' && ('formula' in value || 'sharedFormula' in value)) {
    const formula = value as ExcelJS.CellFormulaValue | ExcelJS.CellSharedFormulaValue;
    const result = formula.result;
    // exceljs answers NaN for an empty or an error result (`<v></v>`, t="e"): no value either.
    if (result === undefined || result === null || (typeof result === 'number' && Number.isNaN(result))) {
      const text = 'formula' in formula && formula.formula ? formula.formula : 'sharedFormula' in formula ? formula.sharedFormula : '';
      return { text: `=${text}`, formulaWithoutValue: true };
    }
    // exceljs leaves a formula's numeric result a number even under a date format.
    if (typeof result === 'number' && isDateFormat(cell.numFmt)) {
      return { text: formatCellDate(serialToDate(result, date1904)), formulaWithoutValue: false };
    }
    return { text: textOf(result as ExcelJS.CellValue), formulaWithoutValue: false };
  }
  if (value !== null && typeof value === 'object' && 'sharedString' in value) {
    // exceljs read the sheet without the shared strings (xlsx-archive.ts makes sure it does not):
    // a cell whose text is unknown must not import as empty.
    throw new Error('unresolved shared string');
  }
  if (typeof value === 'number' && isDateFormat(cell.numFmt)) {
    return { text: formatCellDate(serialToDate(value, date1904)), formulaWithoutValue: false };
  }
  return { text: textOf(value), formulaWithoutValue: false };
};

/** Counts the bytes flowing through (progress of a streaming parse). */
export const byteCounter = () => {
  let bytes = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  return { stream, read: () => bytes };
};

export interface SheetWriter {
  addRow(values: unknown[]): void;
  /** Finishes the workbook and stores it; answers the storage key. */
  finish(): Promise<string>;
  abort(): Promise<void>;
}

/**
 * A streaming .xlsx writer (exceljs WorkbookWriter: rows are flushed as they come, memory
 * stays flat) into a temporary file, stored under `folder` when finished.
 */
export const createSheetWriter = (storage: Storage, folder: string, sheetName: string, header: string[], widths: number[]): SheetWriter => {
  const tmp = path.join(os.tmpdir(), `iot-xlsx-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.xlsx`);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: tmp, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName);
  sheet.columns = header.map((h, i) => ({ header: h, width: widths[i] ?? 16 }));
  return {
    addRow(values) {
      sheet.addRow(values).commit();
    },
    async finish() {
      sheet.commit();
      await workbook.commit();
      try {
        const { key } = await storage.put(folder, 'xlsx', fs.createReadStream(tmp));
        return key;
      } finally {
        await fs.promises.rm(tmp, { force: true });
      }
    },
    async abort() {
      await fs.promises.rm(tmp, { force: true });
    },
  };
};

/** The import template: header UID, MAC, PK and a note with an example (no example data row). */
export const buildImportTemplate = async (): Promise<Buffer> => {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('devices');
  sheet.columns = [
    { header: 'UID', width: 28 },
    { header: 'MAC', width: 22 },
    { header: 'PK', width: 24 },
  ];
  sheet.getCell('A1').note =
    'One device per row from row 2. UID: 6–32 of A-Z 0-9 -, e.g. ABCD-000001. MAC: 12 hex digits, e.g. AA:BB:CC:00:11:22 (may be empty). PK: product key; empty uses the product chosen at import.';
  sheet.getRow(1).font = { bold: true };
  return Buffer.from(await workbook.xlsx.writeBuffer());
};
