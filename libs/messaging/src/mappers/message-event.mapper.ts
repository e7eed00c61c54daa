import type { RecordedEvent } from '@notify/eventstore';
import { v5 as uuidv5 } from 'uuid';
import { messageEventRecord } from '../relay/knock-event.records';
import { OutboundRecord } from '../relay/outbound-record';
import { RelayMapper } from '../relay/relay-mapper';
import { KafkaTopics } from '../topics';
import { messageEventData, messageView, publicMessageEventType } from './message-view';
import { StreamHistories, StreamReader } from './stream-histories';

/** Every logged message event that is reported publicly (attempt bookkeeping and timers are not). */
export const MESSAGE_SOURCE_EVENT_TYPES = [
  'MessageCreated',
  'MessageSent',
  'MessageDelivered',
  'MessageDeliveryAttempted',
  'MessageUndelivered',
  'MessageNotSent',
  'MessageBounced',
  'MessageSeen',
  'MessageUnseen',
  'MessageRead',
  'MessageUnread',
  'MessageInteracted',
  'MessageLinkClicked',
  'MessageArchived',
  'MessageUnarchived',
] as const;

const QUEUED_NAMESPACE = '5f0b1c8e-7a44-4c1e-9f3a-2b6d8e1a4c70';
/** The event id of the message.queued record a MessageCreated also yields: derived, so copies repeat it. */
export const queuedEventId = (createdEventId: string) => uuidv5(createdEventId, QUEUED_NAMESPACE);

/**
 * Knock MessageEvents on `<prefix>message-events.v1`: for each message event in the log, the
 * message as its stream reads up to that event, keyed by recipient. MessageCreated yields
 * `message.created` and then `message.queued` (the message enters the delivery queue; its
 * status is `queued` in both), the latter with a derived event id so each record has its own.
 */
export class MessageEventMapper implements RelayMapper {
  readonly name = 'message-events';
  readonly eventTypes = MESSAGE_SOURCE_EVENT_TYPES;
  private readonly histories: StreamHistories;

  constructor(reader: StreamReader) {
    this.histories = new StreamHistories(reader);
  }

  async prepare(events: readonly RecordedEvent[]): Promise<void> {
    await this.histories.load(events.filter((e) => e.streamId.startsWith('message-')).map((e) => e.streamId));
  }

  async map(event: RecordedEvent, topics: KafkaTopics): Promise<OutboundRecord[]> {
    const type = publicMessageEventType(event.type);
    const environment = event.metadata.environment;
    if (!type || !environment || !event.streamId.startsWith('message-')) return [];
    const data = messageView(await this.histories.upTo(event.streamId, event.revision), environment);
    if (!data) return [];
    const envelope = {
      __typename: 'Event' as const,
      type,
      created_at: event.createdAt.toISOString(),
      environment,
      data,
      event_data: messageEventData(event),
    };
    const records = [messageEventRecord(event, topics.messageEvents, envelope)];
    if (event.type === 'MessageCreated') {
      records.push(
        messageEventRecord({ ...event, id: queuedEventId(event.id) }, topics.messageEvents, { ...envelope, type: 'message.queued' }),
      );
    }
    return records;
  }
}
