import { AppConfig } from '@notify/config';

/** Whether runs are shared among workers through Kafka (KAFKA_BROKERS set and ENGINE_KAFKA_PARTITIONING on). */
export function kafkaPartitioning(config: AppConfig): boolean {
  return Boolean(config.KAFKA_BROKERS) && config.ENGINE_KAFKA_PARTITIONING;
}

/** The name (checkpoint) of the reactor that executes runs from the log when Kafka does not share them. */
export const RUN_EXECUTOR_REACTOR = 'engine-runs';
export const FANOUT_REACTOR = 'engine-fanout';

/** The run-work consumer group: one per deployment, by default named after its topics. */
export function runWorkGroupId(config: AppConfig): string {
  return config.ENGINE_KAFKA_GROUP_ID ?? `${config.KAFKA_TOPIC_PREFIX}engine`;
}
