import type { Pool } from 'pg';
import { generateKey, unwrapKey, wrapKey } from './personal-fields';

/** The key-table name of a subject: user ids are per environment. */
export function erasureSubject(environment: string | null, userId: string): string {
  return `${environment ?? ''}/user/${userId}`;
}

/**
 * Per-subject keys in Postgres, wrapped with the master key (ADR 0180).
 *
 * Cache: keys are cached in the process (a projection rebuild opens every event of a subject
 * with one lookup). A destroyed key is never cached as present for long: each `keysFor` call
 * (one per batch of events) first reads the one-row erasure epoch, and any change clears the
 * whole cache, so an erasure done by another process is seen by the next batch every process
 * reads. Absence is cached too: a destroyed key never comes back.
 */
export class ErasureKeyStore {
  private readonly cache = new Map<string, Buffer | null>();
  private epoch: string | null = null;

  constructor(
    private readonly pool: Pool,
    private readonly masterKey: Buffer,
    private readonly maxCached = 100_000,
  ) {}

  /** The subject's key, created on first use (concurrent creators agree on the first one written). */
  async keyFor(subject: string): Promise<Buffer> {
    await this.checkEpoch();
    const cached = this.cache.get(subject);
    if (cached) return cached;
    const key = generateKey();
    await this.pool.query('INSERT INTO erasure_keys (subject, wrapped_key) VALUES ($1, $2) ON CONFLICT (subject) DO NOTHING', [
      subject,
      wrapKey(this.masterKey, subject, key),
    ]);
    const { rows } = await this.pool.query<{ wrapped_key: string }>('SELECT wrapped_key FROM erasure_keys WHERE subject = $1', [subject]);
    const stored = unwrapKey(this.masterKey, subject, rows[0].wrapped_key);
    this.remember(subject, stored);
    return stored;
  }

  /** The keys of these subjects in one query: null for a subject whose key is destroyed (or never existed). */
  async keysFor(subjects: Iterable<string>): Promise<Map<string, Buffer | null>> {
    await this.checkEpoch();
    const out = new Map<string, Buffer | null>();
    const missing: string[] = [];
    for (const s of new Set(subjects)) {
      if (this.cache.has(s)) out.set(s, this.cache.get(s)!);
      else missing.push(s);
    }
    if (missing.length > 0) {
      const { rows } = await this.pool.query<{ subject: string; wrapped_key: string }>(
        'SELECT subject, wrapped_key FROM erasure_keys WHERE subject = ANY($1::text[])',
        [missing],
      );
      const found = new Map(rows.map((r) => [r.subject, unwrapKey(this.masterKey, r.subject, r.wrapped_key)]));
      for (const s of missing) {
        const key = found.get(s) ?? null;
        out.set(s, key);
        this.remember(s, key);
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
    const missing: string[] = [];
    for (const s of new Set(subjects)) {
      const cached = this.cache.get(s);
      if (cached) out.set(s, cached);
      else missing.push(s);
    }
    if (missing.length === 0) return out;
    await this.pool.query(
      `INSERT INTO erasure_keys (subject, wrapped_key) SELECT * FROM unnest($1::text[], $2::text[])
       ON CONFLICT (subject) DO NOTHING`,
      [missing, missing.map((s) => wrapKey(this.masterKey, s, generateKey()))],
    );
    const { rows } = await this.pool.query<{ subject: string; wrapped_key: string }>(
      'SELECT subject, wrapped_key FROM erasure_keys WHERE subject = ANY($1::text[])',
      [missing],
    );
    for (const r of rows) {
      const key = unwrapKey(this.masterKey, r.subject, r.wrapped_key);
      out.set(r.subject, key);
      this.remember(r.subject, key);
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

  private async checkEpoch(): Promise<void> {
    const { rows } = await this.pool.query<{ epoch: string }>('SELECT epoch::text AS epoch FROM erasure_epoch');
    const epoch = rows[0]?.epoch ?? '0';
    if (epoch !== this.epoch) {
      this.cache.clear();
      this.epoch = epoch;
    }
  }

  private remember(subject: string, key: Buffer | null): void {
    if (this.cache.size >= this.maxCached) this.cache.clear();
    this.cache.set(subject, key);
  }
}

export const ERASURE_KEYS = Symbol('ERASURE_KEYS');
