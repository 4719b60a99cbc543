import { type DeviceFilter, type ExportLabels, exportLabelsOf, type Language, requestLanguage } from '@iot/contract';
import { JobFailure, type JobHandler, JobInterrupted } from '../../platform/jobs.js';
import { countFilteredDevices, type ExportRow, exportBatch } from './device.repository.js';
import { createSheetWriter } from './xlsx.js';

/** Rows fetched per keyset batch. */
const BATCH = 5_000;

const iso = (unix: number | null | undefined) => (unix ? new Date(unix * 1000).toISOString().replace('.000Z', 'Z') : '');

type Row = (r: ExportRow) => unknown;
/** Each file's columns in order: width and cell; headers from the label catalogue (same keys). */
const DEVICE_COLUMNS = {
  id: [10, (r) => r.id],
  uid: [28, (r) => r.uid],
  mac: [20, (r) => r.mac],
  pk: [24, (r) => r.pk],
  comp_id: [10, (r) => r.comp_id],
  comp_name: [24, (r) => r.comp_name ?? ''],
  gmt_create: [22, (r) => iso(r.gmt_create)],
  online: [8, (r) => r.online ?? 0],
  active: [8, (r) => r.active ?? 0],
} satisfies Record<keyof ExportLabels['deviceExport']['columns'], [number, Row]>;
const STATE_COLUMNS = {
  id: [10, (r) => r.id],
  uid: [28, (r) => r.uid],
  pk: [24, (r) => r.pk],
  comp_name: [24, (r) => r.comp_name ?? ''],
  online: [8, (r) => r.online ?? 0],
  active: [8, (r) => r.active ?? 0],
  network_type: [12, (r) => r.network_type ?? 0],
  vendor: [16, (r) => r.vendor ?? ''],
  protocol: [12, (r) => r.protocol ?? ''],
  last_online: [22, (r) => iso(r.last_online)],
  last_offline: [22, (r) => iso(r.last_offline)],
  last_seen: [22, (r) => iso(r.last_seen)],
  offline_reason: [12, (r) => r.offline_reason ?? 0],
  country: [10, (r) => r.country ?? ''],
} satisfies Record<keyof ExportLabels['stateExport']['columns'], [number, Row]>;

/** Sheet name, header in the job's language (recorded when it was added), widths and cells, in column order. */
const layoutOf = (kind: 'device_export' | 'state_export', lang: Language) => {
  const labels = kind === 'device_export' ? exportLabelsOf(lang).deviceExport : exportLabelsOf(lang).stateExport;
  const columns: [string, [number, Row]][] = Object.entries(kind === 'device_export' ? DEVICE_COLUMNS : STATE_COLUMNS);
  const names = labels.columns as Record<string, string>;
  return {
    sheet: labels.sheet,
    header: columns.map(([key]) => names[key] ?? key),
    widths: columns.map(([, [width]]) => width),
    row: (r: ExportRow) => columns.map(([, [, cell]]) => cell(r)),
  };
};

/**
 * `device_export` / `state_export`: the devices matching the list's filters (in the
 * creator's scope, registration range of at most three months) written with a streaming
 * .xlsx writer from keyset batches. Interrupted, it starts over (the file is written
 * elsewhere and stored only when complete).
 */
export const exportHandler =
  (kind: 'device_export' | 'state_export'): JobHandler =>
  async (ctx) => {
    const { job, services } = ctx;
    const layout = layoutOf(kind, requestLanguage(job.params.lang));
    const filter = job.params as DeviceFilter;
    const total = await countFilteredDevices(services.db, job.scope, filter);
    await ctx.report({ total, done: 0 });
    const writer = createSheetWriter(services.storage, 'exports', layout.sheet, layout.header, layout.widths);
    let done = 0;
    try {
      let after: { time: number; id: number } | null = null;
      for (;;) {
        const batch = await exportBatch(services.db, job.scope, filter, after, BATCH);
        for (const r of batch) writer.addRow(layout.row(r));
        done += batch.length;
        if (batch.length < BATCH) break;
        const last = batch[batch.length - 1] as ExportRow;
        after = { time: Number(last.gmt_create), id: Number(last.id) };
        await ctx.report({ done, total: Math.max(total, done) });
        if (ctx.isStopping()) throw new JobInterrupted();
      }
      const key = await writer.finish();
      return { done, total: done, ok_count: done, output_key: key };
    } catch (err) {
      await writer.abort();
      if (err instanceof JobInterrupted || err instanceof JobFailure) throw err;
      throw err;
    }
  };
