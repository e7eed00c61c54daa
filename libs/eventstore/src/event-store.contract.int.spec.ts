import { createTestDatabase, databaseBackends, testEnv, describeWith } from '@notify/testing';
import { EventStoreDbEventStore } from './eventstoredb/eventstoredb-event-store';
import { PostgresEventStore } from './postgres/postgres-event-store';
import { eventStoreContract } from './testing/event-store.contract';

for (const backend of databaseBackends()) {
  describe(`EventStore contract: ${backend === 'postgres' ? 'PostgreSQL server' : 'embedded PostgreSQL (PGlite)'}`, () => {
    eventStoreContract(async () => {
      const db = await createTestDatabase(backend, { migrate: false });
      const store = await PostgresEventStore.create({
        pool: db.database.pool,
        listenConnectionString: db.database.supportsNotify ? db.url : undefined,
      });
      return {
        store,
        close: async () => {
          await store.close();
          await db.close();
        },
      };
    });
  });
}

// EventStoreDB runs when a server is configured; there is no Docker engine here for testcontainers.
const describeEsdb = describeWith('eventstoredb');
describeEsdb(`EventStore contract: EventStoreDB${testEnv.eventStoreDbUrl ? '' : ' (skipped: set EVENTSTORE_CONNECTION_STRING)'}`, () => {
  eventStoreContract(async () => {
    const store = await EventStoreDbEventStore.create(testEnv.eventStoreDbUrl!);
    return { store, close: () => store.close() };
  });
});
