import type { Redis } from 'ioredis';
import { resolveSession } from './auth.js';
import type { Session } from './context.js';
import type { Db } from './db/database.js';

const CHANNEL = 'iot-console:sessions:invalidate';

/**
 * Resolved sessions, kept for `ttlMs` so a list call costs one query instead of two.
 * Every command (add/set/del) and action (logout, password change, …) empties the cache
 * when it ends, in this process at once and, with REDIS_URL, in every process through
 * Redis pub/sub; without Redis, other processes see a change within `ttlMs` at most.
 * A generation number keeps a lookup that raced a change from caching the old answer.
 */
export interface SessionCache {
  resolve(token: string): Promise<Session | null>;
  invalidate(): void;
  close(): Promise<void>;
}

interface Entry {
  session: Session;
  cachedUntil: number;
}

const MAX_ENTRIES = 50_000;

export const createSessionCache = (db: Db, ttlMs: number, redis?: { pub: Redis; sub: Redis }): SessionCache => {
  const entries = new Map<string, Entry>();
  let generation = 0;
  const clearLocal = () => {
    generation++;
    entries.clear();
  };
  if (redis) {
    void redis.sub.subscribe(CHANNEL);
    redis.sub.on('message', (channel) => {
      if (channel === CHANNEL) clearLocal();
    });
  }
  return {
    async resolve(token) {
      const now = Date.now();
      const hit = entries.get(token);
      if (hit && hit.cachedUntil > now && hit.session.validUntil * 1000 > now) return hit.session;
      if (hit) entries.delete(token);
      const started = generation;
      const session = await resolveSession(db, token);
      if (session && ttlMs > 0 && started === generation) {
        if (entries.size >= MAX_ENTRIES) entries.clear();
        entries.set(token, { session, cachedUntil: now + ttlMs });
      }
      return session;
    },
    invalidate() {
      clearLocal();
      if (redis) void redis.pub.publish(CHANNEL, String(process.pid));
    },
    async close() {
      if (redis) {
        redis.sub.disconnect();
        redis.pub.disconnect();
      }
    },
  };
};
