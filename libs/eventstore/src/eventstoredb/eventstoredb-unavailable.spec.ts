import { isDatabaseUnavailable } from '@notify/database';
import { createServer } from 'node:net';
import { EventStoreUnavailableError } from '../event-store';
import { EventStoreDbEventStore } from './eventstoredb-event-store';

/** A local port nothing listens on: one that was just bound and closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * An EventStoreDB that cannot be reached answers every call with EventStoreUnavailableError,
 * which the HTTP layer turns into 503 `database_unavailable` (as for a Postgres outage), never a
 * raw gRPC error that would answer 500.
 */
describe('EventStoreDB adapter: an unreachable server is an outage, not a failure of the call', () => {
  let store: EventStoreDbEventStore;

  beforeAll(async () => {
    store = await EventStoreDbEventStore.create(`esdb://127.0.0.1:${await closedPort()}?tls=false`);
  });
  afterAll(async () => {
    await store.close();
  });

  it.each([
    [
      'an append',
      () =>
        store.append('user-dev-u1', [
          { id: '9b3c5c52-3f7e-4a8f-8d59-1d2c3b4a5e6f', type: 'UserIdentified', data: {}, metadata: {} as never },
        ]),
    ],
    ['a stream read', () => store.readStream('user-dev-u1')],
    ['a read of the log', () => store.readAll({ maxCount: 10 })],
    ['the head position', () => store.headPosition()],
  ])('%s', async (_what, call) => {
    const error = await call().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(EventStoreUnavailableError);
    expect(isDatabaseUnavailable(error)).toBe(true);
  });
});
