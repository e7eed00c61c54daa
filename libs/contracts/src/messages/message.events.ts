import { z } from 'zod';
import { defineEvent } from '../events/define-event';
import { RecipientRef } from '../recipients/refs';

export const MessageChannel = z.object({ id: z.uuid(), key: z.string(), type: z.string(), provider: z.string() });

/** Rendered content, shaped per channel type (what GET /v1/messages/{id}/content returns). */
export const RenderedContent = z.discriminatedUnion('channel_type', [
  z.object({
    channel_type: z.literal('in_app_feed'),
    blocks: z.array(
      z.union([
        z.object({ type: z.enum(['markdown', 'text']), name: z.string(), content: z.string(), rendered: z.string() }),
        z.object({
          type: z.literal('button_set'),
          name: z.string(),
          buttons: z.array(z.object({ name: z.string(), label: z.string(), action: z.string() })),
        }),
      ]),
    ),
    action_url: z.string().nullable().optional(),
  }),
  z.object({
    channel_type: z.literal('email'),
    from: z.string().nullable(),
    to: z.string(),
    cc: z.string().nullable().optional(),
    bcc: z.string().nullable().optional(),
    reply_to: z.string().nullable().optional(),
    subject: z.string(),
    html_body: z.string(),
    text_body: z.string(),
    /** Extra headers the service adds (one-click List-Unsubscribe, ADR 0190). */
    headers: z.record(z.string(), z.string()).optional(),
  }),
  z.object({ channel_type: z.literal('sms'), to: z.string(), body: z.string() }),
  /** A guide step as the user was shown it (ADR 0187). */
  z.object({
    channel_type: z.literal('in_app_guide'),
    guide_id: z.uuid(),
    guide_key: z.string(),
    step_ref: z.string(),
    schema_key: z.string(),
    schema_variant_key: z.string(),
    content: z.record(z.string(), z.unknown()),
  }),
  z.object({
    channel_type: z.literal('push'),
    tokens: z.array(z.string()),
    title: z.string(),
    body: z.string(),
    /** The template's payload_overrides, rendered: custom key/values the app receives. */
    data: z.record(z.string(), z.unknown()).nullable().optional(),
    /** delivery_type `silent`: a data-only (background) notification. */
    silent: z.boolean().optional(),
  }),
  z.object({
    channel_type: z.literal('chat'),
    /** The recipient's connections, without their credentials (access tokens, webhook URLs' secret part). */
    connections: z.array(z.record(z.string(), z.unknown())),
    text: z.string(),
    summary: z.string().nullable().optional(),
    blocks: z.array(z.unknown()).nullable().optional(),
    json: z.record(z.string(), z.unknown()).nullable().optional(),
  }),
  z.object({
    channel_type: z.literal('http'),
    url: z.string(),
    method: z.string(),
    headers: z.record(z.string(), z.string()),
    query: z.record(z.string(), z.string()).nullable().optional(),
    body: z.string().nullable(),
  }),
]);
export type RenderedContentT = z.infer<typeof RenderedContent>;

export const Activity = z.object({
  id: z.string(),
  actor: RecipientRef.nullable(),
  data: z.record(z.string(), z.unknown()).nullable(),
  inserted_at: z.string(),
});

export const MessageCreated = defineEvent(
  'MessageCreated',
  1,
  z.object({
    message_id: z.uuid(),
    channel: MessageChannel,
    recipient: RecipientRef,
    /** What the message was sent to at send time (address, tokens, ...). */
    recipient_snapshot: z.record(z.string(), z.unknown()).nullable(),
    workflow: z.object({ key: z.string(), categories: z.array(z.string()), version: z.string().nullable() }),
    workflow_run_id: z.uuid(),
    workflow_recipient_run_id: z.uuid(),
    step_ref: z.string(),
    tenant: z.string().nullable(),
    actors: z.array(RecipientRef),
    activities: z.array(Activity),
    total_activities: z.number().int(),
    total_actors: z.number().int(),
    data: z.record(z.string(), z.unknown()).nullable(),
    content: RenderedContent,
    metadata: z.record(z.string(), z.unknown()).nullable(),
    sandbox: z.boolean(),
    created_at: z.string(),
    /**
     * Delivered as it was created (in-app channels, ADR 0233): when. Recorded here instead of a
     * MessageDelivered of its own; absent on events written before it and for other channels.
     */
    delivered_at: z.string().optional(),
  }),
  {
    personal: {
      subject: (d) => (d.recipient.type === 'user' ? d.recipient.id : null),
      fields: ['recipient_snapshot', 'data', 'content', 'activities', 'metadata'],
    },
  },
);

export const MessageDeliveryAttemptStarted = defineEvent(
  'MessageDeliveryAttemptStarted',
  1,
  z.object({ message_id: z.uuid(), attempt: z.number().int().min(1), started_at: z.string() }),
);

export const DeliveryLogEntry = z.object({
  request: z.object({ method: z.string(), url: z.string(), headers: z.record(z.string(), z.string()), body: z.unknown() }),
  response: z.object({ status: z.number(), headers: z.record(z.string(), z.string()), body: z.unknown() }).optional(),
  error: z.string().optional(),
  duration_ms: z.number(),
});

export const MessageDeliveryAttemptCompleted = defineEvent(
  'MessageDeliveryAttemptCompleted',
  1,
  z.object({
    message_id: z.uuid(),
    attempt: z.number().int().min(1),
    outcome: z.enum(['sent', 'delivered', 'failed']),
    retryable: z.boolean(),
    reason: z.string().nullable(),
    provider: z.string(),
    provider_message_id: z.string().nullable(),
    logs: z.array(DeliveryLogEntry),
    /** Push: device tokens the provider reported gone; they are dropped from the recipient's channel data. */
    invalid_tokens: z.array(z.string()).optional(),
    /** Failed as a hard bounce the provider reported there and then (an SMTP server refusing the mailbox). */
    bounced: z.boolean().optional(),
    completed_at: z.string(),
  }),
  { personal: { subject: 'stream', fields: ['logs', 'invalid_tokens'] } },
);

const at = z.object({ message_id: z.uuid(), at: z.string() });
export const MessageSent = defineEvent(
  'MessageSent',
  1,
  at.extend({ attempt: z.number().int(), provider_message_id: z.string().nullable() }),
);
export const MessageDelivered = defineEvent('MessageDelivered', 1, at);
export const MessageDeliveryAttempted = defineEvent(
  'MessageDeliveryAttempted',
  1,
  at.extend({ attempt: z.number().int(), reason: z.string(), retry_at: z.string() }),
);
export const MessageUndelivered = defineEvent('MessageUndelivered', 1, at.extend({ attempts: z.number().int(), reason: z.string() }));
export const MessageNotSent = defineEvent('MessageNotSent', 1, at.extend({ reason: z.string() }));
export const MessageBounced = defineEvent('MessageBounced', 1, at.extend({ reason: z.string() }));

export const MessageSeen = defineEvent('MessageSeen', 1, at);
export const MessageUnseen = defineEvent('MessageUnseen', 1, at);
export const MessageRead = defineEvent('MessageRead', 1, at);
export const MessageUnread = defineEvent('MessageUnread', 1, at);
export const MessageArchived = defineEvent('MessageArchived', 1, at);
export const MessageUnarchived = defineEvent('MessageUnarchived', 1, at);
export const MessageInteracted = defineEvent('MessageInteracted', 1, at.extend({ metadata: z.record(z.string(), z.unknown()).nullable() }));
export const MessageLinkClicked = defineEvent('MessageLinkClicked', 1, at.extend({ url: z.string() }));

/**
 * Delivery receipts (ADR 0203): what a provider reports about a message after it was handed over.
 */
export const RECEIPT_KINDS = ['delivered', 'bounced', 'complained', 'opened', 'clicked', 'failed'] as const;
export type ReceiptKind = (typeof RECEIPT_KINDS)[number];

/**
 * One provider event about one message, as recorded on the message's stream. `receipt_id` is the
 * provider's own event id (or a digest of the event when it has none): a replay is recognised by it.
 */
export const MessageReceiptRecorded = defineEvent(
  'MessageReceiptRecorded',
  1,
  z.object({
    message_id: z.uuid(),
    receipt_id: z.string(),
    /** The receipt parser that read it (`sendgrid`, `ses`, `postmark`, `mailgun`, `resend`, `twilio`). */
    source: z.string(),
    kind: z.enum(RECEIPT_KINDS),
    /** Bounces only: hard (the address does not exist) or soft (full mailbox, deferred). */
    bounce_type: z.enum(['hard', 'soft']).nullable(),
    reason: z.string().nullable(),
    /** Clicks only. */
    url: z.string().nullable(),
    /** The address (or number) the provider reports about, as it gave it. */
    recipient: z.string().nullable(),
    /** The provider's event, as received (personal: it names the recipient). */
    payload: z.record(z.string(), z.unknown()),
    occurred_at: z.string(),
    at: z.string(),
  }),
  { personal: { subject: 'stream', fields: ['reason', 'url', 'recipient', 'payload'] } },
);

export const messageEventContracts = [
  MessageCreated,
  MessageDeliveryAttemptStarted,
  MessageDeliveryAttemptCompleted,
  MessageSent,
  MessageDelivered,
  MessageDeliveryAttempted,
  MessageUndelivered,
  MessageNotSent,
  MessageBounced,
  MessageSeen,
  MessageUnseen,
  MessageRead,
  MessageUnread,
  MessageArchived,
  MessageUnarchived,
  MessageInteracted,
  MessageLinkClicked,
  MessageReceiptRecorded,
] as const;

/** Engagement events and the MessageEvent type each one becomes. */
export const ENGAGEMENT_EVENT_TYPES = {
  MessageSeen: 'message.seen',
  MessageUnseen: 'message.unseen',
  MessageRead: 'message.read',
  MessageUnread: 'message.unread',
  MessageArchived: 'message.archived',
  MessageUnarchived: 'message.unarchived',
  MessageInteracted: 'message.interacted',
  MessageLinkClicked: 'message.link_clicked',
} as const;

/** Every message event type and the public MessageEvent type it is reported as (null: internal). */
export const MESSAGE_EVENT_TYPES: Record<(typeof messageEventContracts)[number]['type'], string | null> = {
  MessageCreated: 'message.created',
  MessageDeliveryAttemptStarted: null,
  MessageDeliveryAttemptCompleted: null,
  MessageSent: 'message.sent',
  MessageDelivered: 'message.delivered',
  MessageDeliveryAttempted: 'message.delivery_attempted',
  MessageUndelivered: 'message.undelivered',
  MessageNotSent: 'message.not_sent',
  MessageBounced: 'message.bounced',
  // Its effects are reported (delivered, bounced, read, link_clicked); complaints have no public type.
  MessageReceiptRecorded: null,
  ...ENGAGEMENT_EVENT_TYPES,
};
