import { MESSAGE_EVENT_TYPES as PUBLIC_MESSAGE_TYPES, RecipientRefT, workflowVersionId } from '@notify/contracts';
import { engagementStatuses, fold, messageDecider, MessageCreatedData, MessageEvent } from '@notify/domain';
import type { RecordedEvent } from '@notify/eventstore';
import { MessageEventType, MessageV1 } from '../envelopes/message-event.v1';
import { RecipientReference } from '../envelopes/recipient';

type Data = Record<string, unknown>;

/** A recipient as the API names it: a user id, or `{collection, id}` for an object. */
export function recipientReference(ref: RecipientRefT): RecipientReference {
  return ref.type === 'user' ? ref.id : { collection: ref.collection, id: ref.id };
}

/** The public MessageEvent type a logged message event is reported as; undefined for internal ones (attempts, timers). */
export function publicMessageEventType(type: string): MessageEventType | undefined {
  return ((PUBLIC_MESSAGE_TYPES as Record<string, string | null>)[type] ?? undefined) as MessageEventType | undefined;
}

/**
 * The message (Knock's Message) as it stood right after the last of `history`: a fold of its
 * stream, nothing read from elsewhere, so the same prefix of the log always gives the same value.
 * `history` starts with MessageCreated; undefined when it does not. `version_id` is the API's
 * workflow version id in `environment` (ADR 0115).
 */
export function messageView(history: readonly RecordedEvent[], environment: string): MessageV1 | undefined {
  const created = history[0];
  if (!created || created.type !== 'MessageCreated') return undefined;
  const m = created.data as MessageCreatedData;
  const state = fold(
    messageDecider,
    history.map((e) => ({ type: e.type, data: e.data }) as MessageEvent),
  );
  const last = history[history.length - 1];
  return {
    __typename: 'Message',
    id: m.message_id,
    channel_id: m.channel.id,
    channel: { id: m.channel.id, key: m.channel.key, type: m.channel.type, provider: m.channel.provider },
    recipient: recipientReference(m.recipient),
    actors: m.actors.map(recipientReference),
    workflow: m.workflow.key,
    tenant: m.tenant,
    status: state.status,
    engagement_statuses: engagementStatuses(state) as MessageV1['engagement_statuses'],
    source: {
      __typename: 'NotificationSource',
      key: m.workflow.key,
      version_id: workflowVersionId(environment, m.workflow.key, m.workflow.version),
      categories: m.workflow.categories,
      step_ref: m.step_ref,
    },
    data: m.data,
    metadata: m.metadata,
    inserted_at: iso(m.created_at, created.createdAt),
    updated_at: last.createdAt.toISOString(),
    scheduled_at: null,
    seen_at: state.seen_at,
    read_at: state.read_at,
    interacted_at: state.interacted_at,
    link_clicked_at: state.link_clicked_at,
    clicked_at: state.link_clicked_at,
    archived_at: state.archived_at,
  };
}

/** What a consumer needs about the event itself beyond the message (Knock's `event_data`). */
export function messageEventData(event: RecordedEvent): Data | null {
  const d = event.data as Data;
  switch (event.type) {
    case 'MessageSent':
      return { attempt: d.attempt, provider_message_id: d.provider_message_id ?? null };
    case 'MessageDeliveryAttempted':
      return { attempt: d.attempt, reason: d.reason, retry_at: d.retry_at };
    case 'MessageUndelivered':
      return { attempts: d.attempts, reason: d.reason };
    case 'MessageNotSent':
    case 'MessageBounced':
      return { reason: d.reason };
    case 'MessageInteracted':
      return { metadata: d.metadata ?? null };
    case 'MessageLinkClicked':
      return { url: d.url };
    default:
      return null;
  }
}

function iso(value: string, fallback: Date): string {
  const parsed = new Date(value);
  return Number.isNaN(parsed.getTime()) ? fallback.toISOString() : parsed.toISOString();
}
