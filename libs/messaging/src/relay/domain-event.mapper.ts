import type { RecordedEvent, SealedForms } from '@notify/eventstore';
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

/**
 * Every event to `events.v1` as the log holds it. Over a store that opens sealed personal fields
 * on read (ADR 0180), the relay's events arrive opened: their sealed form is asked for once per
 * batch, so a personal value never reaches the topic in clear and reads as erased there too once
 * its subject's key is destroyed (ADR 0182).
 */
export class DomainEventMapper implements RelayMapper {
  readonly name = 'domain-events';
  readonly eventTypes = '*' as const;
  /** By event object, so batches mapped at once (two replays) never see each other's. */
  private readonly logged = new WeakMap<RecordedEvent, unknown>();

  constructor(private readonly sealed?: SealedForms) {}

  async prepare(events: readonly RecordedEvent[]): Promise<void> {
    if (!this.sealed) return;
    for (const [event, data] of await this.sealed.sealedForms(events)) this.logged.set(event, data);
  }

  map(event: RecordedEvent, topics: KafkaTopics): OutboundRecord[] {
    if (!this.sealed) return [domainEventRecord(event, topics.events)];
    if (!this.logged.has(event)) throw new Error(`No logged form of event ${event.id} was prepared: not publishing it opened`);
    const data = this.logged.get(event);
    return [domainEventRecord(data === event.data ? event : { ...event, data }, topics.events)];
  }
}
