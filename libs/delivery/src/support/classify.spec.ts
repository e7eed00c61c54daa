import { isRetryableStatus, parseRetryAfter } from './classify';

describe('isRetryableStatus', () => {
  it.each([
    [408, true],
    [425, true],
    [429, true],
    [500, true],
    [502, true],
    [503, true],
    [504, true],
    [301, false],
    [400, false],
    [401, false],
    [403, false],
    [404, false],
    [409, false],
    [410, false],
    [413, false],
    [422, false],
  ])('HTTP %i retryable: %p', (status, retryable) => {
    expect(isRetryableStatus(status)).toBe(retryable);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it.each([
    ['120', 120_000],
    ['0', 0],
    ['1.5', 1500],
    ['Thu, 01 Jan 2026 00:00:30 GMT', 30_000],
    ['Wed, 31 Dec 2025 23:59:00 GMT', 0],
  ])('reads %p as %i ms', (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });

  it.each([[undefined], [null], ['soon'], ['-5']])('has nothing to say about %p', (value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined();
  });
});
