import { fetchRetryable, fetchRetryDelayMs, fetchUrlProblem, parseRetryAfter } from './fetch-policy';

describe('fetchUrlProblem', () => {
  it('accepts http and https URLs only, without credentials', () => {
    expect(fetchUrlProblem('https://api.example.com/x?y=1')).toBeUndefined();
    expect(fetchUrlProblem('http://127.0.0.1:8080/')).toBeUndefined();
    expect(fetchUrlProblem('file:///etc/passwd')).toBe('unsupported_scheme:file');
    expect(fetchUrlProblem('ftp://example.com')).toBe('unsupported_scheme:ftp');
    expect(fetchUrlProblem('https://user:pw@example.com')).toBe('credentials_in_url');
    expect(fetchUrlProblem('not a url')).toBe('invalid_url');
  });
});

describe('fetch retries', () => {
  it('retries network failures, timeouts, 429 and 5xx only', () => {
    expect(fetchRetryable({ networkError: true })).toBe(true);
    expect([429, 408, 500, 502, 503].every((status) => fetchRetryable({ status }))).toBe(true);
    expect([400, 401, 403, 404, 422].some((status) => fetchRetryable({ status }))).toBe(false);
  });

  it('doubles the delay per attempt up to the cap, honouring Retry-After', () => {
    const opts = { baseMs: 1000, maxMs: 60_000 };
    expect([1, 2, 3, 4].map((a) => fetchRetryDelayMs(a, opts))).toEqual([1000, 2000, 4000, 8000]);
    expect(fetchRetryDelayMs(10, opts)).toBe(60_000);
    expect(fetchRetryDelayMs(1, { ...opts, retryAfterMs: 30_000 })).toBe(30_000);
    expect(fetchRetryDelayMs(1, { ...opts, retryAfterMs: 3_600_000 })).toBe(60_000);
    expect(fetchRetryDelayMs(2, { ...opts, jitter: 0 })).toBe(1600);
    expect(fetchRetryDelayMs(2, { ...opts, jitter: 1 })).toBe(2400);
  });

  it('reads Retry-After as seconds or a date', () => {
    const now = new Date('2026-03-02T10:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Mon, 02 Mar 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});
