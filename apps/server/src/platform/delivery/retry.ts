/**
 * When to try a failed delivery again. Pure functions: the dispatcher stores the attempt
 * count and the next time on its record and asks here.
 *
 * Delay after the n-th failed attempt (n ≥ 1): base · 2^(n−1), capped at `maxDelayMs`, then
 * lowered by up to `jitterRatio` at random so that messages failing together (a provider
 * outage) do not all come back in the same second. A provider's Retry-After (429) raises
 * the delay to at least what it asked for, within the cap.
 */

export interface RetryPolicy {
  /** Delay after the first failure. */
  baseDelayMs: number;
  /** No delay is longer than this. */
  maxDelayMs: number;
  /** Attempts in all, the first one included. */
  maxAttempts: number;
  /** 0 … 1: the delay is lowered by up to this share at random. */
  jitterRatio: number;
}

/** 30 s, 1 min, 2 min, 4 min between five attempts (each up to 20% sooner). */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = {
  baseDelayMs: 30_000,
  maxDelayMs: 60 * 60_000,
  maxAttempts: 5,
  jitterRatio: 0.2,
};

/** A source of numbers in [0, 1); injectable for tests. */
export type Random = () => number;

/** The delay before the next attempt, after `attempt` attempts have failed (attempt ≥ 1). */
export const retryDelayMs = (
  attempt: number,
  policy: Readonly<RetryPolicy> = DEFAULT_RETRY_POLICY,
  random: Random = Math.random,
  retryAfterMs?: number,
): number => {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError(`attempt must be an integer ≥ 1, got ${attempt}`);
  // 2^(attempt-1) overflows to Infinity for large attempts; the cap holds it.
  const raw = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  const jitter = Math.min(1, Math.max(0, policy.jitterRatio)) * Math.min(1, Math.max(0, random()));
  const delay = Math.round(raw * (1 - jitter));
  return retryAfterMs === undefined ? delay : Math.min(policy.maxDelayMs, Math.max(delay, Math.ceil(retryAfterMs)));
};

export type RetryDecision = { retry: true; delayMs: number; at: Date } | { retry: false; reason: 'delivered' | 'permanent' | 'exhausted' };

/** What a send answered, as far as retrying is concerned (a DeliveryResult fits). */
export type AttemptOutcome = { ok: true } | { ok: false; retryable: boolean; retryAfterMs?: number };

/**
 * After attempt number `attempt` (1 = the first send) answered `outcome`: try again, and when,
 * or stop and why.
 */
export const nextRetry = (
  attempt: number,
  outcome: AttemptOutcome,
  now: Date,
  policy: Readonly<RetryPolicy> = DEFAULT_RETRY_POLICY,
  random: Random = Math.random,
): RetryDecision => {
  if (outcome.ok) return { retry: false, reason: 'delivered' };
  if (!outcome.retryable) return { retry: false, reason: 'permanent' };
  if (attempt >= policy.maxAttempts) return { retry: false, reason: 'exhausted' };
  const delayMs = retryDelayMs(attempt, policy, random, outcome.retryAfterMs);
  return { retry: true, delayMs, at: new Date(now.getTime() + delayMs) };
};
