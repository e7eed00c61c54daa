import type { Pool } from 'pg';
import { generateKey, unwrapKey, wrapKey } from './personal-fields';

/** The key-table name of a subject: user ids are per environment. */
export function erasureSubject(environment: string | null, userId: string): string {
  return `${environment ?? ''}/user/${userId}`;
}

/** A subject's key as used to seal, with its wrapped form as stored (what an append conditional on it compares). */
export interface SealingKey {
  subject: string;
  key: Buffer;
  wrapped: string;
}

/**
 * Per-subject keys in Postgres, wrapped with the master key (ADR 0180).
 *
 * Cache: keys are cached in the process (a projection rebuild opens every event of a subject
 * with one lookup). A destroyed key is never cached as present for long: each `keysFor` call
 * (one per batch of events) first reads the one-row erasure epoch, and any change clears the
 * whole cache, so an erasure done by another process is seen by the next batch every process
 * reads. Absence is cached too: a destroyed key never comes back.
 *
 * Cheaper forms of the same guarantee (ADR 0216): a read whose statement also returned the
 * epoch (`observeEpoch`, then `keysFor(..., { epochObserved: true })`) needs no epoch read of its
 * own, and a writer that takes `sealingKeys` (no epoch read) makes its append conditional on
 * those keys still being the stored ones, in the append's own statement.
 */
export class ErasureKeyStore {
  private readonly cache = new Map<string, { key: Buffer; wrapped: string } | null>();
  private epoch: bigint | null = null;
  /** Moves whenever the cache is cleared: a lookup that started before does not put its (possibly stale) answer into it. */
  private generation = 0;

  constructor(
    private readonly pool: Pool,
    private readonly masterKey: Buffer,
    private readonly maxCached = 100_000,
  ) {}

  /** The subject's key, created on first use (concurrent creators agree on the first one written). */
  async keyFor(subject: string): Promise<Buffer> {
    await this.checkEpoch();
    return (await this.sealingKey(subject)).key;
  }

  /**
   * The subject's key for sealing, created on first use, WITHOUT reading the epoch: the caller
   * must make its write conditional on `wrapped` still being the subject's stored key (the
   * Postgres store's `sealedWith`, checked in the append's own statement) and call `forget` and
   * try again when it is not.
   */
  async sealingKey(subject: string): Promise<SealingKey> {
    const generation = this.generation;
    const cached = this.cache.get(subject);
    if (cached) return { subject, ...cached };
    const [row] = await createKeys((sql, params) => this.pool.query(sql, params), this.masterKey, [subject]);
    const entry = { key: unwrapKey(this.masterKey, subject, row.wrapped_key), wrapped: row.wrapped_key };
    this.remember(subject, entry, generation);
    return { subject, ...entry };
  }

  /** How many newer epochs (erasures) this process saw after its first: what caches derived from its keys follow. */
  get erasuresSeen(): number {
    return this.newerEpochs;
  }
  private newerEpochs = 0;

  /** Drops what is cached of these subjects (a conditional write found one of their keys no longer stored). */
  forget(subjects: Iterable<string>): void {
    for (const s of subjects) this.cache.delete(s);
  }

  /**
   * An epoch read by another statement (a log read that returned it along with its events):
   * a newer one than the cache was filled under clears the cache, as `checkEpoch` does. Epochs
   * only grow, so an older one (a read that was overtaken) changes nothing.
   */
  observeEpoch(epoch: string | bigint): void {
    const seen = BigInt(epoch);
    if (this.epoch !== null && seen <= this.epoch) return;
    if (this.epoch !== null) this.newerEpochs++;
    this.cache.clear();
    this.generation++;
    this.epoch = seen;
  }

  /** The keys of these subjects in one query: null for a subject whose key is destroyed (or never existed). */
  async keysFor(subjects: Iterable<string>, options: { epochObserved?: boolean } = {}): Promise<Map<string, Buffer | null>> {
    // epochObserved: the caller's events were read by a statement that also returned the epoch,
    // and it was passed to observeEpoch before this call (ADR 0216).
    if (!options.epochObserved) await this.checkEpoch();
    const generation = this.generation;
    const out = new Map<string, Buffer | null>();
    const missing: string[] = [];
    for (const s of new Set(subjects)) {
      const cached = this.cache.get(s);
      if (cached !== undefined) out.set(s, cached?.key ?? null);
      else missing.push(s);
    }
    if (missing.length > 0) {
      const { rows } = await this.pool.query<{ subject: string; wrapped_key: string }>(
        'SELECT subject, wrapped_key FROM erasure_keys WHERE subject = ANY($1::text[])',
        [missing],
      );
      const found = new Map(
        rows.map((r) => [r.subject, { key: unwrapKey(this.masterKey, r.subject, r.wrapped_key), wrapped: r.wrapped_key }]),
      );
      for (const s of missing) {
        const entry = found.get(s) ?? null;
        out.set(s, entry?.key ?? null);
        this.remember(s, entry, generation);
      }
    }
    return out;
  }

  /**
   * The keys of several subjects about to be written, created where missing, in three statements
   * whatever their number (one epoch read, one insert, one select): an append of a thousand new
   * users' events does not make a thousand round trips. A subject whose key was destroyed gets a
   * new one, as `keyFor` gives it.
   */
  async keysForWriting(subjects: Iterable<string>): Promise<Map<string, Buffer>> {
    await this.checkEpoch();
    const out = new Map<string, Buffer>();
    for (const [s, k] of await this.sealingKeys(subjects)) out.set(s, k.key);
    return out;
  }

  /** `keysForWriting` without the epoch read, with the wrapped keys: for writes conditional on them (see `sealingKey`). */
  async sealingKeys(subjects: Iterable<string>): Promise<Map<string, SealingKey>> {
    const generation = this.generation;
    const out = new Map<string, SealingKey>();
    const missing: string[] = [];
    for (const s of new Set(subjects)) {
      const cached = this.cache.get(s);
      if (cached) out.set(s, { subject: s, ...cached });
      else missing.push(s);
    }
    if (missing.length === 0) return out;
    const rows = await createKeys((sql, params) => this.pool.query(sql, params), this.masterKey, missing);
    for (const r of rows) {
      const entry = { key: unwrapKey(this.masterKey, r.subject, r.wrapped_key), wrapped: r.wrapped_key };
      out.set(r.subject, { subject: r.subject, ...entry });
      this.remember(r.subject, entry, generation);
    }
    return out;
  }

  /** Destroys the subject's key for good and bumps the epoch so every process drops its cache. True when a key was destroyed. */
  async destroy(subject: string): Promise<boolean> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const { rowCount } = await client.query('DELETE FROM erasure_keys WHERE subject = $1', [subject]);
      await client.query('UPDATE erasure_epoch SET epoch = epoch + 1');
      await client.query('COMMIT');
      this.cache.set(subject, null);
      return (rowCount ?? 0) > 0;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /**
   * The keys as a transaction someone else holds open sees them, its statements run on that
   * transaction (ADR 0249: the HTTP import seals and erases inside its one transaction, and the
   * embedded database's pool has no second connection to give while it is open). One view per
   * transaction: the sealing of the import's batches and the erasures between them share it, so
   * a key destroyed there is not used again. Its cache is its own (keys it creates are not
   * committed yet and must not reach the process's cache); it reads no epoch, the transaction
   * seeing its own erasures.
   */
  inTransaction(tx: KeyQueries): TransactionKeys {
    let view = this.transactions.get(tx);
    if (!view) {
      view = new TransactionKeys(tx, this.masterKey);
      this.transactions.set(tx, view);
    }
    return view;
  }

  private readonly transactions = new WeakMap<KeyQueries, TransactionKeys>();

  private async checkEpoch(): Promise<void> {
    const { rows } = await this.pool.query<{ epoch: string }>('SELECT epoch::text AS epoch FROM erasure_epoch');
    this.observeEpoch(rows[0]?.epoch ?? '0');
  }

  private remember(subject: string, entry: { key: Buffer; wrapped: string } | null, generation: number): void {
    // Cleared since the lookup started (a newer epoch was seen): its answer may predate an erasure.
    if (generation !== this.generation) return;
    if (this.cache.size >= this.maxCached) this.cache.clear();
    this.cache.set(subject, entry);
  }
}

/** Statements on a transaction (the import's: @notify/eventstore's ImportTransaction has this shape). */
export interface KeyQueries {
  query<R extends object = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: R[]; rowCount: number | null }>;
}

/** `ErasureKeyStore.inTransaction`: keys created, read and destroyed in one open transaction. */
export class TransactionKeys {
  private readonly cache = new Map<string, Buffer>();

  constructor(
    private readonly tx: KeyQueries,
    private readonly masterKey: Buffer,
  ) {}

  /** The subject's key, created on first use. */
  async keyFor(subject: string): Promise<Buffer> {
    return (await this.keysForWriting([subject])).get(subject)!;
  }

  /** The keys of these subjects, created where missing: two statements for those not seen yet in this transaction. */
  async keysForWriting(subjects: Iterable<string>): Promise<Map<string, Buffer>> {
    const out = new Map<string, Buffer>();
    const missing: string[] = [];
    for (const s of new Set(subjects)) {
      const cached = this.cache.get(s);
      if (cached) out.set(s, cached);
      else missing.push(s);
    }
    if (missing.length === 0) return out;
    const rows = await createKeys((sql, params) => this.tx.query(sql, params), this.masterKey, missing);
    for (const r of rows) {
      const key = unwrapKey(this.masterKey, r.subject, r.wrapped_key);
      this.cache.set(r.subject, key);
      out.set(r.subject, key);
    }
    return out;
  }

  /**
   * Destroys the subject's key and moves the erasure epoch, both committed with the transaction
   * (the epoch's row stays locked until then: other erasures wait for it). The subject's next key
   * is a new one, as `keyFor` gives after an erasure.
   */
  async destroy(subject: string): Promise<boolean> {
    const { rowCount } = await this.tx.query('DELETE FROM erasure_keys WHERE subject = $1', [subject]);
    await this.tx.query('UPDATE erasure_epoch SET epoch = epoch + 1');
    this.cache.delete(subject);
    return (rowCount ?? 0) > 0;
  }
}

export const ERASURE_KEYS = Symbol('ERASURE_KEYS');

/**
 * The keys of `subjects`, each created (wrapped with the master key) where none is stored yet.
 * Stored keys are read first, so a process whose cache is cold (after a start, or a worker
 * sealing for users the api identified) neither generates nor wraps keys it will not use: one
 * statement when every key exists, two when some are new, a third only for subjects another
 * writer created in between (its insert won; read what it wrote).
 */
async function createKeys(
  query: <R extends object>(sql: string, params: unknown[]) => Promise<{ rows: R[] }>,
  masterKey: Buffer,
  subjects: string[],
): Promise<{ subject: string; wrapped_key: string }[]> {
  const read = async (among: string[]) =>
    (
      await query<{ subject: string; wrapped_key: string }>(
        'SELECT subject, wrapped_key FROM erasure_keys WHERE subject = ANY($1::text[])',
        [among],
      )
    ).rows;
  const rows = await read(subjects);
  const stored = new Set(rows.map((r) => r.subject));
  const absent = subjects.filter((s) => !stored.has(s));
  if (absent.length === 0) return rows;
  const { rows: created } = await query<{ subject: string; wrapped_key: string }>(
    `INSERT INTO erasure_keys (subject, wrapped_key) SELECT * FROM unnest($1::text[], $2::text[])
     ON CONFLICT (subject) DO NOTHING RETURNING subject, wrapped_key`,
    [absent, absent.map((s) => wrapKey(masterKey, s, generateKey()))],
  );
  rows.push(...created);
  const made = new Set(created.map((r) => r.subject));
  const raced = absent.filter((s) => !made.has(s));
  if (raced.length) rows.push(...(await read(raced)));
  return rows;
}
