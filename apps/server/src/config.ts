import path from 'node:path';

/** Server configuration from the environment (CONTRACT §6, plus our own limits). */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  adminPassword: string | undefined;
  redisUrl: string | undefined;
  secretKey: string | undefined;
  /** Directory of the built web console; served on `/` when it exists. */
  webDir: string | undefined;
  bodyLimit: number;
  tokenTtlSeconds: number;
  /** Failed logins per account (and per address) before a cool-down. */
  loginMaxFailuresAccount: number;
  loginMaxFailuresAddress: number;
  loginFailureWindowSeconds: number;
  loginLockSeconds: number;
  logLevel: string;
  /** Trust X-Forwarded-For (behind a load balancer). */
  trustProxy: boolean;
  /** How long a resolved session is reused; commands clear it (and, with Redis, everywhere). */
  sessionCacheMs: number;
  /** Background job runners in this process (imports, exports); 0 leaves jobs to other processes. */
  jobWorkers: number;
  /** How often due push retries are looked for (ms); 0: never (tests drive the dispatcher). */
  pushSweepMs: number;
  /** V8 heap growing factor 1 + p/100 (platform/heap.ts); 0 = V8's own, up to 4× the live heap. */
  heapGrowingPercent: number;
  /** Largest file `v2/oss/upload` and put URLs accept (bytes); larger answers 413. */
  uploadLimit: number;
  /** Key the device side sends in `X-Service-Key` to ingest state events; unset: ingestion answers 401. */
  ingestServiceKey: string | undefined;
  /** A device silent this long is marked offline (reason: heartbeat timeout). */
  heartbeatTimeoutSeconds: number;
  /** Device state history kept this many days (pruned by the heartbeat sweeper). */
  deviceEventRetentionDays: number;
  /** Alarm, device and service log lines and push records kept this many days (platform/retention.ts); 0 keeps all. */
  logRetentionDays: number;
  /** How often the logs are pruned (ms); 0: never in this process. */
  logPruneMs: number;
  /** `mqtt://…`: also ingest state events published on `mqttTopic`. */
  mqttUrl: string | undefined;
  mqttTopic: string;
  /** Online devices are sampled into the statistics this often (seconds) and at start; 0 stops sampling. */
  statsSampleSeconds: number;
  /** Statistics trigger deltas are folded into the rollups this often (ms; reads fold first anyway); 0 stops. */
  statsFoldMs: number;
  /** Check every answer against its path's output schema (tests; a mismatch is a logged 500). */
  checkAnswers: boolean;
  /** Register the benchmark's bare list route (no token!): only the benchmark's server sets BENCH_BARE_ROUTES=1. */
  benchBareRoutes: boolean;
}

const intEnv = (env: NodeJS.ProcessEnv, name: string, fallback: number): number => {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
};

export const loadConfig = (env: NodeJS.ProcessEnv = process.env): Config => ({
  port: intEnv(env, 'PORT', 8080),
  host: env.HOST || '127.0.0.1',
  databaseUrl: env.DATABASE_URL || undefined,
  dataDir: path.resolve(env.DATA_DIR || './data'),
  adminPassword: env.ADMIN_PASSWORD || undefined,
  redisUrl: env.REDIS_URL || undefined,
  secretKey: env.SECRET_KEY || undefined,
  webDir: env.WEB_DIR === '' ? undefined : path.resolve(env.WEB_DIR || path.join(import.meta.dirname, '../../web/dist')),
  bodyLimit: intEnv(env, 'BODY_LIMIT', 1024 * 1024),
  tokenTtlSeconds: intEnv(env, 'TOKEN_TTL_SECONDS', 7 * 24 * 3600),
  loginMaxFailuresAccount: intEnv(env, 'LOGIN_MAX_FAILURES_ACCOUNT', 5),
  loginMaxFailuresAddress: intEnv(env, 'LOGIN_MAX_FAILURES_ADDRESS', 20),
  loginFailureWindowSeconds: intEnv(env, 'LOGIN_FAILURE_WINDOW_SECONDS', 900),
  loginLockSeconds: intEnv(env, 'LOGIN_LOCK_SECONDS', 900),
  logLevel: env.LOG_LEVEL || 'info',
  trustProxy: env.TRUST_PROXY === '1' || env.TRUST_PROXY === 'true',
  sessionCacheMs: intEnv(env, 'SESSION_CACHE_MS', 5_000),
  jobWorkers: intEnv(env, 'JOB_WORKERS', 1),
  pushSweepMs: intEnv(env, 'PUSH_SWEEP_MS', 10_000),
  heapGrowingPercent: intEnv(env, 'HEAP_GROWING_PERCENT', 50),
  uploadLimit: intEnv(env, 'UPLOAD_LIMIT', 10 * 1024 * 1024),
  ingestServiceKey: env.INGEST_SERVICE_KEY === 'off' ? undefined : env.INGEST_SERVICE_KEY || undefined,
  heartbeatTimeoutSeconds: intEnv(env, 'HEARTBEAT_TIMEOUT_SECONDS', 90),
  deviceEventRetentionDays: intEnv(env, 'DEVICE_EVENT_RETENTION_DAYS', 30),
  logRetentionDays: intEnv(env, 'LOG_RETENTION_DAYS', 180),
  logPruneMs: intEnv(env, 'LOG_PRUNE_MS', 3_600_000),
  mqttUrl: env.MQTT_URL || undefined,
  mqttTopic: env.MQTT_TOPIC || '$share/iot-console/devices/+/events',
  statsSampleSeconds: intEnv(env, 'STATS_SAMPLE_SECONDS', 300),
  statsFoldMs: intEnv(env, 'STATS_FOLD_MS', 2000),
  checkAnswers: env.CHECK_ANSWERS === '1',
  benchBareRoutes: env.BENCH_BARE_ROUTES === '1',
});
