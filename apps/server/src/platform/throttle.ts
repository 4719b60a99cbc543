import { sql } from 'kysely';
import type { Config } from '../config.js';
import type { Db } from './db/database.js';
import { nowSeconds } from './time.js';

/** A counter of failed logins and the number it may reach within the window. */
export interface ThrottleBucket {
  bucket: string;
  limit: number;
}

/**
 * Failed-login throttling per account and per address (CONTRACT §4). Counters live in the
 * database, so every process on it shares them.
 *
 * An attempt is counted before its password is checked, in one statement per bucket that
 * also says whether the count was still within the limit: N simultaneous wrong attempts
 * cannot all pass a check made before any of them is recorded. A success gives its
 * attempt back.
 */
export interface Throttle {
  /**
   * Counts one attempt in every bucket. Answers 0 when all had room (the attempt goes on and
   * stays counted as a failure unless `succeeded` follows), or the seconds until the locked
   * bucket frees (the attempt is then not counted in the other buckets).
   */
  reserve(buckets: ThrottleBucket[]): Promise<number>;
  /** A successful login: clears `clear` (the account) and gives back the attempt counted in `release`. */
  succeeded(clear: string, release: ThrottleBucket[]): Promise<void>;
  /** Deletes counters whose window and lock have both passed; answers how many. */
  sweep(): Promise<number>;
}

/** Expired counters are deleted by the login path at most this often per process. */
const SWEEP_INTERVAL_SECONDS = 60;

export const createThrottle = (db: Db, config: Config): Throttle => {
  let lastSweep = 0;

  /**
   * One attempt in one bucket, atomically (the row is locked by the upsert): while locked the
   * count only grows past the limit; a passed window or a passed lock starts a new count;
   * reaching the limit locks the bucket. Answers the new count and the lock's end.
   */
  const count = async ({ bucket, limit }: ThrottleBucket, now: number) => {
    const windowStart = now - config.loginFailureWindowSeconds;
    const lockEnd = now + config.loginLockSeconds;
    const fresh = sql`(f.window_start < ${windowStart} or f.locked_until > 0)`;
    const { rows } = await sql<{ failures: number; locked_until: number | string }>`
      insert into login_failure as f (bucket, failures, window_start, locked_until)
      values (${bucket}, 1, ${now}, case when 1 >= ${limit} then ${lockEnd} else 0 end)
      on conflict (bucket) do update set
        failures = case
          when f.locked_until > ${now} then greatest(f.failures, ${limit}) + 1
          when ${fresh} then 1
          else f.failures + 1 end,
        window_start = case when f.locked_until <= ${now} and ${fresh} then ${now} else f.window_start end,
        locked_until = case
          when f.locked_until > ${now} then f.locked_until
          when (case when ${fresh} then 1 else f.failures + 1 end) >= ${limit} then ${lockEnd}
          else 0 end
      returning failures, locked_until
    `.execute(db);
    const row = rows[0];
    if (!row) throw new Error(`login_failure upsert answered no row for ${bucket}`);
    return { allowed: row.failures <= limit, lockedUntil: Number(row.locked_until) };
  };

  /** Gives one counted attempt back; the lock goes when the count falls below the limit again. */
  const release = async ({ bucket, limit }: ThrottleBucket) => {
    await sql`
      update login_failure set
        failures = greatest(failures - 1, 0),
        locked_until = case when failures - 1 < ${limit} then 0 else locked_until end
      where bucket = ${bucket}
    `.execute(db);
  };

  const sweep = async () => {
    const now = nowSeconds();
    const result = await db
      .deleteFrom('login_failure')
      .where('window_start', '<', now - config.loginFailureWindowSeconds)
      .where('locked_until', '<=', now)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  };

  return {
    async reserve(buckets) {
      const now = nowSeconds();
      if (now - lastSweep >= SWEEP_INTERVAL_SECONDS) {
        lastSweep = now;
        await sweep();
      }
      const counted: ThrottleBucket[] = [];
      for (const b of buckets) {
        const { allowed, lockedUntil } = await count(b, now);
        if (!allowed) {
          for (const c of counted) await release(c);
          return Math.max(1, lockedUntil - now);
        }
        counted.push(b);
      }
      return 0;
    },
    async succeeded(clear, releaseBuckets) {
      await db.deleteFrom('login_failure').where('bucket', '=', clear).execute();
      for (const b of releaseBuckets) await release(b);
    },
    sweep,
  };
};
