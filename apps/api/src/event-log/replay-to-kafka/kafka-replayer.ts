import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { CommandMetadata, recordLogReplay } from '@notify/application';
import { APP_CONFIG, AppConfig } from '@notify/config';
import { replayToKafkaRoute, ReplayToKafkaResultT, RouteInput } from '@notify/contracts';
import { DomainError } from '@notify/domain';
import { EventStore, isLogRangeLocator, RecordedEvent } from '@notify/eventstore';
import { Logger, LOGGER } from '@notify/logging';
import { KafkaPublisher, kafkaSettingsFrom, logRelayMappers, RelayMapperRegistry, replayLogToKafka } from '@notify/messaging';
import { EVENT_STORE } from '@notify/platform';
import { randomUUID } from 'node:crypto';

type ReplayRequest = RouteInput<typeof replayToKafkaRoute>['body'];

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
    this.registry = new RelayMapperRegistry(logRelayMappers(store, { erasureTombstones: config.KAFKA_ERASURE_TOMBSTONES }));
  }

  async replay(request: ReplayRequest, metadata: CommandMetadata): Promise<ReplayToKafkaResultT> {
    const settings = kafkaSettingsFrom(this.config);
    if (!settings) throw new DomainError('kafka_not_configured', 'Kafka is off here (KAFKA_BROKERS is not set)', 'invalid_request');
    const window = await this.window(request);
    this.publisher ??= new KafkaPublisher(settings, { role: 'replay', logger: this.logger.child({ component: 'kafka-replay' }) });
    const replayId = randomUUID();
    const outcome = window
      ? await replayLogToKafka(this.store, this.registry, settings.topics, this.publisher, { ...window, limit: request.limit, replayId })
      : { events: 0, records: 0, last: null, next: null };
    this.logger.info({ replayId, ...request, events: outcome.events }, 'replayed a range of the log to kafka');
    const result = {
      replay_id: replayId,
      events: outcome.events,
      records: outcome.records,
      last_position: outcome.last,
      next_from: outcome.next,
    };
    // A management action like any other: recorded in the log, with who asked (issue 18).
    await recordLogReplay(
      this.store,
      {
        ...result,
        from: window?.from ?? '',
        to: window?.to ?? '',
        replayed_at: new Date().toISOString(),
        ...(request.from_global_position !== undefined
          ? { from_global_position: request.from_global_position, to_global_position: request.to_global_position }
          : {}),
        ...(request.since !== undefined ? { since: request.since, until: request.until } : {}),
      },
      metadata,
    );
    return result;
  }

  /**
   * The positions to scan and which events in them to publish (ADR 0198): a global-position or
   * time range is located in commit order first, and narrowed by `from`/`to` when given; null when
   * it holds no event.
   */
  private async window(request: ReplayRequest): Promise<{ from: string; to: string; match?: (e: RecordedEvent) => boolean } | null> {
    const byGlobal = request.from_global_position !== undefined && request.to_global_position !== undefined;
    const byTime = request.since !== undefined && request.until !== undefined;
    if (!byGlobal && !byTime) return { from: request.from!, to: request.to! };
    if (!isLogRangeLocator(this.store))
      throw new DomainError('not_supported', 'This event store replays by position only (`from`, `to`)', 'invalid_request');
    const globalPositions = byGlobal ? { from: BigInt(request.from_global_position!), to: BigInt(request.to_global_position!) } : undefined;
    const times = byTime ? { from: new Date(request.since!), to: new Date(request.until!) } : undefined;
    const located = await this.store.locateRange({ globalPositions, times });
    if (!located) return null;
    const from = request.from !== undefined && request.from > located.first ? request.from : located.first;
    const to = request.to !== undefined && request.to < located.last ? request.to : located.last;
    if (from > to) return null;
    return {
      from,
      to,
      match: (e) =>
        (!globalPositions || (e.globalPosition >= globalPositions.from && e.globalPosition <= globalPositions.to)) &&
        (!times || (e.createdAt >= times.from && e.createdAt <= times.to)),
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.publisher?.close();
  }
}
