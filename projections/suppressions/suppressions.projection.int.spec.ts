import { RecordedEvent } from '@notify/eventstore';
import { createTestDatabase, TestDatabase, describeWith } from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { suppressionsProjection } from './suppressions.projection';

const describeOnPostgres = describeWith('postgres');

/** Erasing a user removes the user's suppressed addresses from the read model at once, not at the next rebuild. */
describeOnPostgres('suppressions read model', () => {
  let db: TestDatabase;
  let position = 0n;
  const at = '2030-01-01T10:00:00.000Z';
  const event = (type: string, data: Record<string, unknown>): RecordedEvent => {
    position++;
    return {
      id: randomUUID(),
      type,
      streamId: `test-${position}`,
      revision: 0,
      globalPosition: position,
      position: String(position).padStart(20, '0'),
      data,
      metadata: { environment: 'dev', schema_version: 1 },
      createdAt: new Date(at),
    };
  };
  const suppressed = (address: string, user: string | null) =>
    event('AddressSuppressed', { address, user_id: user, at, reason: 'hard_bounce', message_id: null, source: 'resend', detail: null });
  const addresses = async () =>
    (await db.database.dataSource.query<{ address: string }[]>('SELECT address FROM rm_suppressions ORDER BY address')).map(
      (r) => r.address,
    );

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    await db?.close();
  });

  it("drops the erased user's addresses and keeps the others'", async () => {
    await db.database.dataSource.transaction((tx) =>
      suppressionsProjection.apply(
        [
          suppressed('ada@example.org', 'ada'),
          suppressed('+15550001', 'ada'),
          suppressed('bob@example.org', 'bob'),
          suppressed('x@y.z', null),
        ],
        tx,
      ),
    );
    expect(await addresses()).toEqual(['+15550001', 'ada@example.org', 'bob@example.org', 'x@y.z']);
    await db.database.dataSource.transaction((tx) =>
      suppressionsProjection.apply([event('UserErased', { user_id: 'ada', reason: 'asked', erased_at: at })], tx),
    );
    expect(await addresses()).toEqual(['bob@example.org', 'x@y.z']);
  });
});
