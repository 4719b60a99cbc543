import {
  exportLabelsOf,
  IMPORT_MAX_ROWS,
  type ImportRowReason,
  type Language,
  normalizeMac,
  normalizeUid,
  requestLanguage,
} from '@iot/contract';
import ExcelJS from 'exceljs';
import { JobFailure, type JobHandler, JobInterrupted } from '../../platform/jobs.js';
import { nowSeconds } from '../../platform/time.js';
import { registerDevices } from './device.service.js';
import { recordDuplicates } from './duplicate.repository.js';
import { insertRowErrors, listRowErrors } from './job.repository.js';
import { byteCounter, type CellReading, createSheetWriter, readCell } from './xlsx.js';
import { openStoredWorkbook, type WorkbookArchive, XlsxArchiveError } from './xlsx-archive.js';

/** Rows stored per transaction (and per checkpoint). */
export const IMPORT_CHUNK = 2_000;

interface SheetRow {
  rowNo: number;
  uid: string;
  mac: string;
  pk: string;
  /** A UID, MAC or PK cell holds a formula without its result (the row is refused). */
  formulaWithoutValue: boolean;
}

interface Refusal {
  row: SheetRow;
  reason: ImportRowReason;
}

/**
 * One worksheet's device rows. The first non-empty row, when a cell reads UID, is the header and
 * fixes the columns (and MAC, PK); otherwise A/B/C are UID/MAC/PK. Rows empty in those columns are
 * skipped; an empty PK cell takes the import's `pk`.
 */
async function* deviceRows(rows: AsyncIterable<ExcelJS.Row>, defaultPk: string, date1904: boolean): AsyncGenerator<SheetRow> {
  let columns = { uid: 1, mac: 2, pk: 3 };
  let first = true;
  for await (const row of rows) {
    const cells: CellReading[] = [];
    row.eachCell((cell, col) => {
      cells[col] = readCell(cell, date1904);
    });
    if (first) {
      if (cells.every((c) => c.text === '')) continue;
      first = false;
      const at = (name: string) => cells.findIndex((c) => c?.text.toUpperCase() === name);
      if (at('UID') > 0) {
        columns = { uid: at('UID'), mac: Math.max(at('MAC'), 0), pk: Math.max(at('PK'), 0) };
        continue;
      }
    }
    const [uid, mac, pk] = [columns.uid, columns.mac, columns.pk].map((col) => (col > 0 ? cells[col] : undefined));
    if (!uid?.text && !mac?.text && !pk?.text) continue;
    yield {
      rowNo: row.number,
      uid: uid?.text ?? '',
      mac: mac?.text ?? '',
      pk: pk?.text || defaultPk,
      formulaWithoutValue: !!(uid?.formulaWithoutValue || mac?.formulaWithoutValue || pk?.formulaWithoutValue),
    };
  }
}

/**
 * The device rows of the first worksheet (the first visible one in tab order), streamed: never the
 * whole workbook in memory. When it holds none, the job fails rather than "import" nothing:
 * `data_not_on_first_sheet` when another worksheet has rows, else `no_rows` (`no_sheet` without a
 * worksheet). Any parse failure is the file's fault: `file_corrupt`.
 */
async function* sheetRows(input: NodeJS.ReadableStream, defaultPk: string, date1904: boolean): AsyncGenerator<SheetRow> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input as unknown as import('node:stream').Stream, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    // Number formats tell dates from numbers.
    styles: 'cache',
    entries: 'ignore',
  });
  // Manual iteration: a parse error is the file's fault (file_corrupt), while an error of
  // the consumer (a chunk that failed, a crash) must pass through unchanged.
  const next = async <T>(it: AsyncIterator<T>): Promise<IteratorResult<T>> => {
    try {
      return await it.next();
    } catch (err) {
      throw err instanceof JobFailure ? err : new JobFailure('file_corrupt');
    }
  };
  const sheets = reader[Symbol.asyncIterator]();
  const firstSheet = await next(sheets);
  if (firstSheet.done) throw new JobFailure('no_sheet');
  const rows = deviceRows(firstSheet.value, defaultPk, date1904);
  let found = 0;
  for (let item = await next(rows); !item.done; item = await next(rows)) {
    found++;
    yield item.value;
  }
  if (found > 0) return;
  // Nothing on the first sheet: say where the rows are, if anywhere.
  for (let sheet = await next(sheets); !sheet.done; sheet = await next(sheets)) {
    if (!(await next(deviceRows(sheet.value, defaultPk, date1904))).done) throw new JobFailure('data_not_on_first_sheet');
  }
  throw new JobFailure('no_rows');
}

/**
 * `device_import`: streams the uploaded sheet, checks every row, stores valid rows through
 * `registerDevices` in chunks, and records refused rows (and UID/MAC conflicts, for
 * product/dev_dup) in the same transaction that advances the checkpoint. On resume the
 * rows up to the checkpoint are read again only to rebuild the "seen in this file" sets.
 * At the end, refused rows become the downloadable report.
 */
export const deviceImportHandler: JobHandler = async (ctx) => {
  const { job, services } = ctx;
  let archive: WorkbookArchive | null;
  try {
    archive = await openStoredWorkbook(services.storage, job.input_key);
  } catch (err) {
    throw err instanceof XlsxArchiveError ? new JobFailure('file_corrupt') : err;
  }
  if (!archive) throw new JobFailure('file_missing');
  const { size, date1904 } = archive;
  const input = archive.stream();
  const counter = byteCounter();
  input.on('error', (err) => counter.stream.destroy(new JobFailure(err instanceof XlsxArchiveError ? 'file_corrupt' : 'file_missing')));
  input.pipe(counter.stream);

  const defaultPk = typeof job.params.pk === 'string' ? job.params.pk : '';
  const seenUid = new Set<string>();
  const seenMac = new Set<string>();
  let okCount = job.ok_count;
  let failCount = job.fail_count;
  let rows = job.checkpoint > 0 ? job.done : 0;
  let pending: SheetRow[] = [];

  /** Duplicates within the file are decided here (first occurrence wins); everything else by registerDevices. */
  const checkInFile = (row: SheetRow): ImportRowReason | null => {
    // Before anything else: the row's real UID/MAC are unknown, so they join no in-file set.
    if (row.formulaWithoutValue) return 'formula_without_value';
    if (row.uid === '') return 'uid_required';
    const uid = normalizeUid(row.uid);
    const mac = normalizeMac(row.mac);
    let reason: ImportRowReason | null = null;
    if (uid !== null && seenUid.has(uid)) reason = 'duplicate_in_file';
    else if (mac && seenMac.has(mac)) reason = 'duplicate_in_file';
    if (uid !== null) seenUid.add(uid);
    if (mac) seenMac.add(mac);
    if (reason) return reason;
    if (row.pk === '') return 'pk_required';
    return null;
  };

  const estimateTotal = () => {
    const read = counter.read();
    return read > 0 && read < size ? Math.max(rows, Math.round((rows * size) / read)) : rows;
  };

  const flush = async () => {
    if (pending.length === 0) return;
    const chunk = pending;
    pending = [];
    const refused: Refusal[] = [];
    const candidates: SheetRow[] = [];
    for (const row of chunk) {
      const reason = checkInFile(row);
      if (reason) refused.push({ row, reason });
      else candidates.push(row);
    }
    const chunkLast = chunk[chunk.length - 1] as SheetRow;
    let chunkOk = 0;
    await ctx.commitChunk(
      async (trx) => {
        const conflicts: { row: SheetRow; reason: 'duplicate_uid' | 'duplicate_mac'; existingDeviceId: number }[] = [];
        if (candidates.length > 0) {
          const results = await registerDevices(trx, job.scope, {
            compId: job.comp_id,
            importId: job.id,
            rows: candidates.map((r) => ({ uid: r.uid, mac: r.mac, pk: r.pk })),
          });
          for (const res of results) {
            const row = candidates[res.index] as SheetRow;
            if (res.ok) chunkOk++;
            else {
              const reason = res.reason ?? 'uid_format';
              refused.push({ row, reason });
              if ((reason === 'duplicate_uid' || reason === 'duplicate_mac') && res.existingDeviceId !== undefined) {
                conflicts.push({ row, reason, existingDeviceId: res.existingDeviceId });
              }
            }
          }
        }
        await insertRowErrors(
          trx,
          job.id,
          refused.map((r) => ({ row_no: r.row.rowNo, uid: r.row.uid, mac: r.row.mac, pk: r.row.pk, reason: r.reason })),
        );
        if (conflicts.length > 0) {
          await recordDuplicates(
            trx,
            conflicts.map((c) => ({
              uid: normalizeUid(c.row.uid) ?? c.row.uid,
              mac: normalizeMac(c.row.mac) ?? c.row.mac,
              pk: c.row.pk,
              comp_id: job.comp_id,
              reason: c.reason,
              existing_device_id: c.existingDeviceId,
              import_id: job.id,
            })),
          );
        }
      },
      // The checkpoint moves with the rows it covers (same transaction).
      () => ({
        checkpoint: chunkLast.rowNo,
        done: rows,
        total: estimateTotal(),
        ok_count: okCount + chunkOk,
        fail_count: failCount + refused.length,
      }),
    );
    okCount += chunkOk;
    failCount += refused.length;
  };

  try {
    for await (const row of sheetRows(counter.stream, defaultPk, date1904)) {
      if (row.rowNo <= job.checkpoint) {
        // Stored before the interruption: only remember what the file held.
        checkInFile(row);
        continue;
      }
      rows++;
      if (rows > IMPORT_MAX_ROWS) throw new JobFailure('too_many_rows');
      pending.push(row);
      if (pending.length >= IMPORT_CHUNK) {
        await flush();
        if (ctx.isStopping()) throw new JobInterrupted();
      }
    }
  } finally {
    input.destroy();
    await archive.close();
  }
  await flush();
  await ctx.report({ done: rows, total: rows });

  let outputKey = '';
  // In the language of the call that added the job (contract labels).
  if (failCount > 0) outputKey = await writeReport(ctx.job.id, services, requestLanguage(ctx.job.params.lang));
  return {
    done: rows,
    total: rows,
    ok_count: okCount,
    fail_count: failCount,
    output_key: outputKey,
    result: { finished_at: nowSeconds() },
  };
};

/** Refused rows → .xlsx (streamed from the table in row order, keyset batches). */
const writeReport = async (jobId: number, services: Parameters<JobHandler>[0]['services'], lang: Language): Promise<string> => {
  const l = exportLabelsOf(lang).importReport;
  const c = l.columns;
  const writer = createSheetWriter(
    services.storage,
    'reports',
    l.sheet,
    [c.row, c.uid, c.mac, c.pk, c.reason_code, c.reason],
    [8, 28, 22, 24, 18, 40],
  );
  try {
    let after = 0;
    for (;;) {
      const batch = await listRowErrors(services.db, jobId, after, 5_000);
      for (const r of batch) {
        writer.addRow([r.row_no, r.uid, r.mac, r.pk, r.reason, l.reasons[r.reason as ImportRowReason] ?? r.reason]);
      }
      if (batch.length < 5_000) break;
      after = (batch[batch.length - 1] as { row_no: number }).row_no;
    }
    return await writer.finish();
  } catch (err) {
    await writer.abort();
    throw err;
  }
};
