import { defaultRetryPolicy, nextRetryDelay, retryDelayFor, retrySchedule, totalRetrySpanMs, type RetryPolicy } from './retry-policy';
import type { DeliveryResult } from './types';

const minute = 60_000;
const noJitter: RetryPolicy = { ...defaultRetryPolicy, jitter: 0 };
const failure = (retryable: boolean, retryAfterMs?: number): DeliveryResult => ({
  outcome: 'failed',
  retryable,
  reason: 'x',
  logs: [],
  ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
});

describe('defaultRetryPolicy', () => {
  it('allows 8 attempts', () => {
    expect(defaultRetryPolicy.maxAttempts).toBe(8);
  });

  it('waits 15 s, 30 s, 1, 2, 4, 8 and 15 minutes between them', () => {
    expect(retrySchedule(defaultRetryPolicy)).toEqual([15_000, 30_000, 60_000, 120_000, 240_000, 480_000, 900_000]);
  });

  it('spreads the attempts over about 30 minutes', () => {
    expect(totalRetrySpanMs(defaultRetryPolicy)).toBe(30 * minute + 45_000);
  });

  it('keeps the span between 24 and 34 minutes whatever the jitter draws', () => {
    const span = (r: number) =>
      Array.from({ length: 7 }, (_, i) => nextRetryDelay(defaultRetryPolicy, i + 1, () => r)!).reduce((a, b) => a + b, 0);
    expect(span(0)).toBeGreaterThanOrEqual(24 * minute);
    expect(span(0)).toBeLessThan(25 * minute);
    expect(span(0.999999)).toBeLessThanOrEqual(34 * minute);
    expect(span(0.999999)).toBeGreaterThan(33 * minute);
  });
});

describe('nextRetryDelay', () => {
  it.each([
    [1, 15_000],
    [2, 30_000],
    [3, 60_000],
    [4, 120_000],
    [5, 240_000],
    [6, 480_000],
    [7, 900_000],
  ])('after attempt %i waits %i ms without jitter', (attempt, expected) => {
    expect(nextRetryDelay(noJitter, attempt)).toBe(expected);
  });

  it('doubles until the cap, then stays there', () => {
    const policy: RetryPolicy = { maxAttempts: 20, baseDelayMs: 1000, maxDelayMs: 60_000, jitter: 0 };
    const delays = Array.from({ length: 19 }, (_, i) => nextRetryDelay(policy, i + 1)!);
    for (let i = 1; i < delays.length; i++) {
      expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1]);
      if (delays[i - 1] * 2 <= policy.maxDelayMs) expect(delays[i]).toBe(delays[i - 1] * 2);
    }
    expect(delays.slice(0, 7)).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 60_000]);
    expect(delays.slice(6).every((d) => d === 60_000)).toBe(true);
  });

  it('never exceeds the cap, even at the top of the jitter or far past the doubling range', () => {
    const policy: RetryPolicy = { maxAttempts: 5000, baseDelayMs: 1000, maxDelayMs: 60_000, jitter: 0.5 };
    for (const attempt of [7, 8, 50, 1100, 4999]) expect(nextRetryDelay(policy, attempt, () => 0.999999)).toBe(60_000);
  });

  it.each([0, 0.1, 0.25, 0.5, 0.75, 0.999999])('keeps jitter within ±20 %% of the nominal delay (random = %p)', (r) => {
    for (let attempt = 1; attempt <= 6; attempt++) {
      const nominal = nextRetryDelay(noJitter, attempt)!;
      const delay = nextRetryDelay(defaultRetryPolicy, attempt, () => r)!;
      expect(delay).toBeGreaterThanOrEqual(Math.floor(nominal * 0.8));
      expect(delay).toBeLessThanOrEqual(Math.ceil(nominal * 1.2));
    }
  });

  it('uses the whole jitter range: lowest draw -20 %, middle draw exact, highest draw +20 %', () => {
    expect(nextRetryDelay(defaultRetryPolicy, 3, () => 0)).toBe(48_000);
    expect(nextRetryDelay(defaultRetryPolicy, 3, () => 0.5)).toBe(60_000);
    expect(nextRetryDelay(defaultRetryPolicy, 3, () => 0.999999)).toBe(72_000);
  });

  it('differs between draws, so retries of many messages spread out', () => {
    const draws = new Set([0.1, 0.3, 0.6, 0.9].map((r) => nextRetryDelay(defaultRetryPolicy, 4, () => r)));
    expect(draws.size).toBe(4);
  });

  it('gives up after the last attempt', () => {
    expect(nextRetryDelay(defaultRetryPolicy, 7)).not.toBeNull();
    expect(nextRetryDelay(defaultRetryPolicy, 8)).toBeNull();
    expect(nextRetryDelay(defaultRetryPolicy, 9)).toBeNull();
    expect(nextRetryDelay({ ...defaultRetryPolicy, maxAttempts: 1 }, 1)).toBeNull();
  });

  it('refuses an attempt number that is not a positive integer', () => {
    expect(() => nextRetryDelay(defaultRetryPolicy, 0)).toThrow(RangeError);
    expect(() => nextRetryDelay(defaultRetryPolicy, 1.5)).toThrow(RangeError);
  });
});

describe('retryDelayFor', () => {
  const mid = () => 0.5;

  it('does not retry a success or a permanent failure', () => {
    expect(retryDelayFor(defaultRetryPolicy, 1, { outcome: 'sent', logs: [] }, mid)).toBeNull();
    expect(retryDelayFor(defaultRetryPolicy, 1, failure(false), mid)).toBeNull();
  });

  it('retries a retryable failure after the policy delay', () => {
    expect(retryDelayFor(defaultRetryPolicy, 2, failure(true), mid)).toBe(30_000);
  });

  it('waits at least the Retry-After the provider asked for, but no longer than the cap', () => {
    expect(retryDelayFor(defaultRetryPolicy, 1, failure(true, 120_000), mid)).toBe(120_000);
    expect(retryDelayFor(defaultRetryPolicy, 3, failure(true, 1000), mid)).toBe(60_000);
    expect(retryDelayFor(defaultRetryPolicy, 1, failure(true, 3_600_000), mid)).toBe(900_000);
  });

  it('gives up when the attempts are used up', () => {
    expect(retryDelayFor(defaultRetryPolicy, 8, failure(true, 1000), mid)).toBeNull();
  });
});
