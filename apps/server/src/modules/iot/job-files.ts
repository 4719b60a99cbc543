import { DOWNLOADS, JOB_FILE_DOWNLOADS, type JobKind } from '@iot/contract';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../platform/context.js';
import { type Download, download } from '../../platform/downloads.js';
import { notFound } from '../../platform/errors.js';
import { attachRunner, createJobRunner, type JobRunnerOptions } from '../../platform/jobs.js';
import { pushDispatchHandler } from '../push/dispatch.job.js';
import { exportHandler } from './device-export.job.js';
import { deviceImportHandler } from './device-import.job.js';
import { findJobInScope } from './job.repository.js';
import { logExportHandler } from './log-export.job.js';
import { buildImportTemplate } from './xlsx.js';

export const JOB_HANDLERS = {
  device_import: deviceImportHandler,
  device_export: exportHandler('device_export'),
  state_export: exportHandler('state_export'),
  push_dispatch: pushDispatchHandler,
  log_export: logExportHandler,
};

const servicesByApp = new WeakMap<FastifyInstance, Services>();
/** The services of an app (tests run their own job runners, e.g. to simulate a crash). */
export const jobServicesOf = (app: FastifyInstance): Services => {
  const services = servicesByApp.get(app);
  if (!services) throw new Error('installJobs was not called on this app');
  return services;
};

/**
 * A finished job's file (import report or export), one declared download per kind so each
 * carries its list's menus: found by id in the caller's scope, or the one job a ticket of its
 * list row names (platform/download-ticket.ts).
 */
const jobFile = (kind: JobKind): Download =>
  download(JOB_FILE_DOWNLOADS[kind], async (ctx, input) => {
    const job = await findJobInScope(ctx.conn, ctx.scope, kind, input.id);
    const stream = job?.state === 'done' && job.output_key ? await ctx.services.storage.open(job.output_key) : null;
    if (!job || !stream) throw notFound('file');
    return { body: stream, size: await ctx.services.storage.size(job.output_key), name: `${kind}-${job.id}.xlsx` };
  });

let template: Buffer | null = null;

/** The GET side of the jobs: the import template and the jobs' files. */
export const jobDownloads: Download[] = [
  download(DOWNLOADS.importTemplate, async () => {
    template ??= await buildImportTemplate();
    return { body: template, name: 'device-import-template.xlsx' };
  }),
  jobFile('device_import'),
  jobFile('device_export'),
  jobFile('state_export'),
  jobFile('log_export'),
];

/**
 * The background job runner in this process (`JOB_WORKERS` 0 leaves jobs to other
 * processes), started when the app is ready and stopped on close.
 */
export const installJobs = (app: FastifyInstance, services: Services, runnerOptions: Partial<JobRunnerOptions> = {}) => {
  servicesByApp.set(app, services);
  if (services.config.jobWorkers > 0) {
    const runner = createJobRunner({ services, handlers: JOB_HANDLERS, log: app.log, ...runnerOptions });
    attachRunner(services, runner);
    app.addHook('onReady', async () => runner.start());
    // Before the database closes: stop claiming, let the current chunk commit, hand the job back.
    app.addHook('preClose', async () => runner.stop());
  }
};
