import { PostgresEventStore, SealingKeyChangedError } from '@notify/eventstore';
import { createTestDatabase, readAllWritten, TestDatabase } from '@notify/testing';
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { ErasureKeyStore, erasureSubject } from './erasure-keys';
import { PersonalDataEventStore } from './personal-data-store';
import { ERASED, generateKey } from './personal-fields';

const EPOCH_READ = 'SELECT epoch::text AS epoch FROM erasure_epoch';

/** One process's view: its own event store, key store and key cache, over the shared database. */
interface Proc {
  raw: PostgresEventStore;
  keys: ErasureKeyStore;
  store: PersonalDataEventStore;
  /** Statements this process's stores issued, by text. */
  statements: string[];
}

describe('sealing-key checks: no epoch read of its own, the same erasure guarantee across processes (ADR 0216)', () => {
  let db: TestDatabase;
  const master = generateKey();
  const procs: Proc[] = [];
  const metadata = { environment: 'development', schema_version: 1 };

  /** A pool whose statements are noted, so that a process's epoch reads can be counted. */
  function countingPool(pool: Pool, statements: string[]): Pool {
    return new Proxy(pool, {
      get(target, prop, receiver) {
        if (prop === 'query')
          return (text: unknown, ...rest: unknown[]) => {
            statements.push(typeof text === 'string' ? text : String((text as { text?: string }).text));
            return (target.query as (...args: unknown[]) => unknown).call(target, text, ...rest);
          };
        const value = Reflect.get(target, prop, receiver) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  }

  async function process(): Promise<Proc> {
    const statements: string[] = [];
    const pool = countingPool(db.database.pool, statements);
    const raw = await PostgresEventStore.create({ pool, sealingKeyChecks: true });
    const keys = new ErasureKeyStore(pool, master);
    const proc = { raw, keys, store: new PersonalDataEventStore(raw, keys), statements };
    procs.push(proc);
    return proc;
  }

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    for (const p of procs) await p.store.close();
    await db.close();
  });

  const identify = (userId: string, email: string) => ({
    id: randomUUID(),
    type: 'UserIdentified',
    data: { user_id: userId, properties: { email }, identified_at: '2026-01-01T00:00:00.000Z' },
    metadata,
  });

  it('a second process that had the key cached never opens the data after the erasure, without reading the epoch on its own', async () => {
    const api = await process();
    const worker = await process();
    const stream = `user-development-${randomUUID()}`;
    const userId = stream.slice('user-development-'.length);
    const email = `x-${randomUUID()}@example.com`;
    await api.store.append(stream, [identify(userId, email)]);

    expect((await worker.store.readStream(stream))[0].data).toMatchObject({ properties: { email } });
    expect((await readAllWritten(worker.store)).find((e) => e.streamId === stream)!.data).toMatchObject({ properties: { email } });

    // The api erases; the worker still holds the key in its cache.
    await api.keys.destroy(erasureSubject('development', userId));
    expect((await worker.store.readStream(stream))[0].data).toMatchObject({ properties: ERASED });
    expect((await worker.store.readStreams([stream])).get(stream)![0].data).toMatchObject({ properties: ERASED });
    const tail = (await readAllWritten(worker.store)).find((e) => e.streamId === stream)!;
    expect(tail.data).toMatchObject({ properties: ERASED });
    expect(JSON.stringify(tail.data)).not.toContain(email);
    // Neither process read the epoch in a statement of its own: the reads returned it.
    expect([...api.statements, ...worker.statements].filter((s) => s.includes(EPOCH_READ))).toEqual([]);
  });

  it('a process that seals with a key destroyed elsewhere does not write with it: the append is sealed again with the stored key', async () => {
    const api = await process();
    const worker = await process();
    const userId = randomUUID();
    const stream = `user-development-${userId}`;
    const subject = erasureSubject('development', userId);
    await worker.store.append(stream, [identify(userId, 'first@example.com')]);
    const old = await worker.keys.sealingKey(subject);

    await api.keys.destroy(subject);
    // The worker writes again from its cache; the statement finds the key gone and writes nothing,
    // the worker drops the key and seals with a new one.
    await worker.store.append(stream, [identify(userId, 'second@example.com')]);
    const stored = await db.database.pool.query<{ wrapped_key: string }>('SELECT wrapped_key FROM erasure_keys WHERE subject = $1', [
      subject,
    ]);
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0].wrapped_key).not.toBe(old.wrapped);
    // Another process (fresh cache) opens the new event: it was sealed with the stored key.
    const reader = await process();
    const events = await reader.store.readStream(stream);
    expect(events.map((e) => e.data)).toEqual([
      expect.objectContaining({ properties: ERASED }),
      expect.objectContaining({ properties: { email: 'second@example.com' } }),
    ]);
    expect(worker.statements.filter((s) => s.includes(EPOCH_READ))).toEqual([]);
  });

  it('an append conditional on a key that is no longer stored writes nothing, alone or with others', async () => {
    const proc = await process();
    const stream = `check-${randomUUID()}`;
    const other = `check-${randomUUID()}`;
    const event = () => ({ id: randomUUID(), type: 'Noted', data: {}, metadata });
    const stale = [{ subject: `nobody/${randomUUID()}`, wrappedKey: 'gone' }];
    await expect(proc.raw.append(stream, [event()], { sealedWith: stale })).rejects.toBeInstanceOf(SealingKeyChangedError);
    await expect(
      proc.raw.appendMany([
        { streamId: stream, events: [event()], sealedWith: stale },
        { streamId: other, events: [event()] },
      ]),
    ).rejects.toBeInstanceOf(SealingKeyChangedError);
    const written = await db.database.pool.query('SELECT count(*)::int AS n FROM es_events WHERE stream_id = ANY($1)', [[stream, other]]);
    expect(written.rows[0].n).toBe(0);
    const streams = await db.database.pool.query('SELECT count(*)::int AS n FROM es_streams WHERE stream_id = ANY($1)', [[stream, other]]);
    expect(streams.rows[0].n).toBe(0);

    // With the stored key it lands.
    const subject = erasureSubject('development', randomUUID());
    const key = await proc.keys.sealingKey(subject);
    await proc.raw.append(stream, [event()], { sealedWith: [{ subject, wrappedKey: key.wrapped }] });
    expect((await proc.raw.readStream(stream)).length).toBe(1);
  });

  it('an older epoch seen after a newer one changes nothing; a newer one drops the cache', async () => {
    const proc = await process();
    const subject = erasureSubject('development', randomUUID());
    await proc.keys.sealingKey(subject);
    proc.keys.observeEpoch(10_000n);
    const lookups = () => proc.statements.filter((s) => s.includes('FROM erasure_keys WHERE subject = ANY')).length;
    const before = lookups();
    await proc.keys.keysFor([subject], { epochObserved: true });
    expect(lookups()).toBe(before + 1);
    proc.keys.observeEpoch(9_999n);
    await proc.keys.keysFor([subject], { epochObserved: true });
    expect(lookups()).toBe(before + 1);
    proc.keys.observeEpoch(10_001n);
    await proc.keys.keysFor([subject], { epochObserved: true });
    expect(lookups()).toBe(before + 2);
  });
});
