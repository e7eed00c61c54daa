import { fold, UserEvent, userDecider, userStream } from '@notify/domain';
import { PostgresEventStore } from '@notify/eventstore';
import { appendBetween, createTestDatabase, databaseBackends, TestDatabase } from '@notify/testing';
import { toDomainEvent } from '../handle-command';
import { RecipientDeps } from './ports';
import { identifyUser, mergeUser, updateUserAspects } from './user-use-cases';

const meta = { environment: 'test', actor: 'test' };

for (const backend of databaseBackends()) {
  describe(`merging users on ${backend}`, () => {
    let db: TestDatabase;
    let store: PostgresEventStore;
    const deps = (s: RecipientDeps['store']): RecipientDeps => ({
      store: s,
      channels: { findUsable: async () => undefined },
      subscriptions: { current: async () => new Map() },
    });

    beforeAll(async () => {
      db = await createTestDatabase(backend);
      store = await PostgresEventStore.create({
        pool: db.database.pool,
        listenConnectionString: db.database.supportsNotify ? db.url : undefined,
      });
    });
    afterAll(async () => {
      await store.close();
      await db.close();
    });

    it('merges a write made to the source between reading it and deleting it, instead of deleting it unmerged', async () => {
      await identifyUser(deps(store), 'test', 'ada', { name: 'Ada' }, meta);
      await identifyUser(deps(store), 'test', 'ada-anonymous', {}, meta);
      const source = userStream('test', 'ada-anonymous');
      // The merge has read the source; its delete waits until a preference set reached the source.
      const racing = deps(
        appendBetween(
          store,
          (streamId, events) => streamId === source && events[0]?.type === 'UserDeleted',
          (streamId, events) => streamId === source && events[0]?.type === 'PreferenceSetUpdated',
        ),
      );
      const now = new Date().toISOString();
      await Promise.all([
        mergeUser(racing, 'test', 'ada', 'ada-anonymous', meta),
        updateUserAspects(
          racing,
          'test',
          'ada-anonymous',
          [
            {
              type: 'SetPreferenceSet',
              preferenceSetId: 'default',
              request: { channel_types: { email: false } },
              strategy: 'replace',
              now,
            },
          ],
          meta,
        ),
      ]);

      const state = (streamId: string) => store.readStream(streamId).then((h) => fold(userDecider, h.map(toDomainEvent) as UserEvent[]));
      expect((await state(source)).exists).toBe(false);
      expect((await state(userStream('test', 'ada'))).aspects.preferences.default).toMatchObject({ channel_types: { email: false } });
    });
  });
}
