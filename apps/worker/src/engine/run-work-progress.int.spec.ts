import { parseConfig } from '@notify/config';
import { PostgresEventStore } from '@notify/eventstore';
import { createKafka, ensureTopics, kafkaSettingsFrom, runWorkDispatcherName } from '@notify/messaging';
import { createTestDatabase, TestDatabase, testEnv, describeWith } from '@notify/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import { FANOUT_REACTOR, RUN_EXECUTOR_REACTOR } from './partitioning';
import { RunWorkProgress } from './run-work-progress';

const describeBoth = describeWith('postgres', 'kafka');

/**
 * The batch closer's wait: a window closes only once the runs due before it were executed. The
 * checkpoints and the consumer group's offsets are set by hand, so each condition is seen alone.
 */
describeBoth('RunWorkProgress (the batch closer waits for the runs due before a window closes)', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    store = await PostgresEventStore.create({ pool: db.database.pool, ensureSchema: true });
  });
  afterAll(async () => {
    await store?.close();
    await db?.close();
  });

  const checkpoint = (name: string, position: string) =>
    db.database.dataSource.query(
      `INSERT INTO reactor_checkpoints (name, position) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET position = excluded.position`,
      [name, position],
    );
  const appendOne = async () =>
    (
      await store.append(`user-development-${randomUUID()}`, [
        { id: randomUUID(), type: 'Probe', data: {}, metadata: { environment: 'development', schema_version: 1 } },
      ])
    ).position;

  it('from the log: waits for the fan-out to pass the timer and the executor to pass the head as it was then', async () => {
    const progress = new RunWorkProgress(store, db.database, parseConfig({}));
    const timer = await appendOne();
    const later = await appendOne();
    const head = await store.newestPosition();
    await checkpoint(FANOUT_REACTOR, '');
    await checkpoint(RUN_EXECUTOR_REACTOR, head);
    expect(await progress.runsThrough(timer)).toBe(false);
    await checkpoint(FANOUT_REACTOR, timer);
    await checkpoint(RUN_EXECUTOR_REACTOR, timer);
    // The executor has not passed `later`, which the log held when the wait began.
    expect(await progress.runsThrough(timer)).toBe(false);
    await checkpoint(RUN_EXECUTOR_REACTOR, later);
    expect(await progress.runsThrough(timer)).toBe(true);
    await progress.onApplicationShutdown();
  });

  it('through Kafka: also waits until the consumer group has committed the work published up to then', async () => {
    const prefix = `test-${randomBytes(4).toString('hex')}.`;
    const config = parseConfig({
      KAFKA_BROKERS: testEnv.kafkaBrokers,
      KAFKA_TOPIC_PREFIX: prefix,
      KAFKA_TOPIC_PARTITIONS: '2',
      KAFKA_CONNECTION_TIMEOUT_MS: '1000',
    });
    const settings = kafkaSettingsFrom(config)!;
    const topic = settings.topics.runWork;
    const kafka = createKafka(settings, { role: 'test' });
    const admin = kafka.admin();
    await admin.connect();
    // Idempotent, so that a retried send under load cannot write a record twice; the offsets the
    // group commits below are still read back from the broker rather than assumed.
    const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    const progress = new RunWorkProgress(store, db.database, config);
    try {
      await ensureTopics(admin, settings);
      await producer.send({
        topic,
        messages: [
          { partition: 0, value: 'a' },
          { partition: 0, value: 'b' },
          { partition: 1, value: 'c' },
        ],
      });
      const timer = await appendOne();
      const head = await store.newestPosition();
      const dispatcher = runWorkDispatcherName(topic);
      await checkpoint(FANOUT_REACTOR, timer);
      await checkpoint(dispatcher, '');
      expect(await progress.runsThrough(timer)).toBe(false); // the dispatcher has not published up to the head
      await checkpoint(dispatcher, head);
      expect(await progress.runsThrough(timer)).toBe(false); // nothing consumed yet
      const groupId = `${prefix}engine`;
      const ends = new Map((await admin.fetchTopicOffsets(topic)).map((p) => [p.partition, p.high]));
      expect(Object.fromEntries(ends)).toEqual({ 0: '2', 1: '1' });
      await admin.setOffsets({ groupId, topic, partitions: [{ partition: 0, offset: ends.get(0)! }] });
      expect(await progress.runsThrough(timer)).toBe(false); // partition 1 not yet
      // Work published after the wait began does not hold the window.
      await producer.send({ topic, messages: [{ partition: 1, value: 'd' }] });
      await admin.setOffsets({ groupId, topic, partitions: [{ partition: 1, offset: ends.get(1)! }] });
      const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
      expect(Object.fromEntries(committed!.partitions.map((p) => [p.partition, p.offset]))).toEqual({ 0: '2', 1: '1' });
      expect(await progress.runsThrough(timer)).toBe(true);
    } finally {
      await progress.onApplicationShutdown();
      await producer.disconnect();
      await admin.deleteTopics({ topics: Object.values(settings.topics) }).catch(() => undefined);
      await admin.disconnect();
    }
  });
});
