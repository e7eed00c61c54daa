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
export async function atRate(rate: number, seconds: number, fire: (i: number) => Promise<void>): Promise<{ sent: number; errors: number; elapsedMs: number }> {
  const total = Math.round(rate * seconds);
  const started = performance.now();
  const pending: Promise<void>[] = [];
  let errors = 0;
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    pending.push(fire(i).catch(() => void errors++));
  }
  await Promise.all(pending);
  return { sent: total, errors, elapsedMs: performance.now() - started };
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
