import { PostgresEventStore, RecordedEvent, START } from '@notify/eventstore';
import { ReactorRuntime } from '@notify/projection-runtime';
import {
  createTestDatabase,
  deleteTestTopics,
  kafkaTestSettings,
  readTopicToEnd,
  TestDatabase,
  testEnv,
  describeWith,
} from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { createKafka } from '../kafka-client';
import { DomainEventEnvelopeV1, domainEventEnvelopeV1 } from '../envelopes/domain-event.v1';
import { KafkaSettings } from '../kafka-settings';
import { DomainEventMapper } from './domain-event.mapper';
import { KafkaPublisher } from './kafka-publisher';
import { KafkaRelay } from './kafka-relay';
import { RelayMapperRegistry } from './relay-mapper';

const describeKafka = describeWith('kafka');

function relayFor(settings: KafkaSettings, batchSize: number) {
  return new KafkaRelay(new KafkaPublisher(settings), new RelayMapperRegistry([new DomainEventMapper()]), settings.topics, { batchSize });
}

describeKafka(`Kafka relay against the broker${testEnv.kafkaBrokers ? '' : ' (skipped: set KAFKA_BROKERS)'}`, () => {
  let db: TestDatabase;
  let store: PostgresEventStore;

  beforeAll(async () => {
    db = await createTestDatabase();
    store = await PostgresEventStore.create({ pool: db.database.pool });
  });
  afterAll(async () => {
    await store.close();
    await db.close();
  });

  it('publishes every domain event with its envelope, keyed by stream id, with routing headers', async () => {
    const settings = kafkaTestSettings({ KAFKA_TOPIC_PARTITIONS: '3' });
    const relay = relayFor(settings, 7);
    const tag = randomUUID().slice(0, 8);
    try {
      for (let round = 0; round < 4; round++) {
        for (let s = 0; s < 6; s++) {
          await store.append(`user-dev-${tag}-${s}`, [
            {
              id: randomUUID(),
              type: 'UserIdentified',
              data: { user_id: `${tag}-${s}`, properties: { round }, identified_at: new Date().toISOString() },
              metadata: { environment: 'dev', schema_version: 1, correlation_id: `c-${round}` },
            },
          ]);
        }
      }
      await store.append(`account-${tag}`, [
        {
          id: randomUUID(),
          type: 'ServiceTokenRevoked',
          data: { token_id: randomUUID(), revoked_at: new Date().toISOString() },
          metadata: { environment: null, schema_version: 1 },
        },
      ]);
      // readAll shows a commit only once no older transaction (in any database of the server) is open.
      let stored: RecordedEvent[] = [];
      for (const deadline = Date.now() + 30_000; stored.length < 25 && Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
        stored = (await store.readAll({ maxCount: 10_000 })).events;
      }
      expect(stored).toHaveLength(25);

      const runtime = new ReactorRuntime(store, db.database.dataSource, [relay], { batchSize: 500 });
      expect(await runtime.drain(relay.name)).toBe(stored.length);
      // The relay writes its checkpoint at most every 500 ms (ADR 0281); a clean stop writes it.
      await runtime.stop();
      const [status] = await runtime.status();
      expect(status.position).toBe(await store.headPosition());
      expect(await runtime.lag(relay.name)).toMatchObject({ events: 0, seconds: 0 });

      const admin = createKafka(settings).admin();
      await admin.connect();
      const metadata = await admin.fetchTopicMetadata({ topics: Object.values(settings.topics) });
      await admin.disconnect();
      expect(metadata.topics.map((t) => t.partitions.length)).toEqual([3, 3, 3, 3]);

      const records = await readTopicToEnd(settings, settings.topics.events);
      expect(records).toHaveLength(stored.length);
      const byId = new Map<string, RecordedEvent>(stored.map((e) => [e.id, e]));
      const partitionOfKey = new Map<string, number>();
      const lastRevision = new Map<string, number>();
      for (const record of [...records].sort((a, b) => a.partition - b.partition || a.offset - b.offset)) {
        const event = byId.get(record.headers['event-id'])!;
        expect(event).toBeDefined();
        expect(record.key).toBe(event.streamId);
        expect(record.value).toEqual(JSON.parse(JSON.stringify(domainEventEnvelopeV1(event))));
        expect(() => DomainEventEnvelopeV1.parse(record.value)).not.toThrow();
        expect(record.headers).toMatchObject({
          'event-type': event.type,
          'schema-version': '1',
          envelope: 'notify.domain-event.v1',
          'content-type': 'application/json',
        });
        expect(record.headers.environment).toBe(event.metadata.environment ?? undefined);
        expect(partitionOfKey.get(record.key) ?? record.partition).toBe(record.partition);
        partitionOfKey.set(record.key, record.partition);
        expect(event.revision).toBe((lastRevision.get(record.key) ?? -1) + 1);
        lastRevision.set(record.key, event.revision);
      }
      expect(new Set(partitionOfKey.values()).size).toBeGreaterThan(1);
      expect(records.find((r) => r.value.type === 'ServiceTokenRevoked')!.headers).not.toHaveProperty('environment');
    } finally {
      await relay.close();
      await deleteTestTopics(settings);
    }
  });

  it('does not move the checkpoint while no broker acknowledges', async () => {
    // A port nobody listens on: every connection is refused at once.
    const settings = kafkaTestSettings({ KAFKA_CONNECTION_TIMEOUT_MS: '500' }, '127.0.0.1:1');
    const relay = relayFor(settings, 50);
    const tag = randomUUID().slice(0, 8);
    await store.append(`user-dev-${tag}`, [
      {
        id: randomUUID(),
        type: 'UserDeleted',
        data: { user_id: tag, deleted_at: new Date().toISOString() },
        metadata: { environment: 'dev', schema_version: 1 },
      },
    ]);
    const runtime = new ReactorRuntime(store, db.database.dataSource, [relay], { batchSize: 50 });
    try {
      await expect(runtime.drain(relay.name)).rejects.toThrow();
      const [status] = await runtime.status();
      expect(status).toMatchObject({ position: START, eventsHandled: 0 });
      const lag = await runtime.lag(relay.name);
      expect(lag!.events).toBeGreaterThan(0);
      expect(lag!.seconds).toBeGreaterThanOrEqual(0);
    } finally {
      await relay.close();
    }
  }, 60_000);
});
