import crypto from 'node:crypto';
import { Redis } from 'ioredis';

/**
 * Live events for open consoles. Listeners in this process get every published message at
 * once; with REDIS_URL the message also goes through Redis pub/sub to every other process
 * (each process ignores its own copy), so a console connected to process B sees a change
 * ingested by process A.
 */
export interface LiveBus<T> {
  publish(message: T): void;
  subscribe(listener: (message: T) => void): () => void;
  close(): Promise<void>;
}

export const createLiveBus = <T>(channel: string, redisUrl: string | undefined, onError?: (err: unknown) => void): LiveBus<T> => {
  const origin = crypto.randomUUID();
  const listeners = new Set<(message: T) => void>();
  const deliver = (message: T) => {
    for (const listener of listeners) {
      try {
        listener(message);
      } catch (err) {
        onError?.(err);
      }
    }
  };
  // Two connections: a subscribed Redis connection can do nothing but listen.
  const pub = redisUrl ? new Redis(redisUrl) : null;
  const sub = redisUrl ? new Redis(redisUrl) : null;
  if (pub && sub) {
    pub.on('error', (err) => onError?.(err));
    sub.on('error', (err) => onError?.(err));
    void sub.subscribe(channel);
    sub.on('message', (ch: string, raw: string) => {
      if (ch !== channel) return;
      try {
        const envelope = JSON.parse(raw) as { origin: string; message: T };
        if (envelope.origin !== origin) deliver(envelope.message);
      } catch (err) {
        onError?.(err);
      }
    });
  }
  return {
    publish(message) {
      deliver(message);
      if (pub) void pub.publish(channel, JSON.stringify({ origin, message })).catch((err: unknown) => onError?.(err));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      listeners.clear();
      sub?.disconnect();
      pub?.disconnect();
    },
  };
};
