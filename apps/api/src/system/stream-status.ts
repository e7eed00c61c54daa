import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@notify/config';
import { Database } from '@notify/database';
import { EventStore } from '@notify/eventstore';
import { KafkaSettings, kafkaSettingsFrom, kafkaRelayName, probeKafka } from '@notify/messaging';
import { DATABASE, EVENT_STORE } from '@notify/platform';
import { ReactorLag, reactorLag } from '@notify/projection-runtime';

export type KafkaHealth = { status: 'up' | 'down' | 'disabled'; detail?: string };

/**
 * What /readyz and /metrics say about the event stream. Read from the shared database (the
 * relay's checkpoint) and a short-lived broker probe, so any api instance can answer, whichever
 * worker runs the relay.
 */
@Injectable()
export class StreamStatus {
  private readonly settings: KafkaSettings | undefined;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(DATABASE) private readonly database: Database,
  ) {
    this.settings = kafkaSettingsFrom(config);
  }

  get configured(): boolean {
    return this.settings !== undefined;
  }

  async kafka(timeoutMs = 2000): Promise<KafkaHealth> {
    if (!this.settings) return { status: 'disabled' };
    try {
      await probeKafka(this.settings, timeoutMs);
      return { status: 'up' };
    } catch (error) {
      return { status: 'down', detail: (error as Error).message };
    }
  }

  /** undefined when Kafka is off or the relay has not started yet. */
  async relayLag(): Promise<ReactorLag | undefined> {
    if (!this.settings) return undefined;
    return reactorLag(this.store, this.database.dataSource, kafkaRelayName(this.settings.topics));
  }
}
