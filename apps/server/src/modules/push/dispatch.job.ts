import type { FastifyInstance } from 'fastify';
import type { Services } from '../../platform/context.js';
import type { JobHandler } from '../../platform/jobs.js';
import { kickJobs } from '../../platform/jobs.js';
import { nowSeconds } from '../../platform/time.js';
import { installAlarmPushes } from './alarm-push.js';
import { closeProviders, dispatchDue } from './dispatch.service.js';
import { nextDue, queueDispatchJob } from './record.repository.js';

/** The dispatcher's job: sends what is due, until nothing is (retries later come back through the sweep). */
export const pushDispatchHandler: JobHandler = async (ctx) => {
  const handled = await dispatchDue(ctx.services, { stop: ctx.isStopping });
  return { done: handled, total: handled, ok_count: handled };
};

/**
 * Retries come due while no job runs: every `PUSH_SWEEP_MS` a look for due records queues a
 * dispatch job when one is due. Providers' pooled connections close with the app.
 */
export const installDispatch = (app: FastifyInstance, services: Services) => {
  installAlarmPushes();
  const every = services.config.pushSweepMs;
  let timer: NodeJS.Timeout | null = null;
  const sweep = async () => {
    try {
      const at = await nextDue(services.db);
      if (at !== null && at <= nowSeconds()) {
        await queueDispatchJob(services.db, nowSeconds());
        kickJobs(services);
      }
    } catch (err) {
      app.log.warn({ err }, 'push sweep failed');
    }
  };
  if (every > 0) {
    app.addHook('onReady', async () => {
      timer = setInterval(() => void sweep(), every);
      timer.unref();
    });
  }
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    await closeProviders(services);
  });
};
