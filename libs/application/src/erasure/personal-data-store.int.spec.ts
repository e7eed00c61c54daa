import { PostgresEventStore } from '@notify/eventstore';
import { createTestDatabase, readAllWritten, TestDatabase } from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { ErasureKeyStore, erasureSubject } from './erasure-keys';
import { PersonalDataEventStore } from './personal-data-store';
import { ERASED, generateKey } from './personal-fields';

describe('PersonalDataEventStore (Postgres)', () => {
  let db: TestDatabase;
  let raw: PostgresEventStore;
  let store: PersonalDataEventStore;
  let keys: ErasureKeyStore;
  const email = `ada-${randomUUID()}@example.com`;
  const metadata = { environment: 'development', schema_version: 1 };

  beforeAll(async () => {
    db = await createTestDatabase();
    raw = await PostgresEventStore.create({ pool: db.database.pool });
    keys = new ErasureKeyStore(db.database.pool, generateKey());
    store = new PersonalDataEventStore(raw, keys);
  });
  afterAll(async () => {
    await store.close();
    await db.close();
  });

  const identify = (userId: string) => ({
    id: randomUUID(),
    type: 'UserIdentified',
    data: { user_id: userId, properties: { email, phone_number: '+15550100' }, identified_at: '2026-01-01T00:00:00.000Z' },
    metadata,
  });

  it('writes personal fields sealed, reads them in clear, and as erased once the key is destroyed', async () => {
    await store.append('user-development-u1', [identify('u1')]);
    const { rows } = await db.database.pool.query("SELECT count(*)::int AS n FROM es_events WHERE data::text LIKE '%' || $1 || '%'", [
      email,
    ]);
    expect(rows[0].n).toBe(0);
    expect((await store.readStream('user-development-u1'))[0].data).toMatchObject({ user_id: 'u1', properties: { email } });
    // Read back from what this store sealed (ADR 0253), not decrypted.
    expect(store.recent.hits).toBeGreaterThan(0);

    await keys.destroy(erasureSubject('development', 'u1'));
    const [after] = await store.readStream('user-development-u1');
    expect(after.data).toEqual({ user_id: 'u1', properties: ERASED, identified_at: '2026-01-01T00:00:00.000Z' });
    const all = await readAllWritten(store);
    expect(all.some((e) => e.streamId === 'user-development-u1')).toBe(true);
    expect(JSON.stringify(all.map((e) => e.data))).not.toContain(email);
    // The erasure cleared what the store remembered in clear.
    expect(store.recent.size).toBe(0);
  });

  it('seals delivery logs for the subject of the message stream', async () => {
    const messageId = randomUUID();
    const stream = `message-development-${messageId}`;
    const created = {
      id: randomUUID(),
      type: 'MessageCreated',
      data: { message_id: messageId, recipient: { type: 'user', id: 'u2' }, recipient_snapshot: { email }, content: null },
      metadata,
    };
    const completed = {
      id: randomUUID(),
      type: 'MessageDeliveryAttemptCompleted',
      data: { message_id: messageId, logs: [{ request: { body: { to: email } } }] },
      metadata,
    };
    await store.append(stream, [created]);
    await store.append(stream, [completed]);
    const { rows } = await db.database.pool.query("SELECT count(*)::int AS n FROM es_events WHERE data::text LIKE '%' || $1 || '%'", [
      email,
    ]);
    expect(rows[0].n).toBe(0);
    const read = await store.readStreams([stream]);
    expect(read.get(stream)!.map((e) => e.data)).toEqual([created.data, completed.data]);
    await keys.destroy(erasureSubject('development', 'u2'));
    expect((await store.readStream(stream))[1].data).toEqual({ message_id: messageId, logs: ERASED });
  });
});
