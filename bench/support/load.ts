import { Pool } from 'undici';
/** Percentile of a list of numbers (nearest rank). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/**
 * Calls `fire(i)` at a fixed rate for `seconds`, without waiting for earlier calls (an open
 * loop, as real traffic is). Resolves when every call has settled.
 */
export async function atRate(
  rate: number,
  seconds: number,
  fire: (i: number) => Promise<void>,
): Promise<{ sent: number; errors: number; elapsedMs: number; failures: string }> {
  const total = Math.round(rate * seconds);
  const started = performance.now();
  const pending: Promise<void>[] = [];
  const failures = new Failures();
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    pending.push(fire(i).catch((error: unknown) => failures.add(error)));
  }
  await Promise.all(pending);
  return { sent: total, errors: failures.count, elapsedMs: performance.now() - started, failures: failures.summary() };
}

export async function until<T>(probe: () => Promise<T | undefined | false>, timeoutMs: number, everyMs = 20): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) return undefined;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * Polls `count` until it reaches `target`; answers when (Date.now()), or undefined after
 * `timeoutMs`. A count over a growing read model costs the database more with every row (100,000
 * rows: tens of milliseconds a poll on a slow host), so far from the target a poll waits five
 * times as long as the last one took (at most a sixth of one backend), between `fastMs` and
 * `slowMs`, and over the last tenth every `fastMs`. (A fixed second between polls until 90% made
 * the time seen up to a second late whenever the last tenth arrived within one interval.)
 */
export async function untilCount(
  count: () => Promise<number>,
  target: number,
  timeoutMs: number,
  fastMs = 100,
  slowMs = 1000,
): Promise<number | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const started = performance.now();
    const seen = await count();
    const took = performance.now() - started;
    if (seen >= target) return Date.now();
    if (Date.now() > deadline) return undefined;
    const wait = seen >= target * 0.9 ? fastMs : Math.min(slowMs, Math.max(fastMs, 5 * took));
    await new Promise((r) => setTimeout(r, wait));
  }
}

/**
 * Calls `fire(0..total-1)` from `concurrency` clients, each sending its next call when the last
 * one answered (a closed loop: as fast as the service accepts, never more in flight).
 */
export async function closedLoop(
  total: number,
  concurrency: number,
  fire: (i: number) => Promise<void>,
): Promise<{ sent: number; errors: number; elapsedMs: number; failures: string }> {
  const started = performance.now();
  let next = 0;
  const failures = new Failures();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await fire(next++).catch((error: unknown) => failures.add(error));
    }),
  );
  return { sent: total, errors: failures.count, elapsedMs: performance.now() - started, failures: failures.summary() };
}

/** Failed calls by kind: an HTTP status, or the client's error and its cause (ECONNRESET, ...). */
class Failures {
  count = 0;
  private readonly kinds = new Map<string, number>();

  add(error: unknown): void {
    this.count++;
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    const kind = `${(error as Error).message}${cause ? ` (${cause})` : ''}`.slice(0, 80);
    this.kinds.set(kind, (this.kinds.get(kind) ?? 0) + 1);
  }

  /** Most frequent first. */
  summary(): string {
    return [...this.kinds]
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${n}x ${k}`)
      .join(', ');
  }
}

/**
 * The load generator's HTTP client: a bounded undici Pool (at most `connections` sockets, the
 * rest queue in the client, as a well-behaved caller's would), counting refused answers (429 and
 * 503: the service shedding load, ADR 0137) apart from other failures.
 */
export class BoundedClient {
  private readonly pool: Pool;
  refused = 0;

  constructor(origin: string, connections = 64) {
    this.pool = new Pool(origin, { connections, pipelining: 1 });
  }

  /** POSTs `body` as JSON; resolves with the status and the parsed body (undefined when refused). */
  async post(path: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; body: unknown }> {
    const res = await this.pool.request({
      method: 'POST',
      path,
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    const text = await res.body.text();
    if (res.statusCode === 429 || res.statusCode === 503) {
      this.refused++;
      return { status: res.statusCode, body: undefined };
    }
    return { status: res.statusCode, body: text ? (JSON.parse(text) as unknown) : undefined };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
