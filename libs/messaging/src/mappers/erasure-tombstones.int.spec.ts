import type { RecordedEvent } from '@notify/eventstore';
import { deleteTestTopics, kafkaTestSettings, readTopicToEnd, waitFor, describeWith } from '@notify/testing';
import { Admin, ConfigResourceTypes } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import { KafkaHeaders } from '../envelopes/headers';
import { recipientKey } from '../envelopes/recipient';
import { createKafka } from '../kafka-client';
import { KafkaSettings } from '../kafka-settings';
import { KafkaPublisher } from '../relay/kafka-publisher';
import { OutboundRecord } from '../relay/outbound-record';
import { ensureTopics } from '../topic-admin';
import { ErasureTombstoneMapper, RECIPIENT_ERASED } from './erasure-tombstone.mapper';

/**
 * ADR 0179 against the broker: with KAFKA_ERASURE_TOMBSTONES the recipient-keyed topics are
 * created compacted, a user's erasure publishes a tombstone under the user's key on each, and the
 * broker's compaction then leaves no record of the user while other recipients' stay.
 */
const describeKafka = describeWith('kafka');

describeKafka('erasure tombstones on the broker', () => {
  let settings: KafkaSettings;
  let admin: Admin;
  let publisher: KafkaPublisher;

  beforeAll(async () => {
    settings = kafkaTestSettings({ KAFKA_TOPIC_PARTITIONS: '1', KAFKA_ERASURE_TOMBSTONES: 'true', KAFKA_MIN_COMPACTION_LAG_MS: '0' });
    admin = createKafka(settings, { role: 'test-admin' }).admin();
    await admin.connect();
    await ensureTopics(admin, settings);
    publisher = new KafkaPublisher(settings);
  });
  afterAll(async () => {
    await publisher?.close();
    await admin?.disconnect();
    if (settings) await deleteTestTopics(settings);
  });

  const cleanupPolicy = async (topic: string) => {
    const described = await admin.describeConfigs({
      resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configNames: ['cleanup.policy'] }],
      includeSynonyms: false,
    });
    return described.resources[0].configEntries.find((e) => e.configName === 'cleanup.policy')?.configValue;
  };
  const sent = (topic: string, user: string): OutboundRecord => ({
    topic,
    key: recipientKey('development', user),
    value: { type: 'message.sent', data: { recipient: user, id: randomUUID() } },
    headers: { [KafkaHeaders.eventId]: randomUUID(), [KafkaHeaders.eventType]: 'message.sent' },
  });

  it('creates the recipient-keyed topics compacted, publishes a tombstone per topic, and compaction removes the user', async () => {
    expect(await cleanupPolicy(settings.topics.messageEvents)).toBe('compact,delete');
    expect(await cleanupPolicy(settings.topics.workflowRunEvents)).toBe('compact,delete');
    expect(await cleanupPolicy(settings.topics.events)).toBe('delete');

    const { messageEvents, workflowRunEvents } = settings.topics;
    await publisher.publish([
      sent(messageEvents, 'alice'),
      sent(messageEvents, 'bob'),
      sent(messageEvents, 'alice'),
      sent(workflowRunEvents, 'alice'),
    ]);
    const erased = {
      id: randomUUID(),
      type: 'UserErased',
      streamId: 'user-development-alice',
      data: { user_id: 'alice', reason: 'asked', erased_at: '2026-11-26T00:00:00.000Z' },
      metadata: { environment: 'development', schema_version: 1 },
    } as unknown as RecordedEvent;
    await publisher.publish(new ErasureTombstoneMapper().map(erased, settings.topics));

    const alice = recipientKey('development', 'alice');
    for (const topic of [messageEvents, workflowRunEvents]) {
      const records = (await readTopicToEnd(settings, topic)).filter((r) => r.key === alice);
      const last = records[records.length - 1];
      expect(last.value).toBeNull();
      expect(last.headers[KafkaHeaders.eventType]).toBe(RECIPIENT_ERASED);
      expect(last.headers[KafkaHeaders.eventId]).toBe(erased.id);
    }

    // Compaction made quick for the test: the broker cleans soon, segments roll at once and a
    // tombstone is dropped right after. A record of another key is published at each look to
    // roll the segment holding the tombstone (the active segment is never compacted).
    await admin.alterConfigs({
      validateOnly: false,
      resources: [
        {
          type: ConfigResourceTypes.TOPIC,
          name: messageEvents,
          // AlterConfigs replaces a topic's whole configuration: what ensureTopics set goes in again.
          configEntries: [
            { name: 'cleanup.policy', value: 'compact,delete' },
            { name: 'min.compaction.lag.ms', value: '0' },
            { name: 'segment.ms', value: '100' },
            { name: 'min.cleanable.dirty.ratio', value: '0.01' },
            { name: 'delete.retention.ms', value: '0' },
          ],
        },
      ],
    });
    await waitFor(
      async () => {
        await publisher.publish([sent(messageEvents, 'roller')]);
        const keys = (await readTopicToEnd(settings, messageEvents)).map((r) => r.key);
        return !keys.includes(alice) && keys.includes(recipientKey('development', 'bob'));
      },
      "the broker's compaction to remove alice's records",
      120_000,
      1_000,
    );
  }, 180_000);

  it('reports an existing topic that is not compacted, and leaves it as it is', async () => {
    const plain = kafkaTestSettings({ KAFKA_TOPIC_PARTITIONS: '1' });
    const prefix = plain.topics.events.replace(/events\.v1$/, '');
    const wanting = kafkaTestSettings({ KAFKA_TOPIC_PARTITIONS: '1', KAFKA_TOPIC_PREFIX: prefix, KAFKA_ERASURE_TOMBSTONES: 'true' });
    try {
      await ensureTopics(admin, plain);
      const reports = await ensureTopics(admin, wanting);
      const byTopic = new Map(reports.map((r) => [r.topic, r]));
      for (const topic of [wanting.topics.messageEvents, wanting.topics.workflowRunEvents]) {
        expect(byTopic.get(topic)).toMatchObject({
          created: false,
          warning: expect.stringContaining('cleanup.policy delete, settings say compact,delete'),
        });
        expect(await cleanupPolicy(topic)).toBe('delete');
      }
      expect(byTopic.get(wanting.topics.events)?.warning).toBeUndefined();
    } finally {
      await deleteTestTopics(plain);
    }
  });
});
