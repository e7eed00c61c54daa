import { createTestDatabase, TestDatabase } from '@notify/testing';
import { Pool } from 'pg';
import { ErasureKeyStore, erasureSubject } from './erasure-keys';
import { generateKey, openPersonalFields, sealValue, ERASED } from './personal-fields';

describe('ErasureKeyStore (Postgres)', () => {
  let db: TestDatabase;
  const master = generateKey();

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.close();
  });

  it('creates one key per subject and stores it only wrapped', async () => {
    const store = new ErasureKeyStore(db.database.pool, master);
    const subject = erasureSubject('env-a', 'u-1');
    const key = await store.keyFor(subject);
    expect((await store.keyFor(subject)).equals(key)).toBe(true);
    expect((await new ErasureKeyStore(db.database.pool, master).keyFor(subject)).equals(key)).toBe(true);
    const { rows } = await db.database.pool.query('SELECT wrapped_key FROM erasure_keys WHERE subject = $1', [subject]);
    expect(rows[0].wrapped_key).not.toContain(key.toString('base64'));
  });

  it('reads a destroyed key as null in another process that had it cached', async () => {
    const writer = new ErasureKeyStore(db.database.pool, master);
    const reader = new ErasureKeyStore(db.database.pool, master);
    const subject = erasureSubject('env-a', 'u-2');
    const key = await writer.keyFor(subject);
    const sealed = { properties: sealValue(subject, key, { email: 'gone@example.com' }) };
    const before = await reader.keysFor([subject]);
    expect(openPersonalFields(sealed, (s) => before.get(s) ?? null)).toEqual({ properties: { email: 'gone@example.com' } });

    expect(await writer.destroy(subject)).toBe(true);
    const after = await reader.keysFor([subject]);
    expect(after.get(subject)).toBeNull();
    expect(openPersonalFields(sealed, (s) => after.get(s) ?? null)).toEqual({ properties: ERASED });
    const { rows } = await db.database.pool.query('SELECT count(*)::int AS n FROM erasure_keys WHERE subject = $1', [subject]);
    expect(rows[0].n).toBe(0);
  });

  it('answers a batch of subjects in one call, unknown ones as null', async () => {
    const store = new ErasureKeyStore(db.database.pool, master);
    const a = erasureSubject('env-b', 'a');
    await store.keyFor(a);
    const keys = await new ErasureKeyStore(db.database.pool, master).keysFor([a, erasureSubject('env-b', 'never')]);
    expect(keys.get(a)).toBeInstanceOf(Buffer);
    expect(keys.get(erasureSubject('env-b', 'never'))).toBeNull();
  });

  it('creates the missing keys of a batch of subjects being written, keeps the existing ones, and agrees with keyFor', async () => {
    const store = new ErasureKeyStore(db.database.pool, master);
    const existing = erasureSubject('env-c', 'old');
    const erased = erasureSubject('env-c', 'gone');
    const fresh = [1, 2, 3].map((n) => erasureSubject('env-c', `new-${n}`));
    const before = await store.keyFor(existing);
    await store.keyFor(erased);
    await store.destroy(erased);
    const keys = await store.keysForWriting([existing, erased, ...fresh, fresh[0]]);
    expect([...keys.keys()].sort()).toEqual([existing, erased, ...fresh].sort());
    expect(keys.get(existing)!.equals(before)).toBe(true);
    // Another process reads the same keys: they were stored, not only cached.
    const other = new ErasureKeyStore(db.database.pool, master);
    for (const s of [erased, ...fresh]) expect((await other.keyFor(s)).equals(keys.get(s)!)).toBe(true);
    const rows = await db.database.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM erasure_keys WHERE subject LIKE 'env-c/%'`);
    expect(rows.rows[0].n).toBe(5);
  });

  it('gives a process with a cold cache the stored keys with one read, writing nothing', async () => {
    const subjects = [1, 2, 3].map((n) => erasureSubject('env-d', `known-${n}`));
    const stored = await new ErasureKeyStore(db.database.pool, master).keysForWriting(subjects);
    const statements: string[] = [];
    const counting = countingPool(db.database.pool, statements);
    const cold = new ErasureKeyStore(counting, master);
    const keys = await cold.sealingKeys(subjects);
    for (const s of subjects) expect(keys.get(s)!.key.equals(stored.get(s)!)).toBe(true);
    expect((await new ErasureKeyStore(counting, master).sealingKey(subjects[0])).key.equals(stored.get(subjects[0])!)).toBe(true);
    expect(statements.map((q) => q.split(' ')[0])).toEqual(['SELECT', 'SELECT']);
  });

  it('keeps the key another process stored first when both create the same subject', async () => {
    const subject = erasureSubject('env-d', 'raced');
    const statements: string[] = [];
    const first = new ErasureKeyStore(db.database.pool, master);
    // The second process read no key for the subject; the first one stores its key before the second inserts.
    const second = new ErasureKeyStore(
      countingPool(db.database.pool, statements, async (sql) => {
        if (sql.startsWith('INSERT')) await first.keyFor(subject);
      }),
      master,
    );
    const key = (await second.sealingKey(subject)).key;
    expect(key.equals(await first.keyFor(subject))).toBe(true);
    expect(key.equals(await new ErasureKeyStore(db.database.pool, master).keyFor(subject))).toBe(true);
    expect(statements.map((q) => q.split(' ')[0])).toEqual(['SELECT', 'INSERT', 'SELECT']);
  });

  it('creates, reads and destroys keys on a transaction held open, asking its pool for no other connection (ADR 0249)', async () => {
    // One connection, as the embedded database has: a statement on the pool while it is held would wait its acquire timeout.
    // The embedded database is that (its pool has its one connection, and it serves no second one).
    const own = db.backend === 'embedded' ? undefined : new Pool({ connectionString: db.url, max: 1, connectionTimeoutMillis: 2_000 });
    const single = own ?? db.database.pool;
    try {
      const store = new ErasureKeyStore(single, master);
      const kept = erasureSubject('env-d', 'kept');
      const erased = erasureSubject('env-d', 'erased');
      const client = await single.connect();
      try {
        await client.query('BEGIN');
        const tx = { query: (sql: string, params?: unknown[]) => client.query(sql, params) };
        const keys = store.inTransaction(tx);
        expect(store.inTransaction(tx)).toBe(keys);
        const first = await keys.keysForWriting([kept, erased]);
        expect(await keys.destroy(erased)).toBe(true);
        // After the erasure in the transaction, the subject's key is a new one.
        expect((await keys.keyFor(erased)).equals(first.get(erased)!)).toBe(false);
        expect((await keys.keyFor(kept)).equals(first.get(kept)!)).toBe(true);
        await client.query('COMMIT');
      } finally {
        client.release();
      }
      const committed = await new ErasureKeyStore(db.database.pool, master).keysFor([kept]);
      expect(committed.get(kept)).toBeInstanceOf(Buffer);

      // Rolled back: the key created in it was never stored, nor cached by the store.
      const rolled = erasureSubject('env-d', 'rolled-back');
      const again = await single.connect();
      try {
        await again.query('BEGIN');
        await store.inTransaction({ query: (sql: string, params?: unknown[]) => again.query(sql, params) }).keyFor(rolled);
        await again.query('ROLLBACK');
      } finally {
        again.release();
      }
      expect((await store.keysFor([rolled])).get(rolled)).toBeNull();
    } finally {
      await own?.end();
    }
  });
});

/** The pool's `query`, noting each statement's text (and running `before` ahead of it). */
function countingPool(pool: Pool, statements: string[], before?: (sql: string) => Promise<void>): Pool {
  return {
    query: async (sql: string, params?: unknown[]) => {
      const text = sql.replace(/\s+/g, ' ').trim();
      statements.push(text);
      await before?.(text);
      return pool.query(sql, params);
    },
  } as unknown as Pool;
}
