import { parseConfig } from '@notify/config';
import { kafkaClientConfig, kafkaSettingsFrom } from './kafka-settings';
import type { EventStore, RecordedEvent } from '@notify/eventstore';
import { recipientKey } from './envelopes/recipient';
import { ErasureTombstoneMapper } from './mappers/erasure-tombstone.mapper';
import { logRelayMappers } from './relay/replay';
import { topicConfigs } from './topic-admin';
import { resolveTopic } from './topics';

describe('Kafka settings', () => {
  it('are absent when no broker is configured (Kafka off)', () => {
    expect(kafkaSettingsFrom(parseConfig({}))).toBeUndefined();
  });

  it('turn the configuration into client options and topic specs', () => {
    const settings = kafkaSettingsFrom(
      parseConfig({
        KAFKA_BROKERS: 'k1:9092,k2:9093',
        KAFKA_TOPIC_PREFIX: 'x.',
        KAFKA_TOPIC_PARTITIONS: '3',
        KAFKA_RETENTION_MS: '-1',
        KAFKA_SASL_MECHANISM: 'plain',
        KAFKA_SASL_USERNAME: 'u',
        KAFKA_SASL_PASSWORD: 'p',
        KAFKA_SSL: 'yes',
      }),
    )!;
    expect(kafkaClientConfig(settings, 'relay')).toMatchObject({
      clientId: 'notify-relay',
      brokers: ['k1:9092', 'k2:9093'],
      ssl: true,
      sasl: { mechanism: 'plain', username: 'u', password: 'p' },
    });
    expect(topicConfigs(settings)).toEqual(
      ['x.events.v1', 'x.message-events.v1', 'x.workflow-run-events.v1', 'x.run-work.v1'].map((topic) => ({
        topic,
        numPartitions: 3,
        replicationFactor: -1,
        configEntries: [
          { name: 'cleanup.policy', value: 'delete' },
          { name: 'retention.ms', value: '-1' },
        ],
      })),
    );
    expect(resolveTopic(settings.topics, 'message-events')).toBe('x.message-events.v1');
    expect(resolveTopic(settings.topics, 'someone.elses.topic')).toBe('someone.elses.topic');
  });

  it('with erasure tombstones, create the recipient-keyed topics compacted and relay a tombstone per erased user', () => {
    const settings = kafkaSettingsFrom(
      parseConfig({ KAFKA_BROKERS: 'k1:9092', KAFKA_TOPIC_PREFIX: 'x.', KAFKA_ERASURE_TOMBSTONES: 'true', KAFKA_RETENTION_MS: '86400000' }),
    )!;
    const entries = Object.fromEntries(topicConfigs(settings).map((t) => [t.topic, t.configEntries]));
    const compacted = [
      { name: 'retention.ms', value: '86400000' },
      { name: 'cleanup.policy', value: 'compact,delete' },
      { name: 'min.compaction.lag.ms', value: '604800000' },
    ];
    const deleted = [
      { name: 'cleanup.policy', value: 'delete' },
      { name: 'retention.ms', value: '86400000' },
    ];
    expect(entries).toEqual({
      'x.events.v1': deleted,
      'x.message-events.v1': compacted,
      'x.workflow-run-events.v1': compacted,
      'x.run-work.v1': deleted,
    });
    expect(kafkaSettingsFrom(parseConfig({ KAFKA_BROKERS: 'k1:9092' }))!.erasureTombstones).toBe(false);
    expect(() => parseConfig({ KAFKA_MIN_COMPACTION_LAG_MS: '-1' })).toThrow(/KAFKA_MIN_COMPACTION_LAG_MS/);

    const erased = {
      id: '00000000-0000-4000-8000-000000000009',
      type: 'UserErased',
      streamId: 'user-production-u1',
      data: { user_id: 'u1', reason: null, erased_at: '2026-11-26T00:00:00.000Z' },
      metadata: { environment: 'production', schema_version: 1, traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
    } as unknown as RecordedEvent;
    const mappers = logRelayMappers({} as EventStore, { erasureTombstones: true });
    expect(mappers.map((m) => m.name)).toContain('erasure-tombstones');
    expect(logRelayMappers({} as EventStore).map((m) => m.name)).not.toContain('erasure-tombstones');
    const records = new ErasureTombstoneMapper().map(erased, settings.topics);
    expect(records).toEqual(
      ['x.message-events.v1', 'x.workflow-run-events.v1'].map((topic) => ({
        topic,
        key: 'production:user:u1',
        value: null,
        headers: {
          'event-id': erased.id,
          'event-type': 'recipient.erased',
          'schema-version': '1',
          envelope: 'notify.tombstone',
          environment: 'production',
          traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
        },
      })),
    );
    // The key is the one the user's message and run events were published under.
    expect(records[0].key).toBe(recipientKey('production', 'u1'));
  });
});
