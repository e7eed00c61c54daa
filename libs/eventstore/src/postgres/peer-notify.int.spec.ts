import { createTestDatabase, TestDatabase, waitFor, describeWith } from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { PostgresEventStore } from './postgres-event-store';

/**
 * The NOTIFY after appends is for other processes (ADR 0218): a store alone on the channel stops
 * sending it, and one that starts listening later is heard at once and woken by the next append.
 */
const describeServer = describeWith('postgres');

describeServer('PostgresEventStore NOTIFY only while another process listens', () => {
  let db: TestDatabase;
  const pools: Pool[] = [];
  const stores: PostgresEventStore[] = [];
  beforeAll(async () => {
    db = await createTestDatabase('postgres', { migrate: false });
  });
  afterAll(async () => {
    for (const s of stores) await s.close();
    for (const p of pools) await p.end();
    await db.close();
  });

  /** A store as another process would have it: its own pool and LISTEN connection. */
  const processStore = async () => {
    const pool = new Pool({ connectionString: db.url, max: 2 });
    pools.push(pool);
    const store = await PostgresEventStore.create({ pool, listenConnectionString: db.url });
    stores.push(store);
    return store;
  };
  const event = () => [{ id: randomUUID(), type: 'Noted', data: {}, metadata: { environment: 'development', schema_version: 1 } }];

  it('alone it stops notifying; a newcomer is heard, and each wakes the other with its appends', async () => {
    const a = await processStore();
    await waitFor(() => !a.notifyingOthers, 'the lone store to stop notifying');

    const b = await processStore();
    await waitFor(() => a.notifyingOthers, 'the first store to hear the newcomer');
    const wokenB: (string | undefined)[] = [];
    b.onAppended((position) => wokenB.push(position));
    await a.append(`a-${randomUUID()}`, event());
    // A hint from another process carries no position (the store's own appends carry theirs).
    await waitFor(() => wokenB.includes(undefined), 'the newcomer to be woken by the other process');

    // The newcomer heard the first store answer: it keeps notifying after its quiet wait too.
    const wokenA: (string | undefined)[] = [];
    a.onAppended((position) => wokenA.push(position));
    await b.append(`b-${randomUUID()}`, event());
    await waitFor(() => wokenA.includes(undefined), 'the first store to be woken by the newcomer');
    expect(b.notifyingOthers).toBe(true);
  });
});
