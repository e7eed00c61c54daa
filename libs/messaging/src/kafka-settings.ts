import type { AppConfig } from '@notify/config';
import { KafkaConfig, SASLOptions } from 'kafkajs';
import { KafkaTopics, kafkaTopics } from './topics';

/** Everything the Kafka side reads from the configuration, in one typed object. */
export interface KafkaSettings {
  brokers: string[];
  clientId: string;
  topics: KafkaTopics;
  partitions: number;
  /** undefined: the broker's default.replication.factor. */
  replicationFactor?: number;
  minInsyncReplicas?: number;
  retentionMs?: number;
  /**
   * ADR 0179: a user's erasure publishes tombstones on the recipient-keyed topics, which are
   * created compacted (`compact,delete`) with records kept whole for `minCompactionLagMs` first.
   */
  erasureTombstones: boolean;
  minCompactionLagMs: number;
  createTopics: boolean;
  maxRequestBytes: number;
  connectionTimeoutMs: number;
  requestTimeoutMs: number;
  ssl: boolean;
  sasl?: { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string };
}

/** undefined when KAFKA_BROKERS is unset: Kafka is off. */
export function kafkaSettingsFrom(config: AppConfig): KafkaSettings | undefined {
  if (!config.KAFKA_BROKERS) return undefined;
  return {
    brokers: config.KAFKA_BROKERS.split(',').map((b) => b.trim()),
    clientId: config.KAFKA_CLIENT_ID,
    topics: kafkaTopics(config.KAFKA_TOPIC_PREFIX),
    partitions: config.KAFKA_TOPIC_PARTITIONS,
    replicationFactor: config.KAFKA_REPLICATION_FACTOR,
    minInsyncReplicas: config.KAFKA_MIN_INSYNC_REPLICAS,
    retentionMs: config.KAFKA_RETENTION_MS,
    erasureTombstones: config.KAFKA_ERASURE_TOMBSTONES,
    minCompactionLagMs: config.KAFKA_MIN_COMPACTION_LAG_MS,
    createTopics: config.KAFKA_CREATE_TOPICS,
    maxRequestBytes: config.KAFKA_MAX_REQUEST_BYTES,
    connectionTimeoutMs: config.KAFKA_CONNECTION_TIMEOUT_MS,
    requestTimeoutMs: config.KAFKA_REQUEST_TIMEOUT_MS,
    ssl: config.KAFKA_SSL,
    sasl:
      config.KAFKA_SASL_MECHANISM && config.KAFKA_SASL_USERNAME && config.KAFKA_SASL_PASSWORD
        ? { mechanism: config.KAFKA_SASL_MECHANISM, username: config.KAFKA_SASL_USERNAME, password: config.KAFKA_SASL_PASSWORD }
        : undefined,
  };
}

/** The kafkajs client options for these settings (no connection is made here). */
export function kafkaClientConfig(settings: KafkaSettings, clientIdSuffix?: string): KafkaConfig {
  return {
    clientId: clientIdSuffix ? `${settings.clientId}-${clientIdSuffix}` : settings.clientId,
    brokers: settings.brokers,
    connectionTimeout: settings.connectionTimeoutMs,
    requestTimeout: settings.requestTimeoutMs,
    ssl: settings.ssl,
    sasl: settings.sasl as SASLOptions | undefined,
  };
}
