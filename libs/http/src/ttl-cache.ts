/** A small read-through cache; misses are cached for a shorter time than hits. */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; expires: number }>();

  constructor(
    private readonly hitTtlMs: number,
    private readonly missTtlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  async get(key: K, load: () => Promise<V>): Promise<V> {
    const now = Date.now();
    const entry = this.entries.get(key);
    if (entry && entry.expires > now) return entry.value;
    const value = await load();
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as K);
    this.entries.set(key, { value, expires: now + (value === undefined ? this.missTtlMs : this.hitTtlMs) });
    return value;
  }
}
