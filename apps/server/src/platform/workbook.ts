import ExcelJS from 'exceljs';

export type Cell = string | number | null;

export interface SheetOf {
  name: string;
  header: readonly string[];
  rows: readonly (readonly Cell[])[];
  /** Column widths; by default each column is as wide as its header, at least 14. */
  widths?: readonly number[];
}

/**
 * A small workbook built in memory (statistics, a licence batch): one sheet per entry, its header in
 * bold. Exports of unbounded size stream instead (modules/iot/xlsx.ts).
 */
export const workbookOf = async (sheets: readonly SheetOf[]): Promise<Buffer> => {
  const wb = new ExcelJS.Workbook();
  for (const { name, header, rows, widths } of sheets) {
    const ws = wb.addWorksheet(name);
    ws.columns = header.map((h, i) => ({ header: h, width: widths?.[i] ?? Math.max(14, h.length + 4) }));
    ws.getRow(1).font = { bold: true };
    for (const r of rows) ws.addRow([...r]);
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
};
