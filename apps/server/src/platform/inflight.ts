/**
 * Handlers still running. Fastify's close() waits for open requests, but a handler whose
 * client went away keeps running after its request is closed; shutdown waits for those
 * too before the database closes under them.
 */
export const createInFlight = () => {
  let running = 0;
  let waiters: (() => void)[] = [];
  return {
    async track<T>(work: () => Promise<T>): Promise<T> {
      running++;
      try {
        return await work();
      } finally {
        running--;
        if (running === 0) {
          for (const w of waiters) w();
          waiters = [];
        }
      }
    },
    idle(timeoutMs: number): Promise<void> {
      if (running === 0) return Promise.resolve();
      return new Promise((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
};
export type InFlight = ReturnType<typeof createInFlight>;
