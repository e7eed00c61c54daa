import { z } from 'zod';
import { RecipientReference } from './recipient';

export const MESSAGE_EVENT_ENVELOPE_V1 = 'notify.message-event.v1';

export const MESSAGE_EVENT_TYPES = [
  'message.created',
  'message.queued',
  'message.sent',
  'message.delivered',
  'message.delivery_attempted',
  'message.undelivered',
  'message.bounced',
  'message.not_sent',
  'message.seen',
  'message.unseen',
  'message.read',
  'message.unread',
  'message.interacted',
  'message.link_clicked',
  'message.archived',
  'message.unarchived',
] as const;
export type MessageEventType = (typeof MESSAGE_EVENT_TYPES)[number];

const timestamp = z.iso.datetime({ offset: true });

/**
 * The message as the API returns it (Knock's Message), at the moment of the event. Only the
 * fields every message has are required here; the others follow the API's Message schema.
 */
export const MessageV1 = z
  .object({
    __typename: z.literal('Message'),
    id: z.string(),
    channel_id: z.string(),
    recipient: RecipientReference,
    workflow: z.string().nullable().optional(),
    tenant: z.string().nullable().optional(),
    status: z.enum(['queued', 'sent', 'delivered', 'delivery_attempted', 'undelivered', 'not_sent', 'bounced']),
    engagement_statuses: z.array(z.enum(['seen', 'read', 'interacted', 'link_clicked', 'archived'])),
    source: z
      .object({ key: z.string(), version_id: z.string().nullable(), categories: z.array(z.string()), step_ref: z.string().optional() })
      .loose(),
    channel: z.object({ id: z.string(), key: z.string(), type: z.string(), provider: z.string() }).loose().optional(),
    actors: z.array(RecipientReference).optional(),
    data: z.record(z.string(), z.unknown()).nullable().optional(),
    metadata: z.record(z.string(), z.unknown()).nullable().optional(),
    inserted_at: timestamp,
    updated_at: timestamp,
    seen_at: timestamp.nullable().optional(),
    read_at: timestamp.nullable().optional(),
    interacted_at: timestamp.nullable().optional(),
    link_clicked_at: timestamp.nullable().optional(),
    clicked_at: timestamp.nullable().optional(),
    scheduled_at: timestamp.nullable().optional(),
    archived_at: timestamp.nullable().optional(),
  })
  .loose();

export type MessageV1 = z.infer<typeof MessageV1>;

/**
 * Value of every record on `<prefix>message-events.v1` (Knock's outbound MessageEvent shape).
 * Key: recipientKey(environment, data.recipient).
 */
export const MessageEventEnvelopeV1 = z
  .object({
    __typename: z.literal('Event'),
    type: z.enum(MESSAGE_EVENT_TYPES),
    created_at: timestamp,
    environment: z.string(),
    data: MessageV1,
    event_data: z.record(z.string(), z.unknown()).nullable().describe('Type-specific details, e.g. the link for message.link_clicked'),
  })
  .loose()
  .meta({ title: 'MessageEventEnvelopeV1', description: 'A message lifecycle event (topic <prefix>message-events.v1, key = recipient)' });

export type MessageEventEnvelopeV1 = z.infer<typeof MessageEventEnvelopeV1>;
