import { Provider } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@notify/config';
import { EventStore } from '@notify/eventstore';
import { logRelayMappers } from '@notify/messaging';
import { EVENT_STORE } from '@notify/platform';

export const RELAY_MAPPERS = Symbol('RELAY_MAPPERS');

/**
 * What the Kafka relay publishes for each logged event: every domain event to
 * `<prefix>events.v1`, MessageEvents to `<prefix>message-events.v1` and workflow run events to
 * `<prefix>workflow-run-events.v1` (both keyed by recipient, folded from the log). The same list
 * as a replay to Kafka uses (`logRelayMappers`), so both publish the same records.
 */
export const relayMappersProvider: Provider = {
  provide: RELAY_MAPPERS,
  inject: [EVENT_STORE, APP_CONFIG],
  useFactory: (store: EventStore, config: AppConfig) => logRelayMappers(store, { erasureTombstones: config.KAFKA_ERASURE_TOMBSTONES }),
};
