import { createTestDatabase, TestDatabase, waitFor, describeWith } from '@notify/testing';
import { Database } from './database';

/** Connection churn: what the pool keeps open when a burst is over. Needs a server (the embedded database has one connection). */
const describeServer = describeWith('postgres');

describeServer('Database pool', () => {
  let db: TestDatabase;
  const opened: Database[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('postgres', { migrate: false, poolSize: 1 });
  });
  afterAll(async () => {
    for (const d of opened) await d.close();
    await db.close();
  });

  /**
   * Four connections opened at once by a burst: all four held together (checked out before any is
   * given back, however slowly the machine connects), then returned; idle ones may close after 100 ms.
   */
  async function burst(options: { minIdle?: number }): Promise<Database> {
    const database = await Database.open({ url: db.url, poolSize: 4, idleTimeoutMs: 100, entities: [], migrations: [], ...options });
    opened.push(database);
    const clients = await Promise.all(Array.from({ length: 4 }, () => database.pool.connect()));
    try {
      await Promise.all(clients.map((c) => c.query('SELECT 1')));
      expect(database.pool.totalCount).toBe(4);
    } finally {
      for (const c of clients) c.release();
    }
    return database;
  }

  it('keeps every connection it opened by default (a fixed-size pool once warm)', async () => {
    const database = await burst({});
    // Five idle timeouts pass (a slower machine only makes them more): none is closed.
    await new Promise((r) => setTimeout(r, 500));
    expect(database.pool.totalCount).toBe(4);
  });

  it('keeps an error listener on every connection, also one handed out and not yet used', async () => {
    const database = await Database.open({ url: db.url, poolSize: 2, entities: [], migrations: [] });
    opened.push(database);
    const client = await database.pool.connect();
    try {
      // What a connection terminated between pg-pool handing it out and its user listening does.
      expect(() =>
        client.emit('error', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })),
      ).not.toThrow();
    } finally {
      client.release(new Error('terminated'));
    }
  });

  it('closes idle connections above DATABASE_POOL_MIN_IDLE', async () => {
    const database = await burst({ minIdle: 1 });
    await waitFor(() => database.pool.totalCount <= 1, 'idle connections above the minimum to close');
    expect(database.pool.totalCount).toBe(1);
  });
});
