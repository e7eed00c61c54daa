/**
 * Reads by key, grouped while the database is busy (ADR 0277). A read asked for while `limit`
 * reads are in flight waits for one of them to finish, then goes out in one statement with every
 * other key asked for meanwhile (each key once). A read asked for while fewer are in flight goes
 * out at once, so an idle service waits for nothing.
 *
 * Every answer comes from a statement sent after it was asked for, never from one already on its
 * way: a change committed before the request arrived is seen, as it would be by a read of its own.
 * A failed statement fails every read in its group (each would have met the same failure).
 */
export class GroupedReads<K, V> {
  private queued = new Map<K, Waiter<V>[]>();
  private inFlight = 0;
  /** Statements sent, and keys answered by them (the tests read them). */
  statements = 0;
  keys = 0;

  constructor(
    /** One statement for these keys (distinct); a key missing from the answer reads as undefined. */
    private readonly readMany: (keys: K[]) => Promise<Map<K, V>>,
    private readonly options: { limit?: number; maxKeys?: number } = {},
  ) {}

  get(key: K): Promise<V | undefined> {
    return new Promise<V | undefined>((resolve, reject) => {
      const waiters = this.queued.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else this.queued.set(key, [{ resolve, reject }]);
      this.send();
    });
  }

  private send(): void {
    const limit = this.options.limit ?? 1;
    const maxKeys = this.options.maxKeys ?? 500;
    while (this.inFlight < limit && this.queued.size > 0) {
      let group: Map<K, Waiter<V>[]>;
      if (this.queued.size <= maxKeys) {
        group = this.queued;
        this.queued = new Map();
      } else {
        group = new Map();
        for (const [key, waiters] of this.queued) {
          if (group.size >= maxKeys) break;
          group.set(key, waiters);
          this.queued.delete(key);
        }
      }
      this.inFlight++;
      this.statements++;
      this.keys += group.size;
      let read: Promise<Map<K, V>>;
      try {
        read = this.readMany([...group.keys()]);
      } catch (error) {
        read = Promise.reject(error);
      }
      read
        .then(
          (found) => {
            for (const [key, waiters] of group) for (const w of waiters) w.resolve(found.get(key));
          },
          (error: unknown) => {
            for (const waiters of group.values()) for (const w of waiters) w.reject(error);
          },
        )
        .finally(() => {
          this.inFlight--;
          this.send();
        });
    }
  }
}

interface Waiter<V> {
  resolve(value: V | undefined): void;
  reject(error: unknown): void;
}
