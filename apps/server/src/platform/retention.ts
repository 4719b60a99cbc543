import type { FastifyInstance } from 'fastify';
import type { Services } from './context.js';
import { nowSeconds } from './time.js';
import { pruneTimeline, type TimelineSpec } from './timeline.js';

/** Rows dropped per statement: a slice keeps each delete (and its trigger's fold) short. */
const SLICE = 10_000;

/**
 * Drops every log row older than `LOG_RETENTION_DAYS` from the time-ordered logs (alarm, device
 * and service logs, push records), a slice at a time until none is left; answers rows dropped per
 * table. Counts and deep pages stay exact: the delete trigger folds each slice into `log_day`.
 */
export const pruneLogs = async (services: Services, specs: readonly TimelineSpec[], now = nowSeconds()) => {
  const dropped: Record<string, number> = {};
  const days = services.config.logRetentionDays;
  if (days <= 0) return dropped;
  const before = now - days * 86_400;
  for (const spec of specs) {
    let total = 0;
    for (;;) {
      const n = await pruneTimeline(services.db, spec, before, SLICE);
      total += n;
      if (n < SLICE) break;
    }
    dropped[spec.table] = total;
  }
  return dropped;
};

/** Prunes the logs every `LOG_PRUNE_MS` (first a minute after start), in every process (slices skip each other's rows). */
export const installLogRetention = (app: FastifyInstance, services: Services, specs: readonly TimelineSpec[]) => {
  const every = services.config.logPruneMs;
  if (every <= 0 || services.config.logRetentionDays <= 0) return;
  let timers: NodeJS.Timeout[] = [];
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      const dropped = await pruneLogs(services, specs);
      if (Object.values(dropped).some((n) => n > 0)) app.log.info({ dropped }, 'log retention: old rows dropped');
    } catch (err) {
      app.log.warn({ err }, 'log retention failed');
    } finally {
      running = false;
    }
  };
  app.addHook('onReady', async () => {
    const first = setTimeout(() => void run(), Math.min(every, 60_000));
    const interval = setInterval(() => void run(), every);
    first.unref();
    interval.unref();
    timers = [first, interval];
  });
  app.addHook('onClose', async () => {
    for (const t of timers) clearTimeout(t);
  });
};
