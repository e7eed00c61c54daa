import { createTestDatabase, requireBackend, testEnv, TestDatabase } from '@notify/testing';
import { Database } from './database';

/** Connection churn: what the pool keeps open when a burst is over. Needs a server (the embedded database has one connection). */
requireBackend('postgres', !!testEnv.postgresUrl);
const describeServer = testEnv.postgresUrl ? describe : describe.skip;

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

  async function burstThenIdle(options: { minIdle?: number }): Promise<{ during: number; after: number }> {
    const database = await Database.open({ url: db.url, poolSize: 4, idleTimeoutMs: 100, entities: [], migrations: [], ...options });
    opened.push(database);
    await Promise.all(Array.from({ length: 4 }, () => database.pool.query('SELECT pg_sleep(0.05)')));
    const during = database.pool.totalCount;
    await new Promise((r) => setTimeout(r, 500));
    return { during, after: database.pool.totalCount };
  }

  it('keeps every connection it opened by default (a fixed-size pool once warm)', async () => {
    expect(await burstThenIdle({})).toEqual({ during: 4, after: 4 });
  });

  it('keeps an error listener on every connection, also one handed out and not yet used', async () => {
    const database = await Database.open({ url: db.url, poolSize: 2, entities: [], migrations: [] });
    opened.push(database);
    const client = await database.pool.connect();
    try {
      // What a connection terminated between pg-pool handing it out and its user listening does.
      expect(() => client.emit('error', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).not.toThrow();
    } finally {
      client.release(new Error('terminated'));
    }
  });

  it('closes idle connections above DATABASE_POOL_MIN_IDLE', async () => {
    expect(await burstThenIdle({ minIdle: 1 })).toEqual({ during: 4, after: 1 });
  });
});
