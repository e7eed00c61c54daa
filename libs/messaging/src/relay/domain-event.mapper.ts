import type { RecordedEvent } from '@notify/eventstore';
import { DOMAIN_EVENT_ENVELOPE_V1, domainEventEnvelopeV1 } from '../envelopes/domain-event.v1';
import { recordHeaders } from '../envelopes/headers';
import { KafkaTopics } from '../topics';
import { OutboundRecord } from './outbound-record';
import { RelayMapper } from './relay-mapper';

/** Every domain event, as it is in the log, keyed by stream id. */
export function domainEventRecord(event: RecordedEvent, topic: string): OutboundRecord {
  return {
    topic,
    key: event.streamId,
    value: domainEventEnvelopeV1(event),
    headers: recordHeaders({
      eventId: event.id,
      eventType: event.type,
      schemaVersion: event.metadata.schema_version,
      environment: event.metadata.environment,
      envelope: DOMAIN_EVENT_ENVELOPE_V1,
      trace: event.metadata,
    }),
  };
}

export class DomainEventMapper implements RelayMapper {
  readonly name = 'domain-events';
  readonly eventTypes = '*' as const;

  map(event: RecordedEvent, topics: KafkaTopics): OutboundRecord[] {
    return [domainEventRecord(event, topics.events)];
  }
}
