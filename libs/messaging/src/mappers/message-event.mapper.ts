import { expandRecorded } from '@notify/contracts';
import type { RecordedEvent } from '@notify/eventstore';
import { uuidV5 as uuidv5 } from '@notify/contracts';
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
 * status is `queued` in both), the latter with a derived event id so each record has its own;
 * one created delivered (ADR 0233) then yields `message.delivered` as a MessageDelivered would.
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
    const environment = event.metadata.environment;
    if (!environment || !event.streamId.startsWith('message-')) return [];
    // A compound entry (a message created delivered, ADR 0233) yields the records of the events it
    // stands for, each with the message as it stood after that event.
    const parts = expandRecorded(event);
    if (!parts.some((p) => publicMessageEventType(p.type))) return [];
    const history = (await this.histories.upTo(event.streamId, event.revision)).flatMap((e) => expandRecorded(e));
    const start = history.length - parts.length;
    const records: OutboundRecord[] = [];
    parts.forEach((part, i) => {
      const type = publicMessageEventType(part.type);
      const data = type && messageView(history.slice(0, start + i + 1), environment);
      if (!type || !data) return;
      const envelope = {
        __typename: 'Event' as const,
        type,
        created_at: event.createdAt.toISOString(),
        environment,
        data,
        event_data: messageEventData(part),
      };
      records.push(messageEventRecord(part, topics.messageEvents, envelope));
      if (part.type === 'MessageCreated') {
        records.push(
          messageEventRecord({ ...part, id: queuedEventId(part.id) }, topics.messageEvents, { ...envelope, type: 'message.queued' }),
        );
      }
    });
    return records;
  }
}
