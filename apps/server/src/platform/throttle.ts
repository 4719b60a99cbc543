import { sql } from 'kysely';
import type { Config } from '../config.js';
import type { Db } from './db/database.js';
import { nowSeconds } from './time.js';

/**
 * Failed-login throttling per account and per address (CONTRACT §4). Counters live
 * in the database, so every process on it shares them.
 */
export interface Throttle {
  /** Seconds until the bucket may try again, or 0. */
  lockedFor(buckets: string[]): Promise<number>;
  recordFailure(bucket: string, limit: number): Promise<void>;
  reset(bucket: string): Promise<void>;
}

export const createThrottle = (db: Db, config: Config): Throttle => ({
  async lockedFor(buckets) {
    const now = nowSeconds();
    const rows = await db.selectFrom('login_failure').select('locked_until').where('bucket', 'in', buckets).execute();
    const until = Math.max(0, ...rows.map((r) => r.locked_until));
    return until > now ? until - now : 0;
  },
  async recordFailure(bucket, limit) {
    const now = nowSeconds();
    const windowStart = now - config.loginFailureWindowSeconds;
    // One statement: a fresh window restarts the count; reaching the limit sets the lock.
    await sql`
      insert into login_failure (bucket, failures, window_start, locked_until)
      values (${bucket}, 1, ${now}, case when 1 >= ${limit} then ${now + config.loginLockSeconds} else 0 end)
      on conflict (bucket) do update set
        failures = case when login_failure.window_start < ${windowStart} then 1 else login_failure.failures + 1 end,
        window_start = case when login_failure.window_start < ${windowStart} then ${now} else login_failure.window_start end,
        locked_until = case
          when (case when login_failure.window_start < ${windowStart} then 1 else login_failure.failures + 1 end) >= ${limit}
          then ${now + config.loginLockSeconds} else login_failure.locked_until end
    `.execute(db);
  },
  async reset(bucket) {
    await db.deleteFrom('login_failure').where('bucket', '=', bucket).execute();
  },
});
