import { exportLabelsOf, type LogExportAddInput, requestLanguage } from '@iot/contract';
import { type JobHandler, JobInterrupted } from '../../platform/jobs.js';
import { countLogExport, deviceIdOfUid, type LogExportFilter, logExportBatch } from './log.repository.js';
import { createSheetWriter } from './xlsx.js';

/** Rows fetched per keyset batch. */
const BATCH = 5_000;

const iso = (unix: number) => new Date(unix * 1000).toISOString().replace('.000Z', 'Z');

/**
 * `log_export`: the device log lines matching the list's filters (in the creator's scope, a
 * range of at most three months, checked when it was added) written newest first with the
 * streaming .xlsx writer from keyset batches on (ts, id). Interrupted, it starts over (the file
 * is stored only when complete).
 */
export const logExportHandler: JobHandler = async (ctx) => {
  const { job, services } = ctx;
  const labels = exportLabelsOf(requestLanguage(job.params.lang)).logExport;
  const params = job.params as LogExportAddInput;
  const filter: LogExportFilter = {
    gmt_start: params.gmt_start,
    gmt_end: params.gmt_end,
    level: params.level,
    comp_id: params.comp_id,
    ...(params.uid ? { deviceId: await deviceIdOfUid(services.db, params.uid) } : {}),
  };
  const total = await countLogExport(services.db, job.scope, filter);
  await ctx.report({ total, done: 0 });
  const c = labels.columns;
  const writer = createSheetWriter(
    services.storage,
    'exports',
    labels.sheet,
    [c.id, c.ts, c.uid, c.comp_name, c.level, c.text],
    [12, 22, 28, 24, 10, 80],
  );
  let done = 0;
  try {
    let after: { ts: number; id: number } | null = null;
    for (;;) {
      const batch = await logExportBatch(services.db, job.scope, filter, after, BATCH);
      for (const r of batch) writer.addRow([r.id, iso(r.ts), r.uid, r.comp_name ?? '', labels.levels[r.level] ?? String(r.level), r.text]);
      done += batch.length;
      const last = batch.at(-1);
      if (batch.length < BATCH || !last) break;
      after = { ts: last.ts, id: last.id };
      await ctx.report({ done, total: Math.max(total, done) });
      if (ctx.isStopping()) throw new JobInterrupted();
    }
    const key = await writer.finish();
    return { done, total: done, ok_count: done, output_key: key };
  } catch (err) {
    await writer.abort();
    throw err;
  }
};
