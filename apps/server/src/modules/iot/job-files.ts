import { errorMessages } from '@iot/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Services } from '../../platform/context.js';
import { attachRunner, createJobRunner, type JobRunnerOptions } from '../../platform/jobs.js';
import { inScope, scopeOf } from '../../platform/scope.js';
import { exportHandler } from './device-export.job.js';
import { deviceImportHandler } from './device-import.job.js';
import { downloadNameOf, isTicketFor } from './job.repository.js';
import { buildImportTemplate } from './xlsx.js';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Menus that may download each kind's files (as for its list). */
const KIND_MENUS: Record<string, string[]> = {
  device_import: ['product/device'],
  device_export: ['product/device'],
  state_export: ['product/device_state'],
};

export const JOB_HANDLERS = {
  device_import: deviceImportHandler,
  device_export: exportHandler('device_export'),
  state_export: exportHandler('state_export'),
};

const servicesByApp = new WeakMap<FastifyInstance, Services>();
/** The services of an app (tests run their own job runners, e.g. to simulate a crash). */
export const jobServicesOf = (app: FastifyInstance): Services => {
  const services = servicesByApp.get(app);
  if (!services) throw new Error('installJobs was not called on this app');
  return services;
};

const refuse = (reply: FastifyReply, code: 401 | 406 | 513) =>
  reply.status(code === 406 ? 404 : code).send({ code, data: null, msg: code === 406 ? 'file does not exist' : errorMessages[code] });

/**
 * The GET side of the jobs: the import template, and a job's file (import report or
 * export) for a caller who may see the job (token in `Authorization`) or who holds the
 * ticket its list row carried (browser downloads). Also starts the in-process runner
 * (`JOB_WORKERS` 0 leaves jobs to other processes) and stops it on close.
 */
export const installJobs = (app: FastifyInstance, services: Services, runnerOptions: Partial<JobRunnerOptions> = {}) => {
  servicesByApp.set(app, services);
  let template: Buffer | null = null;
  app.get('/api/v2/iot/import/template.xlsx', async (_request, reply) => {
    template ??= await buildImportTemplate();
    return reply.type(XLSX_TYPE).header('content-disposition', 'attachment; filename="device-import-template.xlsx"').send(template);
  });

  app.get<{ Params: { id: string; name: string }; Querystring: { ticket?: string } }>(
    '/api/v2/iot/file/:id/:name',
    async (request, reply) => {
      const id = Number(request.params.id);
      if (!Number.isInteger(id) || id <= 0) return refuse(reply, 406);
      const job = await services.db
        .selectFrom('job')
        .select(['id', 'kind', 'comp_id', 'state', 'output_key'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (job?.state !== 'done' || !job.output_key || request.params.name !== downloadNameOf(job.kind)) return refuse(reply, 406);
      const ticket = request.query.ticket;
      if (!(ticket && isTicketFor(services, ticket, id))) {
        const header = request.headers.authorization;
        const token = header?.replace(/^Bearer\s+/i, '').trim();
        const session = token ? await services.sessions.resolve(token) : null;
        if (!session) return refuse(reply, 401);
        const menus = KIND_MENUS[job.kind] ?? [];
        if (!session.isSuper && !menus.some((m) => session.menuKeys.has(m))) return refuse(reply, 513);
        const visible = await services.db
          .selectFrom('job')
          .select('id')
          .where('id', '=', id)
          .where(inScope(scopeOf(session), 'comp_id'))
          .executeTakeFirst();
        if (!visible) return refuse(reply, 406);
      }
      const stream = await services.storage.open(job.output_key);
      if (!stream) return refuse(reply, 406);
      const size = await services.storage.size(job.output_key);
      if (size !== null) reply.header('content-length', size);
      return reply
        .type(XLSX_TYPE)
        .header('cache-control', 'private, no-store')
        .header('content-disposition', `attachment; filename="${job.kind}-${id}.xlsx"`)
        .send(stream);
    },
  );

  if (services.config.jobWorkers > 0) {
    const runner = createJobRunner({ services, handlers: JOB_HANDLERS, log: app.log, ...runnerOptions });
    attachRunner(services, runner);
    app.addHook('onReady', async () => runner.start());
    // Before the database closes: stop claiming, let the current chunk commit, hand the job back.
    app.addHook('preClose', async () => runner.stop());
  }
};
