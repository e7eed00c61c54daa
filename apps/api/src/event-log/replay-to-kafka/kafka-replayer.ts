import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { CommandMetadata, recordLogReplay } from '@notify/application';
import { APP_CONFIG, AppConfig } from '@notify/config';
import { ReplayToKafkaResultT } from '@notify/contracts';
import { DomainError } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { Logger, LOGGER } from '@notify/logging';
import { KafkaPublisher, kafkaSettingsFrom, logRelayMappers, RelayMapperRegistry, replayLogToKafka } from '@notify/messaging';
import { EVENT_STORE } from '@notify/platform';
import { randomUUID } from 'node:crypto';

/** The api's producer for replays (ADR 0154), opened on the first replay and closed with the app. */
@Injectable()
export class KafkaReplayer implements OnApplicationShutdown {
  private publisher?: KafkaPublisher;
  private readonly registry: RelayMapperRegistry;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {
    this.registry = new RelayMapperRegistry(logRelayMappers(store));
  }

  async replay(range: { from: string; to: string; limit: number }, metadata: CommandMetadata): Promise<ReplayToKafkaResultT> {
    const settings = kafkaSettingsFrom(this.config);
    if (!settings) throw new DomainError('kafka_not_configured', 'Kafka is off here (KAFKA_BROKERS is not set)', 'invalid_request');
    this.publisher ??= new KafkaPublisher(settings, { role: 'replay', logger: this.logger.child({ component: 'kafka-replay' }) });
    const replayId = randomUUID();
    const outcome = await replayLogToKafka(this.store, this.registry, settings.topics, this.publisher, { ...range, replayId });
    this.logger.info({ replayId, ...range, events: outcome.events }, 'replayed a range of the log to kafka');
    const result = {
      replay_id: replayId,
      events: outcome.events,
      records: outcome.records,
      last_position: outcome.last,
      next_from: outcome.next,
    };
    // A management action like any other: recorded in the log, with who asked (issue 18).
    await recordLogReplay(this.store, { ...result, from: range.from, to: range.to, replayed_at: new Date().toISOString() }, metadata);
    return result;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.publisher?.close();
  }
}
