import { assertNever, Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';
import { EngagementAction, MessageCommand } from './message.commands';
import { MessageEvent, ReceiptData } from './message.events';

export type DeliveryStatus = 'queued' | 'sent' | 'delivered' | 'delivery_attempted' | 'undelivered' | 'not_sent' | 'bounced';

export interface MessageState {
  exists: boolean;
  id?: string;
  status: DeliveryStatus;
  attemptsStarted: number;
  attemptsCompleted: number;
  seen_at: string | null;
  read_at: string | null;
  archived_at: string | null;
  interacted_at: string | null;
  link_clicked_at: string | null;
  /** Provider receipts already recorded, by receipt id: a replay records nothing. */
  receipts: readonly string[];
}

const FINAL: DeliveryStatus[] = ['delivered', 'undelivered', 'not_sent', 'bounced'];

export const messageDecider: Decider<MessageState, MessageCommand, MessageEvent> = {
  initialState: () => ({
    exists: false,
    status: 'queued',
    attemptsStarted: 0,
    attemptsCompleted: 0,
    seen_at: null,
    read_at: null,
    archived_at: null,
    interacted_at: null,
    link_clicked_at: null,
    receipts: [],
  }),

  evolve(state, event) {
    switch (event.type) {
      case 'MessageCreated':
        // Delivered as it was created (ADR 0233): the MessageDelivered it stands for, folded in.
        return { ...state, exists: true, id: event.data.message_id, status: event.data.delivered_at ? 'delivered' : 'queued' };
      case 'MessageDeliveryAttemptStarted':
        return { ...state, attemptsStarted: Math.max(state.attemptsStarted, event.data.attempt) };
      case 'MessageDeliveryAttemptCompleted':
        return { ...state, attemptsCompleted: Math.max(state.attemptsCompleted, event.data.attempt) };
      case 'MessageSent':
        return { ...state, status: 'sent' };
      case 'MessageDelivered':
        return { ...state, status: 'delivered' };
      case 'MessageDeliveryAttempted':
        return { ...state, status: 'delivery_attempted' };
      case 'MessageUndelivered':
        return { ...state, status: 'undelivered' };
      case 'MessageNotSent':
        return { ...state, status: 'not_sent' };
      case 'MessageBounced':
        return { ...state, status: 'bounced' };
      case 'MessageSeen':
        return { ...state, seen_at: event.data.at };
      case 'MessageUnseen':
        return { ...state, seen_at: null };
      case 'MessageRead':
        return { ...state, read_at: event.data.at };
      case 'MessageUnread':
        return { ...state, read_at: null };
      case 'MessageArchived':
        return { ...state, archived_at: event.data.at };
      case 'MessageUnarchived':
        return { ...state, archived_at: null };
      case 'MessageInteracted':
        return { ...state, interacted_at: event.data.at };
      case 'MessageLinkClicked':
        return { ...state, link_clicked_at: event.data.at };
      case 'MessageReceiptRecorded':
        return { ...state, receipts: [...state.receipts, event.data.receipt_id] };
      case 'TimerScheduled':
      case 'TimerFired':
        return state;
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'CreateMessage': {
        if (state.exists) return [];
        const id = command.message.message_id;
        const created: MessageEvent = { type: 'MessageCreated', data: command.message };
        // Delivered at creation: one event carrying its delivery, not MessageCreated + MessageDelivered (ADR 0233).
        if (command.delivery === 'now') return [{ type: 'MessageCreated', data: { ...command.message, delivered_at: command.now } }];
        if (command.delivery === 'sandbox')
          return [created, { type: 'MessageNotSent', data: { message_id: id, at: command.now, reason: 'sandbox_mode' } }];
        return [created];
      }
      case 'StartDeliveryAttempt': {
        requireExists(state);
        // A finished message, or an attempt already recorded, is not started again.
        if (FINAL.includes(state.status) || state.status === 'sent' || command.attempt <= state.attemptsStarted) return [];
        return [
          { type: 'MessageDeliveryAttemptStarted', data: { message_id: state.id!, attempt: command.attempt, started_at: command.now } },
          {
            type: 'TimerScheduled',
            data: { timer_id: checkTimerId(state.id!, command.attempt), fire_at: command.checkAt, purpose: 'delivery_check' },
          },
        ];
      }
      case 'CompleteDeliveryAttempt': {
        requireExists(state);
        const { result } = command;
        if (result.attempt <= state.attemptsCompleted || FINAL.includes(state.status) || state.status === 'sent') return [];
        const id = state.id!;
        const completed: MessageEvent = {
          type: 'MessageDeliveryAttemptCompleted',
          data: { ...result, message_id: id, completed_at: command.now },
        };
        if (result.outcome === 'delivered') return [completed, { type: 'MessageDelivered', data: { message_id: id, at: command.now } }];
        if (result.outcome === 'sent') {
          return [
            completed,
            {
              type: 'MessageSent',
              data: { message_id: id, at: command.now, attempt: result.attempt, provider_message_id: result.provider_message_id },
            },
          ];
        }
        const reason = result.reason ?? 'delivery failed';
        if (result.bounced) return [completed, { type: 'MessageBounced', data: { message_id: id, at: command.now, reason } }];
        if (command.retryAt && result.retryable) {
          return [
            completed,
            {
              type: 'MessageDeliveryAttempted',
              data: { message_id: id, at: command.now, attempt: result.attempt, reason, retry_at: command.retryAt },
            },
            {
              type: 'TimerScheduled',
              data: { timer_id: retryTimerId(id, result.attempt + 1), fire_at: command.retryAt, purpose: 'delivery_retry' },
            },
          ];
        }
        return [completed, { type: 'MessageUndelivered', data: { message_id: id, at: command.now, attempts: result.attempt, reason } }];
      }
      case 'Engage':
        requireExists(state);
        return engage(state, command.action, command.now, command.metadata ?? null, command.url);
      case 'RecordReceipt':
        requireExists(state);
        return recordReceipt(state, command.receipt, command.now);
      default:
        return assertNever(command);
    }
  },
};

/** The timer that starts delivery attempt `attempt` of a message. */
export const retryTimerId = (messageId: string, attempt: number) => `${messageId}:attempt:${attempt}`;

export function attemptOfTimer(timerId: string): number | undefined {
  const match = /:attempt:(\d+)$/.exec(timerId);
  return match ? Number(match[1]) : undefined;
}

/** The timer that checks, once attempt `attempt` can no longer be in flight, that it finished. */
export const checkTimerId = (messageId: string, attempt: number) => `${messageId}:check:${attempt}`;

export function checkedAttemptOfTimer(timerId: string): number | undefined {
  const match = /:check:(\d+)$/.exec(timerId);
  return match ? Number(match[1]) : undefined;
}

function requireExists(state: MessageState): void {
  if (!state.exists) throw new DomainError('resource_missing', 'The message you requested does not exist', 'not_found');
}

/**
 * Engagement follows the reference product: reading also marks seen; interacting and clicking a
 * link also mark read and seen. Repeating a mark that is already set records nothing.
 */
function engage(
  state: MessageState,
  action: EngagementAction,
  now: string,
  metadata: Record<string, unknown> | null,
  url?: string,
): MessageEvent[] {
  const id = state.id!;
  const at = { message_id: id, at: now };
  const out: MessageEvent[] = [];
  const seen = () => !state.seen_at && out.push({ type: 'MessageSeen', data: at });
  const read = () => !state.read_at && out.push({ type: 'MessageRead', data: at });
  switch (action) {
    case 'seen':
      seen();
      break;
    case 'unseen':
      if (state.seen_at) out.push({ type: 'MessageUnseen', data: at });
      break;
    case 'read':
      seen();
      read();
      break;
    case 'unread':
      if (state.read_at) out.push({ type: 'MessageUnread', data: at });
      break;
    case 'archived':
      if (!state.archived_at) out.push({ type: 'MessageArchived', data: at });
      break;
    case 'unarchived':
      if (state.archived_at) out.push({ type: 'MessageUnarchived', data: at });
      break;
    case 'interacted':
      seen();
      read();
      // Each interaction is recorded (with its metadata), even when one happened before.
      out.push({ type: 'MessageInteracted', data: { ...at, metadata } });
      break;
    case 'link_clicked':
      seen();
      read();
      out.push({ type: 'MessageLinkClicked', data: { ...at, url: url ?? '' } });
      break;
    default:
      return assertNever(action);
  }
  return out;
}

/** Statuses a receipt may still move on: a message the provider has (or may have) in hand. */
const IN_HAND: DeliveryStatus[] = ['queued', 'sent', 'delivery_attempted'];

/**
 * A provider receipt: recorded once per receipt id, with what it means for the message.
 * Delivered moves a message still in hand; a bounce may come after "delivered" (an asynchronous
 * bounce), so it wins over it; a failure (SMS undelivered, dropped) ends a message still in hand.
 * An open reads the message (as the reference's open tracking does); a click records the link.
 * A complaint changes no status: its effect is the suppression of the address.
 */
function recordReceipt(state: MessageState, receipt: Omit<ReceiptData, 'message_id' | 'at'>, now: string): MessageEvent[] {
  if (state.receipts.includes(receipt.receipt_id)) return [];
  const id = state.id!;
  const out: MessageEvent[] = [{ type: 'MessageReceiptRecorded', data: { ...receipt, message_id: id, at: now } }];
  const reason = receipt.reason ?? receipt.kind;
  switch (receipt.kind) {
    case 'delivered':
      if (IN_HAND.includes(state.status)) out.push({ type: 'MessageDelivered', data: { message_id: id, at: now } });
      break;
    case 'bounced':
      if (state.status !== 'bounced' && state.status !== 'not_sent')
        out.push({
          type: 'MessageBounced',
          data: { message_id: id, at: now, reason: `${receipt.bounce_type ?? 'hard'}_bounce: ${reason}` },
        });
      break;
    case 'failed':
      if (IN_HAND.includes(state.status))
        out.push({ type: 'MessageUndelivered', data: { message_id: id, at: now, attempts: state.attemptsCompleted, reason } });
      break;
    case 'opened':
      out.push(...engage(state, 'read', now, null));
      break;
    case 'clicked':
      out.push(...engage(state, 'link_clicked', now, null, receipt.url ?? ''));
      break;
    case 'complained':
      break;
    default:
      return assertNever(receipt.kind);
  }
  return out;
}

export function engagementStatuses(
  state: Pick<MessageState, 'seen_at' | 'read_at' | 'archived_at' | 'interacted_at' | 'link_clicked_at'>,
): string[] {
  const out: string[] = [];
  if (state.seen_at) out.push('seen');
  if (state.read_at) out.push('read');
  if (state.interacted_at) out.push('interacted');
  if (state.link_clicked_at) out.push('link_clicked');
  if (state.archived_at) out.push('archived');
  return out;
}
