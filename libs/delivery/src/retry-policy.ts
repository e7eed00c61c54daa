import type { DeliveryResult } from './types';

export interface RetryPolicy {
  /** Attempts in total, the first one included. */
  maxAttempts: number;
  /** The delay after the first failed attempt, before jitter. */
  baseDelayMs: number;
  /** No delay exceeds this, jitter included. */
  maxDelayMs: number;
  /** Fraction of the delay added or taken away at random: 0.2 spreads a delay over ±20 %. */
  jitter: number;
}

/**
 * 8 attempts; the 7 waits between them double from 15 s and the last is capped at 15 min:
 * 15 s, 30 s, 1 min, 2 min, 4 min, 8 min, 15 min = 30 min 45 s before jitter (see ADR 0061).
 */
export const defaultRetryPolicy: RetryPolicy = Object.freeze({
  maxAttempts: 8,
  baseDelayMs: 15_000,
  maxDelayMs: 15 * 60_000,
  jitter: 0.2,
});

/**
 * How long to wait after failed attempt `attempt` (1-based) before the next one, or null when
 * that was the last attempt the policy allows. Pure: `random` (default Math.random) is the
 * only source of variation, and must return a number in [0, 1).
 */
export function nextRetryDelay(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number | null {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError(`attempt must be a positive integer, got ${attempt}`);
  if (attempt >= policy.maxAttempts) return null;
  const nominal = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  const factor = 1 + policy.jitter * (2 * random() - 1);
  return Math.max(0, Math.min(policy.maxDelayMs, Math.round(nominal * factor)));
}

/** The waits between attempts without jitter: `maxAttempts - 1` entries. */
export function retrySchedule(policy: RetryPolicy): number[] {
  const delays: number[] = [];
  for (let attempt = 1; attempt < policy.maxAttempts; attempt++) delays.push(nextRetryDelay(policy, attempt, () => 0.5)!);
  return delays;
}

/** Time from the first attempt to the last one, without jitter. */
export function totalRetrySpanMs(policy: RetryPolicy): number {
  return retrySchedule(policy).reduce((sum, delay) => sum + delay, 0);
}

/**
 * The wait before retrying after `result` of attempt `attempt`, or null when the message should
 * not be retried (delivered, permanent failure, or attempts exhausted). A provider's Retry-After
 * lengthens the wait but never beyond the policy's `maxDelayMs`.
 */
export function retryDelayFor(
  policy: RetryPolicy,
  attempt: number,
  result: DeliveryResult,
  random: () => number = Math.random,
): number | null {
  if (result.outcome !== 'failed' || !result.retryable) return null;
  const delay = nextRetryDelay(policy, attempt, random);
  if (delay === null) return null;
  return Math.min(policy.maxDelayMs, Math.max(delay, result.retryAfterMs ?? 0));
}
