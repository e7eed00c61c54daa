import { createTestDatabase, databaseBackends, TestDatabase } from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { committedRequests } from '../committed-requests';
import { PostgresEventStore } from './postgres-event-store';

/**
 * A connection lost while an append was in flight leaves its outcome unknown to the caller: the
 * statement may have committed before the connection went. The store looks its events up once
 * and answers from what the log holds (ADR 0135).
 */
describe.each(databaseBackends())('PostgreSQL event store: a connection lost during an append (%s)', (backend) => {
  let db: TestDatabase;
  let store: PostgresEventStore;
  /** What the next es_append does besides running: fail before or after the server saw it. */
  let sabotage: 'none' | 'lost-after-commit' | 'lost-before-sending' = 'none';
  const meta = (requestId: string) => ({ environment: 'test', schema_version: 1, request_id: requestId });

  beforeAll(async () => {
    db = await createTestDatabase(backend, { migrate: false });
    const pool = db.database.pool;
    // The pool as the store sees it: es_append statements pass through the sabotage.
    const flaky = new Proxy(pool, {
      get(target, prop) {
        if (prop !== 'query') return Reflect.get(target, prop, target);
        return async (...args: Parameters<Pool['query']>) => {
          const sql = String(args[0]);
          if (!sql.includes('es_append') || sabotage === 'none') return (target.query as (...a: unknown[]) => unknown)(...args);
          const mode = sabotage;
          sabotage = 'none';
          if (mode === 'lost-before-sending') throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
          await (target.query as (...a: unknown[]) => Promise<unknown>)(...args);
          throw new Error('Connection terminated unexpectedly');
        };
      },
    });
    store = await PostgresEventStore.create({ pool: flaky });
  });
  afterAll(async () => {
    await store.close();
    await db.close();
  });

  it('answers an append that committed before the connection went as done, and notes its request', async () => {
    const stream = `lost-${randomUUID()}`;
    const requestId = randomUUID();
    sabotage = 'lost-after-commit';
    const result = await store.append(stream, [{ id: randomUUID(), type: 'Happened', data: {}, metadata: meta(requestId) }], {
      expectedRevision: 'no_stream',
    });
    expect(result).toMatchObject({ streamId: stream, nextExpectedRevision: 0 });
    expect(await store.readStream(stream)).toHaveLength(1);
    expect(committedRequests.has(requestId)).toBe(true);
    committedRequests.forget(requestId);
  });

  it('fails an append the server never got, with the connection error, and notes nothing', async () => {
    const stream = `lost-${randomUUID()}`;
    const requestId = randomUUID();
    sabotage = 'lost-before-sending';
    await expect(
      store.append(stream, [{ id: randomUUID(), type: 'Happened', data: {}, metadata: meta(requestId) }], {
        expectedRevision: 'no_stream',
      }),
    ).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(await store.readStream(stream)).toHaveLength(0);
    expect(committedRequests.has(requestId)).toBe(false);
  });
});
