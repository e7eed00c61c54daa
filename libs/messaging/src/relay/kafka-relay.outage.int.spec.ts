import { PostgresEventStore } from '@notify/eventstore';
import { ReactorRuntime } from '@notify/projection-runtime';
import {
  checkAtLeastOnce,
  createTestDatabase,
  kafkaTestSettings,
  readTopicToEnd,
  scratchBroker,
  ScratchBroker,
  TestDatabase,
  testEnv,
  describeWith,
} from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { DomainEventMapper } from './domain-event.mapper';
import { KafkaPublisher } from './kafka-publisher';
import { KafkaRelay } from './kafka-relay';
import { RelayMapperRegistry } from './relay-mapper';

/*
 * At least once across broker outages, against a real broker. The broker here is the test's
 * own (scripts/kafka/start.sh on free ports), so killing it does not disturb other test files;
 * it needs what the shared test broker needs (java and the cached jars), hence the same switch.
 */
const describeKafka = describeWith('kafka');

const STREAMS = 50;

async function eventually<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await check();
    if (result) return result;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describeKafka(`Kafka relay across broker outages${testEnv.kafkaBrokers ? '' : ' (skipped: set KAFKA_BROKERS)'}`, () => {
  let broker: ScratchBroker;
  let db: TestDatabase;
  let store: PostgresEventStore;

  beforeAll(async () => {
    broker = await scratchBroker();
    db = await createTestDatabase();
    store = await PostgresEventStore.create({ pool: db.database.pool });
  }, 180_000);
  afterAll(async () => {
    await store?.close();
    await db?.close();
    await broker?.destroy();
  }, 60_000);

  it('loses nothing, keeps per-key order, and duplicates only repeat an event id', async () => {
    const settings = kafkaTestSettings({ KAFKA_TOPIC_PARTITIONS: '4', KAFKA_REQUEST_TIMEOUT_MS: '5000' }, broker.brokers);
    const relay = new KafkaRelay(new KafkaPublisher(settings), new RelayMapperRegistry([new DomainEventMapper()]), settings.topics, {
      batchSize: 25,
    });
    const runtime = new ReactorRuntime(store, db.database.dataSource, [relay], { batchSize: 25 });
    const tag = randomUUID().slice(0, 8);
    let appended = 0;
    const append = async (count: number, pauseMs = 0) => {
      for (let i = 0; i < count; i++) {
        const n = appended++;
        await store.append(`run-dev-${tag}-${n % STREAMS}`, [
          {
            id: randomUUID(),
            type: 'StepCompleted',
            data: { n, payload: 'x'.repeat(n % 200) },
            metadata: { environment: 'dev', schema_version: 1 },
          },
        ]);
        if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
      }
    };
    const status = async () => (await runtime.status())[0];
    const checkpointHeldWhileDown = async () => {
      await eventually('the relay to notice the broker is gone', async () => (await status()).lastError !== undefined);
      const before = await status();
      await append(150);
      await new Promise((r) => setTimeout(r, 3000));
      const after = await status();
      expect(after.position).toBe(before.position);
      expect(after.eventsHandled).toBe(before.eventsHandled);
      return after.eventsHandled;
    };

    await runtime.start();
    try {
      // Outage 1: the broker crashes (SIGKILL) while events are being appended and published.
      const writing = append(400, 2);
      await eventually('the relay to publish part of the stream', async () => (await status()).eventsHandled >= 100);
      await broker.kill();
      await writing;
      const heldAt = await checkpointHeldWhileDown();
      await broker.start();
      await eventually('the relay to resume publishing', async () => (await status()).eventsHandled > heldAt);

      // Outage 2: a controlled shutdown (scripts/kafka/stop.sh) while new events are being published.
      const resumedAt = (await status()).eventsHandled;
      const writing2 = append(300, 2);
      await eventually('the relay to publish more', async () => (await status()).eventsHandled >= resumedAt + 50);
      await broker.stop();
      await writing2;
      await checkpointHeldWhileDown();
      await broker.start();
      await append(200);

      // readAll (and so the relay) shows a commit once no older transaction on the server is open.
      await eventually('every append to be readable', async () => (await store.readAll({ maxCount: 100_000 })).events.length === appended);
      await eventually('the relay to catch up with the log', async () => (await runtime.lag(relay.name))?.events === 0, 120_000);
    } finally {
      await runtime.stop();
      await relay.close();
    }

    const stored = (await store.readAll({ maxCount: 100_000 })).events;
    expect(stored).toHaveLength(appended);
    const consumed = await readTopicToEnd(settings, settings.topics.events);
    const { duplicates } = checkAtLeastOnce(stored, consumed);
    expect(consumed).toHaveLength(stored.length + duplicates);
    process.stdout.write(`outage test: ${stored.length} stored, ${consumed.length} consumed, ${duplicates} duplicates\n`);
  }, 300_000);
});
