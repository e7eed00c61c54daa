import { AppConfig } from '@notify/config';

/** Whether runs are shared among workers through Kafka (KAFKA_BROKERS set and ENGINE_KAFKA_PARTITIONING on). */
export function kafkaPartitioning(config: AppConfig): boolean {
  return Boolean(config.KAFKA_BROKERS) && config.ENGINE_KAFKA_PARTITIONING;
}

/** The name (checkpoint) of the reactor that executes runs from the log when Kafka does not share them. */
export const RUN_EXECUTOR_REACTOR = 'engine-runs';
export const FANOUT_REACTOR = 'engine-fanout';
