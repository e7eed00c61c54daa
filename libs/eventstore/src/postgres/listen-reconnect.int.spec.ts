import { createTestDatabase, TestDatabase, waitFor, describeWith } from '@notify/testing';
import { Client } from 'pg';
import { PostgresEventStore } from './postgres-event-store';

/** The LISTEN connection that wakes readers in other processes: lost, it comes back; closed, it stays closed. */
const describeServer = describeWith('postgres');

describeServer('PostgresEventStore LISTEN connection', () => {
  let db: TestDatabase;
  // One plain connection for the test's own queries: a pool would keep idle timers of its own.
  let admin: Client;
  beforeAll(async () => {
    db = await createTestDatabase('postgres', { migrate: false });
    admin = new Client({ connectionString: db.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
    await db.close();
  });

  const listenerPids = async (): Promise<number[]> =>
    (
      await admin.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %' AND pid <> pg_backend_pid()`,
      )
    ).rows.map((r) => r.pid);
  const terminate = (pid: number) => admin.query('SELECT pg_terminate_backend($1)', [pid]);
  const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

  it('listens again after its connection is lost, and a close during the wait leaves no timer to open one', async () => {
    const store = await PostgresEventStore.create({ pool: db.database.pool, listenConnectionString: db.url });
    let before: number;
    try {
      const [first] = await waitFor(async () => {
        const pids = await listenerPids();
        return pids.length === 1 && pids;
      }, 'the LISTEN connection');
      await terminate(first);
      const [second] = await waitFor(async () => {
        const pids = await listenerPids();
        return store.listening && pids.length === 1 && pids[0] !== first && pids;
      }, 'a new LISTEN connection');

      before = timers();
      await terminate(second);
      await waitFor(() => !store.listening, 'the store to see its connection lost');
      // The store now waits before listening again: one timer more.
      expect(timers()).toBe(before + 1);
    } finally {
      await store.close();
    }
    // Closed during that wait: the timer is gone, so nothing opens a connection after close, and
    // nothing keeps the process alive (a jest worker exits by itself).
    expect(timers()).toBe(before);
    expect(store.listening).toBe(false);
  });
});
