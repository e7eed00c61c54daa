import { parseConfig } from '@notify/config';
import { kafkaClientConfig, kafkaSettingsFrom } from './kafka-settings';
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
});
