import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { ErrorCode, PING_PATH } from '@iot/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from './config.js';
import { appRoutes } from './modules/app/app.routes.js';
import { appDownloads } from './modules/app/app-download.js';
import { deviceRoutes } from './modules/iot/device.routes.js';
import { liveStream, registerDeviceState } from './modules/iot/device-state.routes.js';
import { installJobs, jobDownloads } from './modules/iot/job-files.js';
import { jobRoutes } from './modules/iot/jobs.routes.js';
import { licenceDownloads, licenceRoutes } from './modules/iot/licence.routes.js';
import { DEVICE_LOGS as DEVICE_LOG_TIMELINE, SERVICE_LOGS as SERVICE_LOG_TIMELINE } from './modules/iot/log.repository.js';
import { logRoutes } from './modules/iot/log.routes.js';
import { productRoutes } from './modules/iot/product.routes.js';
import { registerStats, statsDownloads } from './modules/iot/stats.routes.js';
import { ossDownloads, registerUploads, uploadRoutes } from './modules/oss/upload.routes.js';
import { versionRoutes } from './modules/ota/version.routes.js';
import { installDispatch } from './modules/push/dispatch.job.js';
import { pushRoutes } from './modules/push/push.routes.js';
import { RECORDS as PUSH_RECORD_TIMELINE } from './modules/push/record.repository.js';
import { auditRoutes } from './modules/system/audit.routes.js';
import { resourceRoutes } from './modules/system/resource.routes.js';
import { ALARMS as ALARM_TIMELINE } from './modules/umh/alarm.repository.js';
import { umhDownloads, umhRoutes } from './modules/umh/umh.routes.js';
import { accountRoutes } from './modules/user/account.routes.js';
import { authRoutes } from './modules/user/auth.routes.js';
import { registerBenchRoutes } from './modules/user/bench.routes.js';
import { companyRoutes } from './modules/user/company.routes.js';
import { menuRoutes } from './modules/user/menu.routes.js';
import { roleRoutes } from './modules/user/role.routes.js';
import type { Services } from './platform/context.js';
import type { Database } from './platform/db/database.js';
import { isMigrated } from './platform/db/migrations.js';
import { registerDownloads } from './platform/downloads.js';
import { createInFlight } from './platform/inflight.js';
import { createLoginKeys } from './platform/login-keys.js';
import { buildOpenApi } from './platform/openapi.js';
import { installLogRetention } from './platform/retention.js';
import { createSecretBox, loadSecretKey } from './platform/secrets.js';
import { createSessionCache } from './platform/session-cache.js';
import { createLocalStorage } from './platform/storage.js';
import { createThrottle } from './platform/throttle.js';
import { installErrorHandling, type Route, registerRoutes } from './platform/transport.js';

/** Every module's routes, registered explicitly (STYLE: app.ts lists the modules). */
export const ROUTES: Route[] = [
  ...authRoutes,
  ...accountRoutes,
  ...companyRoutes,
  ...roleRoutes,
  ...menuRoutes,
  ...resourceRoutes,
  ...auditRoutes,
  ...jobRoutes,
  ...deviceRoutes,
  ...productRoutes,
  ...licenceRoutes,
  ...versionRoutes,
  ...uploadRoutes,
  ...pushRoutes,
  ...umhRoutes,
  ...logRoutes,
  ...appRoutes,
];

export interface BuildAppOptions {
  config: Config;
  database: Database;
  /** false silences request logs (tests); a stream captures them. */
  logger?: boolean | { stream: NodeJS.WritableStream };
}

export const buildApp = async ({ config, database, logger = true }: BuildAppOptions): Promise<FastifyInstance> => {
  const app = Fastify({
    logger: logger === false ? false : { level: config.logLevel, ...(typeof logger === 'object' ? { stream: logger.stream } : {}) },
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    requestIdHeader: 'x-request-id',
    genReqId: () => crypto.randomUUID(),
    return503OnClosing: true,
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // Legacy clients post JSON as text/plain or without a type: every body is parsed as JSON
  // (with Fastify's prototype-poisoning checks); an empty body is an empty payload.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(['application/json', '*'], { parseAs: 'string' }, (req, body, done) => {
    if (String(body).trim() === '') return done(null, {});
    parseJson(req, String(body), done);
  });

  const secrets = createSecretBox(loadSecretKey(config.secretKey, config.dataDir));
  const redis = config.redisUrl ? { pub: new Redis(config.redisUrl), sub: new Redis(config.redisUrl) } : undefined;
  const services: Services = {
    config,
    db: database.db,
    secrets,
    loginKeys: createLoginKeys(database.db, secrets),
    throttle: createThrottle(database.db, config),
    sessions: createSessionCache(database.db, config.sessionCacheMs, redis),
    inFlight: createInFlight(),
    storage: createLocalStorage(path.join(config.dataDir, 'files')),
  };
  app.addHook('onClose', async () => {
    await services.inFlight.idle(10_000);
    await services.sessions.close();
  });

  installErrorHandling(app);
  registerRoutes(app, services, ROUTES);
  // Device state: its routes, the heartbeat sweeper and MQTT ingestion.
  const deviceState = registerDeviceState(app, services);
  // Device statistics: its route, rollup folding and online sampling.
  registerStats(app, services);
  // Imports and exports: the background job runner.
  installJobs(app, services);
  installDispatch(app, services);
  // Old log lines and push records go after LOG_RETENTION_DAYS.
  installLogRetention(app, services, [ALARM_TIMELINE, DEVICE_LOG_TIMELINE, SERVICE_LOG_TIMELINE, PUSH_RECORD_TIMELINE]);
  // Every GET download and the live stream (SSE), declared in the contract's DOWNLOADS.
  registerDownloads(app, services, [
    ...jobDownloads,
    ...statsDownloads,
    ...licenceDownloads,
    ...umhDownloads,
    ...ossDownloads,
    ...appDownloads,
    liveStream(deviceState),
  ]);
  // Multipart uploads and file PUTs: their own body parsers, the same authentication.
  await app.register(registerUploads(services));

  app.get('/api/health', async () => ({ code: ErrorCode.OK, data: { status: 'up' } }));
  app.get('/api/ready', async (_request, reply) => {
    try {
      const ready = await isMigrated(database.db);
      return reply.status(ready ? 200 : 503).send({ code: ready ? 200 : 500, data: { database: database.kind, migrated: ready } });
    } catch {
      return reply.status(503).send({ code: 500, data: { database: database.kind, migrated: false } });
    }
  });
  const openapi = buildOpenApi();
  app.get('/api/openapi.json', async () => openapi);
  // No token, no database: the ceiling the benchmark compares lists against.
  app.post(`/api/${PING_PATH}`, async () => ({ code: ErrorCode.OK, data: { pong: true } }));
  // The list's honest ceiling: its SQL alone (BENCH_BARE_ROUTES=1, set only by `npm run bench`).
  if (config.benchBareRoutes) registerBenchRoutes(app, services);

  if (config.webDir && fs.existsSync(path.join(config.webDir, 'index.html'))) {
    await app.register(fastifyStatic, { root: config.webDir, preCompressed: true, wildcard: false, index: false });
    const indexHtml = fs.readFileSync(path.join(config.webDir, 'index.html'), 'utf8');
    // History-mode routes: every GET outside /api and the assets answers the console.
    app.get('/*', async (request, reply) => {
      if (request.url.startsWith('/api/')) {
        return reply.status(404).send({ code: ErrorCode.NOT_FOUND_PATH, data: null, msg: 'Unknown API path' });
      }
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml);
    });
    app.get('/', async (_request, reply) => reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml));
  }
  return app;
};
