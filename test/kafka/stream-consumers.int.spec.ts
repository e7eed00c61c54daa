import { RecordedEvent } from '@notify/eventstore';
import { domainEventRecord, KafkaPublisher } from '@notify/messaging';
import { deleteTestTopics, kafkaTestSettings, testEnv, describeWith } from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { runConsumer, SeenIds, StreamEvent } from '../../examples/kafka-consumer';
import { cliCommand } from '../support/cli';

const describeKafka = describeWith('kafka');

function event(stream: string, revision: number): RecordedEvent {
  return {
    id: randomUUID(),
    type: 'UserIdentified',
    streamId: stream,
    revision,
    globalPosition: BigInt(revision),
    position: '',
    data: { user_id: stream, properties: { revision }, identified_at: '2026-01-01T00:00:00.000Z' },
    metadata: { environment: 'dev', schema_version: 1 },
    createdAt: new Date('2026-01-01T00:00:00.000Z'),
  };
}

describeKafka(`consuming the stream${testEnv.kafkaBrokers ? '' : ' (skipped: set KAFKA_BROKERS)'}`, () => {
  const settings = testEnv.kafkaBrokers ? kafkaTestSettings({ KAFKA_TOPIC_PARTITIONS: '2' }) : undefined!;
  const prefix = settings?.topics.events.replace(/events\.v1$/, '');
  const streams = ['user-dev-a', 'user-dev-b', 'user-dev-c'];
  const events = streams.flatMap((s) => [0, 1, 2, 3].map((r) => event(s, r)));
  // A relay that crashed after publishing but before checkpointing publishes a batch again.
  const replayed = events.filter((e) => e.streamId === 'user-dev-a' && e.revision >= 2);

  beforeAll(async () => {
    const publisher = new KafkaPublisher(settings);
    await publisher.publish(events.map((e) => domainEventRecord(e, settings.topics.events)));
    await publisher.publish(replayed.map((e) => domainEventRecord(e, settings.topics.events)));
    await publisher.close();
  });
  afterAll(async () => {
    if (settings) await deleteTestTopics(settings);
  });

  it('the consumer example handles each event once, in order per key', async () => {
    const handled: StreamEvent[] = [];
    const duplicates: StreamEvent[] = [];
    const controller = new AbortController();
    const done = () => handled.length === events.length && duplicates.length === replayed.length && controller.abort();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      runConsumer({
        brokers: settings.brokers,
        topic: settings.topics.events,
        groupId: `example-${randomUUID()}`,
        seen: new SeenIds(1000),
        signal: controller.signal,
        handle: async (e) => void (handled.push(e), done()),
        onDuplicate: (e) => void (duplicates.push(e), done()),
      }),
      new Promise(
        (_, reject) => (timer = setTimeout(() => reject(new Error(`handled ${handled.length}, duplicates ${duplicates.length}`)), 45_000)),
      ),
    ]).finally(() => clearTimeout(timer));
    expect(handled.map((e) => e.id).sort()).toEqual(events.map((e) => e.id).sort());
    expect(duplicates.map((e) => e.id).sort()).toEqual(replayed.map((e) => e.id).sort());
    for (const stream of streams) {
      expect(handled.filter((e) => e.key === stream).map((e) => e.value.revision)).toEqual([0, 1, 2, 3]);
    }
    expect(handled[0]).toMatchObject({ type: 'UserIdentified', environment: 'dev', schemaVersion: 1 });
  });

  it('SeenIds forgets the oldest ids beyond its window', () => {
    const seen = new SeenIds(2);
    expect([seen.firstTime('a'), seen.firstTime('a'), seen.firstTime('b'), seen.firstTime('c'), seen.firstTime('a')]).toEqual([
      true,
      false,
      true,
      true,
      true,
    ]);
  });

  const cli = async (...argv: string[]) => {
    const { code, out, err } = await cliCommand(
      { KAFKA_BROKERS: testEnv.kafkaBrokers, KAFKA_TOPIC_PREFIX: prefix, KAFKA_TOPIC_PARTITIONS: '2' },
      ...argv,
    );
    return { code, lines: out.split('\n').filter(Boolean), err };
  };

  it('`kafka tail --from-beginning` prints every record with key, headers and envelope', async () => {
    const total = events.length + replayed.length;
    const { code, lines, err } = await cli('kafka', 'tail', '--from-beginning', '--max-messages', String(total));
    expect({ code, err }).toEqual({ code: 0, err: expect.stringContaining(`tailing ${settings.topics.events} from the beginning`) });
    const records = lines.map((l) => JSON.parse(l));
    expect(records).toHaveLength(total);
    for (const r of records) {
      expect(r).toMatchObject({
        topic: settings.topics.events,
        partition: expect.any(Number),
        offset: expect.any(String),
        headers: { 'event-type': 'UserIdentified', environment: 'dev' },
      });
      expect(r.key).toBe(r.value.stream_id);
      expect(r.headers['event-id']).toBe(r.value.id);
    }
    const values = await cli('kafka', 'tail', '--topic', 'events', '--from-beginning', '-n', '2', '--format', 'value');
    expect(values.lines.map((l) => JSON.parse(l))).toEqual([
      expect.objectContaining({ type: 'UserIdentified', revision: expect.any(Number) }),
      expect.objectContaining({ type: 'UserIdentified' }),
    ]);
  });

  it('`kafka topics` shows the three topics and their partitions', async () => {
    const { code, lines } = await cli('kafka', 'topics');
    expect(code).toBe(0);
    expect(lines.map((l) => JSON.parse(l))).toEqual(
      Object.values(settings.topics).map((topic) => ({ topic, exists: true, partitions: 2, wanted_partitions: 2 })),
    );
  });

  it('`kafka tail` without KAFKA_BROKERS says Kafka is off', async () => {
    const { code, err } = await cliCommand({}, 'kafka', 'tail');
    expect(code).toBe(2);
    expect(err).toContain('KAFKA_BROKERS is not set');
  });
});
