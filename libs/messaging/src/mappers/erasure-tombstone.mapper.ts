import type { RecordedEvent } from '@notify/eventstore';
import { KafkaHeaders, recordHeaders } from '../envelopes/headers';
import { recipientKey } from '../envelopes/recipient';
import { OutboundRecord } from '../relay/outbound-record';
import { RelayMapper } from '../relay/relay-mapper';
import { KafkaTopics } from '../topics';

/** `event-type` of the tombstone a user's erasure publishes; `envelope` names no value shape (there is none). */
export const RECIPIENT_ERASED = 'recipient.erased';
export const TOMBSTONE_ENVELOPE = 'notify.tombstone';

/**
 * With `KAFKA_ERASURE_TOMBSTONES` (ADR 0179): a user's erasure publishes a tombstone (a record with
 * no value) under the user's recipient key on the two recipient-keyed topics, message events and
 * workflow run events. The service creates those topics compacted then, so once the broker has
 * compacted them no record of the user is left (the tombstone itself goes after the topic's
 * `delete.retention.ms`); a downstream consumer that keeps its own copy by recipient takes the
 * tombstone as the signal to drop it. The `events` topic needs none: the personal fields of its
 * records are sealed with the user's key, which the erasure destroyed (ADR 0199).
 */
export class ErasureTombstoneMapper implements RelayMapper {
  readonly name = 'erasure-tombstones';
  readonly eventTypes = ['UserErased'] as const;

  map(event: RecordedEvent, topics: KafkaTopics): OutboundRecord[] {
    const environment = event.metadata.environment;
    const userId = (event.data as { user_id?: unknown }).user_id;
    if (!environment || typeof userId !== 'string') return [];
    const key = recipientKey(environment, userId);
    const headers = recordHeaders({
      eventId: event.id,
      eventType: RECIPIENT_ERASED,
      schemaVersion: 1,
      environment,
      envelope: TOMBSTONE_ENVELOPE,
      trace: event.metadata,
    });
    delete headers[KafkaHeaders.contentType];
    return [topics.messageEvents, topics.workflowRunEvents].map((topic) => ({ topic, key, value: null, headers }));
  }
}
