/**
 * What a fetch step may call and when it tries again. Pure. Which addresses may be called is
 * the outbound client's address policy (libs/outbound), shared by every outbound call.
 */

/** Whether a URL may be fetched at all: http(s) only, no credentials in it. */
export function fetchUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'invalid_url';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `unsupported_scheme:${parsed.protocol.replace(':', '')}`;
  if (parsed.username || parsed.password) return 'credentials_in_url';
  return undefined;
}

/** Network failures, timeouts, 429 and 5xx are worth another attempt; other answers are final. */
export function fetchRetryable(outcome: { status: number } | { networkError: true }): boolean {
  if ('networkError' in outcome) return true;
  return outcome.status === 429 || outcome.status === 408 || outcome.status >= 500;
}

/**
 * When attempt `attempt` (1-based; the one that just failed) is followed by the next: base,
 * doubling each time, capped; a Retry-After the server sent is honoured up to the cap. `jitter`
 * (0..1, from the caller) spreads retries of many runs failing together over +-20%.
 */
export function fetchRetryDelayMs(
  attempt: number,
  options: { baseMs: number; maxMs: number; retryAfterMs?: number | null; jitter?: number },
): number {
  const exponential = options.baseMs * 2 ** Math.max(0, attempt - 1);
  const spread = options.jitter === undefined ? 1 : 0.8 + 0.4 * Math.min(1, Math.max(0, options.jitter));
  const delay = Math.max(exponential * spread, options.retryAfterMs ?? 0);
  return Math.round(Math.min(delay, options.maxMs));
}

/** A Retry-After header (seconds or an HTTP date) in milliseconds from `now`. */
export function parseRetryAfter(value: string | null | undefined, now: Date): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}
