import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@notify/config';
import { Logger, LOGGER } from '@notify/logging';
import {
  KafkaPublisher,
  kafkaOffPublisher,
  KafkaRelay,
  kafkaSettingsFrom,
  kafkaTopics,
  RelayMapper,
  RelayMapperRegistry,
} from '@notify/messaging';
import { kafkaPartitioning } from '../engine/partitioning';
import { RELAY_MAPPERS } from './relay-mappers';

/**
 * The relay as the worker runs it: on when KAFKA_BROKERS is set (and KAFKA_RELAY_ENABLED is not
 * false). When workers share runs through Kafka, only the worker elected by the run-work group
 * (the owner of partition 0) runs it (RunWorkService, ADR 0059), so the worker's own reactor
 * runtime leaves it out.
 */
@Injectable()
export class KafkaRelayReactor extends KafkaRelay implements OnApplicationShutdown {
  /** Run by the member of the run-work group that owns partition 0, not by every worker. */
  readonly electedByPartitionZero: boolean;

  constructor(@Inject(APP_CONFIG) config: AppConfig, @Inject(LOGGER) logger: Logger, @Inject(RELAY_MAPPERS) mappers: RelayMapper[]) {
    const settings = kafkaSettingsFrom(config);
    const log = logger.child({ component: 'kafka-relay' });
    super(
      settings ? new KafkaPublisher(settings, { logger: log }) : kafkaOffPublisher,
      new RelayMapperRegistry(mappers),
      settings?.topics ?? kafkaTopics(config.KAFKA_TOPIC_PREFIX),
      {
        startFrom: config.KAFKA_RELAY_START_FROM,
        batchSize: config.KAFKA_RELAY_BATCH_SIZE,
        enabled: settings !== undefined && config.KAFKA_RELAY_ENABLED && !kafkaPartitioning(config),
      },
    );
    this.electedByPartitionZero = settings !== undefined && config.KAFKA_RELAY_ENABLED && kafkaPartitioning(config);
  }

  /** After the runtime stopped (beforeApplicationShutdown), so no batch is mid-send. */
  onApplicationShutdown(): Promise<void> {
    return this.close();
  }
}
