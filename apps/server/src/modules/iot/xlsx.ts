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

/** A cell as text: numbers, rich text, formulas' results and hyperlinks all become their visible text. */
export const cellText = (value: ExcelJS.CellValue | undefined): string => {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    if ('richText' in value)
      return value.richText
        .map((r) => r.text)
        .join('')
        .trim();
    if ('text' in value && typeof value.text === 'string') return value.text.trim();
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
  }
  return '';
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
