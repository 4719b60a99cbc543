import { IMPORT_MAX_ROWS, type ImportRowReason, normalizeMac, normalizeUid } from '@iot/contract';
import ExcelJS from 'exceljs';
import type { Transaction } from 'kysely';
import type { DB } from '../../platform/db/schema.js';
import { JobFailure, type JobHandler, JobInterrupted } from '../../platform/jobs.js';
import { nowSeconds } from '../../platform/time.js';
import { registerDevices } from './device.service.js';
import { recordDuplicates } from './duplicate.repository.js';
import { byteCounter, cellText, createSheetWriter } from './xlsx.js';

/** Rows stored per transaction (and per checkpoint). */
export const IMPORT_CHUNK = 2_000;

/** The report's reason column, in the three console languages. */
const REASON_TEXT: Record<ImportRowReason, [string, string, string]> = {
  uid_required: ['UID is empty', 'UID 为空', 'UID 為空'],
  uid_format: ['UID format is wrong', 'UID 格式错误', 'UID 格式錯誤'],
  mac_format: ['MAC format is wrong', 'MAC 格式错误', 'MAC 格式錯誤'],
  pk_required: ['PK is empty', 'PK 为空', 'PK 為空'],
  unknown_pk: ['Unknown product (PK)', '未知产品（PK）', '未知產品（PK）'],
  duplicate_in_file: ['Duplicate in this file', '文件内重复', '檔案內重複'],
  duplicate_uid: ['UID already registered', 'UID 已注册', 'UID 已註冊'],
  duplicate_mac: ['MAC already registered', 'MAC 已注册', 'MAC 已註冊'],
  dk_limit: ['Over the company key limit', '超过公司设备密钥上限', '超過公司裝置金鑰上限'],
};

interface SheetRow {
  rowNo: number;
  uid: string;
  mac: string;
  pk: string;
}

interface Refusal {
  row: SheetRow;
  reason: ImportRowReason;
}

/**
 * The rows of the first worksheet, streamed (never the whole workbook in memory). The
 * header row (a cell reading UID) fixes the columns; without one, A/B/C are UID/MAC/PK.
 * Any parse failure is the file's fault: `file_corrupt`.
 */
async function* sheetRows(input: NodeJS.ReadableStream, defaultPk: string): AsyncGenerator<SheetRow> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input as unknown as import('node:stream').Stream, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  });
  let columns = { uid: 1, mac: 2, pk: 3 };
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
  // Only the first worksheet is read.
  const firstSheet = await next(sheets);
  if (firstSheet.done) throw new JobFailure('no_sheet');
  const rows = firstSheet.value[Symbol.asyncIterator]();
  let first = true;
  for (let item = await next(rows); !item.done; item = await next(rows)) {
    const row = item.value;
    const values = row.values as ExcelJS.CellValue[];
    // Sparse (1-based, holes for empty cells): Array.from visits the holes too.
    const texts = Array.from(values, (v) => cellText(v));
    if (first) {
      first = false;
      const uidAt = texts.findIndex((t) => t.toUpperCase() === 'UID');
      if (uidAt > 0) {
        const at = (name: string) =>
          Math.max(
            texts.findIndex((t) => t.toUpperCase() === name),
            0,
          );
        columns = { uid: uidAt, mac: at('MAC'), pk: at('PK') };
        continue;
      }
    }
    const uid = texts[columns.uid] ?? '';
    const mac = columns.mac > 0 ? (texts[columns.mac] ?? '') : '';
    const pkCell = columns.pk > 0 ? (texts[columns.pk] ?? '') : '';
    if (uid === '' && mac === '' && pkCell === '') continue;
    yield { rowNo: row.number, uid, mac, pk: pkCell || defaultPk };
  }
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
  const size = await services.storage.size(job.input_key);
  const input = size === null ? null : await services.storage.open(job.input_key);
  if (!input || size === null) throw new JobFailure('file_missing');
  const counter = byteCounter();
  input.on('error', () => counter.stream.destroy(new JobFailure('file_missing')));
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
      async (trx: Transaction<DB>) => {
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
        if (refused.length > 0) {
          await trx
            .insertInto('job_row_error')
            .values(
              refused.map((r) => ({ job_id: job.id, row_no: r.row.rowNo, uid: r.row.uid, mac: r.row.mac, pk: r.row.pk, reason: r.reason })),
            )
            .execute();
        }
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
    for await (const row of sheetRows(counter.stream, defaultPk)) {
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
  }
  await flush();
  await ctx.report({ done: rows, total: rows });

  let outputKey = '';
  if (failCount > 0) outputKey = await writeReport(ctx.job.id, services);
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
const writeReport = async (jobId: number, services: Parameters<JobHandler>[0]['services']): Promise<string> => {
  const writer = createSheetWriter(
    services.storage,
    'reports',
    'refused rows',
    ['Row', 'UID', 'MAC', 'PK', 'Reason code', 'Reason', '原因', '原因（繁體）'],
    [8, 28, 22, 24, 18, 32, 24, 24],
  );
  try {
    let after = 0;
    for (;;) {
      const batch = await services.db
        .selectFrom('job_row_error')
        .select(['row_no', 'uid', 'mac', 'pk', 'reason'])
        .where('job_id', '=', jobId)
        .where('row_no', '>', after)
        .orderBy('row_no')
        .limit(5_000)
        .execute();
      for (const r of batch) {
        const text = REASON_TEXT[r.reason as ImportRowReason] ?? [r.reason, r.reason, r.reason];
        writer.addRow([r.row_no, r.uid, r.mac, r.pk, r.reason, ...text]);
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
