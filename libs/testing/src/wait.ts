/**
 * Waits for a state, not for a time: polls `probe` until it returns something truthy and
 * returns that. The deadline only bounds a test that would otherwise hang; it is generous
 * because a loaded CI machine can be slow, and nothing is asserted about how long it took.
 */
export async function waitFor<T>(
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  what: string,
  timeoutMs = 30_000,
  everyMs = 10,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
