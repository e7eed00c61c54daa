import { tenantDecider, tenantStream } from '@notify/domain';
import { EventStore, PostgresEventStore } from '@notify/eventstore';
import { createTestDatabase, TestDatabase, describeWith } from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { handleCommands } from './handle-command';

const describeOnPostgres = describeWith('postgres');

const setTenant = (tenantId: string, properties: Record<string, unknown>) => ({
  type: 'SetTenant' as const,
  tenantId,
  properties,
  now: '2030-01-01T00:00:00.000Z',
});
const meta = { environment: 'dev' };

/** handleCommands on the PostgreSQL store: one read and one all-or-nothing append for many streams. */
describeOnPostgres('handleCommands', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;

  beforeAll(async () => {
    db = await createTestDatabase('postgres', { migrate: false, poolSize: 4 });
    store = await PostgresEventStore.create({ pool: db.database.pool, listenConnectionString: db.url });
  });
  afterAll(async () => {
    await store.close();
    await db.close();
  });

  /** The store, counting its calls; `before` runs once, just before the first appendMany. */
  const counting = (before?: () => Promise<void>) => {
    const calls = { readStream: 0, readStreams: 0, append: 0, appendMany: 0 };
    let pending = before;
    const wrapped: EventStore = Object.create(store, {
      readStream: { value: (...a: Parameters<EventStore['readStream']>) => (calls.readStream++, store.readStream(...a)) },
      readStreams: { value: (...a: Parameters<EventStore['readStreams']>) => (calls.readStreams++, store.readStreams(...a)) },
      append: { value: (...a: Parameters<EventStore['append']>) => (calls.append++, store.append(...a)) },
      appendMany: {
        value: async (...a: Parameters<EventStore['appendMany']>) => {
          calls.appendMany++;
          const hook = pending;
          pending = undefined;
          if (hook) await hook();
          return store.appendMany(...a);
        },
      },
    });
    return { wrapped, calls };
  };
  const properties = async (tenantId: string) =>
    (await store.readStream(tenantStream('dev', tenantId))).map((e) => (e.data as { properties: object }).properties);

  it('decides every stream on one read and appends all of them in one call', async () => {
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    await handleCommands(store, tenantDecider, [{ streamId: tenantStream('dev', ids[2]), command: setTenant(ids[2], { a: 1 }) }], meta);
    const { wrapped, calls } = counting();
    const outcomes = await handleCommands(
      wrapped,
      tenantDecider,
      ids.map((id) => ({ streamId: tenantStream('dev', id), command: setTenant(id, { a: 1 }) })),
      meta,
    );
    expect(calls).toEqual({ readStream: 0, readStreams: 1, append: 0, appendMany: 1 });
    // The third tenant already had these properties: nothing to append for it.
    expect(outcomes.map((o) => o.events.length)).toEqual([1, 1, 0]);
    expect(outcomes[0].append).toBeDefined();
    expect(outcomes[2].append).toBeUndefined();
    for (const id of ids) expect(await properties(id)).toEqual([{ a: 1 }]);
  });

  it('after a revision conflict writes nothing of the round and runs the commands one by one on the new state', async () => {
    const ids = [randomUUID(), randomUUID()];
    const { wrapped, calls } = counting(async () => {
      // Another writer gets to the second tenant between the read and the append.
      await store.append(tenantStream('dev', ids[1]), [
        {
          id: randomUUID(),
          type: 'TenantSet',
          data: { tenant_id: ids[1], properties: { b: 2 }, set_at: '2030-01-01T00:00:00.000Z' },
          metadata: { environment: 'dev', schema_version: 1 },
        },
      ]);
    });
    const outcomes = await handleCommands(
      wrapped,
      tenantDecider,
      ids.map((id) => ({ streamId: tenantStream('dev', id), command: setTenant(id, { a: 1 }) })),
      meta,
    );
    expect(calls.appendMany).toBe(1);
    expect(calls.readStream).toBe(2);
    expect(outcomes.map((o) => o.events.length)).toEqual([1, 1]);
    expect(await properties(ids[0])).toEqual([{ a: 1 }]);
    expect(await properties(ids[1])).toEqual([{ b: 2 }, { a: 1 }]);
  });

  it('runs a stream named twice one command after the other', async () => {
    const id = randomUUID();
    const { wrapped, calls } = counting();
    await handleCommands(
      wrapped,
      tenantDecider,
      [
        { streamId: tenantStream('dev', id), command: setTenant(id, { a: 1 }) },
        { streamId: tenantStream('dev', id), command: setTenant(id, { a: 2 }) },
      ],
      meta,
    );
    expect(calls.readStreams).toBe(0);
    expect(await properties(id)).toEqual([{ a: 1 }, { a: 2 }]);
  });
});
