import type { BroadcastContentT, BroadcastSendStatusT, ResourceErrorT } from '@notify/contracts';
import { assertNever, Decider } from '../shared/decider';
import { DomainError, invalidParams, resourceMissing } from '../shared/errors';
import { BroadcastEvent } from './broadcast.events';

export type BroadcastCommand =
  | {
      type: 'UpsertBroadcast';
      key: string;
      content: BroadcastContentT;
      sha: string;
      valid: boolean;
      errors: ResourceErrorT[];
      now: string;
      /** `scheduled_at` on the upsert: the draft saved is scheduled in the same decision (ADR 0201). */
      schedule?: { sendId: string; sendAt: string; audienceExists: boolean };
    }
  | {
      type: 'SendBroadcast';
      key: string;
      /** A fresh id for this send (the caller makes it): runs and timers are keyed by it. */
      sendId: string;
      /** Absent or not later than now: send now. */
      sendAt: string | null;
      /** Whether the target audience exists (looked up); true when the broadcast targets all users. */
      audienceExists: boolean;
      now: string;
    }
  /** The timer of a scheduled send fired. */
  | { type: 'StartScheduledSend'; key: string; sendId: string; now: string }
  /** The sender is about to trigger the page after the cursor, with runs in these tenants (ADR 0232). */
  | { type: 'StartPage'; key: string; sendId: string; pageStart: string | null; tenants: string[]; now: string }
  /** The sender triggered a page of recipients up to `cursor`. */
  | { type: 'RecordPage'; key: string; sendId: string; cursor: string; recipients: number; now: string }
  | { type: 'CompleteSend'; key: string; sendId: string; now: string }
  | { type: 'CancelBroadcast'; key: string; now: string };

export interface BroadcastState {
  exists: boolean;
  status: BroadcastSendStatusT;
  sha: string | null;
  valid: boolean;
  errors: ResourceErrorT[];
  content: BroadcastContentT | null;
  /** The current (or last) send. */
  sendId: string | null;
  sendAt: string | null;
  /** The content being (or last) sent. */
  sending: BroadcastContentT | null;
  /** Where the sender continues: the last member of the last page triggered. */
  cursor: string | null;
  /**
   * The tenants whose runs of the page after the cursor may have been triggered already (recorded
   * before triggering, ADR 0232): a sender continuing the page reads each of them.
   */
  pageTenants: string[];
  recipients: number;
}

const notEditable = (status: string) =>
  new DomainError('broadcast_not_editable', `A broadcast that is ${status} cannot be changed; only drafts can`, 'invalid_request');

/**
 * The broadcast aggregate (ADR 0172): a draft is edited and sent once, now or at a time; sending
 * is recorded page by page so that a sender that stops is continued from its cursor by another.
 */
export const broadcastDecider: Decider<BroadcastState, BroadcastCommand, BroadcastEvent> = {
  initialState: () => ({
    exists: false,
    status: 'draft',
    sha: null,
    valid: false,
    errors: [],
    content: null,
    sendId: null,
    sendAt: null,
    sending: null,
    cursor: null,
    pageTenants: [],
    recipients: 0,
  }),

  evolve(state, event) {
    switch (event.type) {
      case 'BroadcastUpserted':
        return {
          ...state,
          exists: true,
          sha: event.data.sha,
          valid: event.data.valid,
          errors: event.data.errors,
          content: event.data.content,
        };
      case 'BroadcastScheduled':
        return { ...state, status: 'scheduled', sendId: event.data.send_id, sendAt: event.data.send_at };
      case 'BroadcastSendStarted':
        return {
          ...state,
          status: 'sending',
          sendId: event.data.send_id,
          sending: event.data.content,
          cursor: null,
          pageTenants: [],
          recipients: 0,
        };
      case 'BroadcastPageStarted':
        return { ...state, pageTenants: [...new Set([...state.pageTenants, ...event.data.tenants])] };
      case 'BroadcastPageSent':
        return { ...state, cursor: event.data.cursor, pageTenants: [], recipients: state.recipients + event.data.recipients };
      case 'BroadcastSent':
        return { ...state, status: 'sent' };
      case 'BroadcastCanceled':
        return event.data.was === 'scheduled' ? { ...state, status: 'draft', sendAt: null } : { ...state, status: 'canceled' };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'UpsertBroadcast': {
        if (state.exists && state.status !== 'draft') throw notEditable(state.status);
        const { key, content, sha, valid, errors, now, schedule } = command;
        const upserted: BroadcastEvent[] =
          state.exists && state.sha === sha && state.valid === valid
            ? []
            : [{ type: 'BroadcastUpserted', data: { key, content, sha, valid, errors, upserted_at: now } }];
        if (!schedule) return upserted;
        // Saving with a time already past would send at once: refused, so a stale echo of
        // `scheduled_at` never starts a send by accident.
        if (!(Date.parse(schedule.sendAt) > Date.parse(now)))
          throw invalidParams([{ field: 'broadcast.scheduled_at', message: 'must be in the future', type: 'invalid' }]);
        const saved = upserted.reduce(broadcastDecider.evolve, state);
        return [...upserted, ...broadcastDecider.decide({ type: 'SendBroadcast', key, now, ...schedule }, saved)];
      }
      case 'SendBroadcast': {
        if (!state.exists || !state.content || !state.sha) throw resourceMissing('broadcast');
        if (state.status !== 'draft')
          throw new DomainError('broadcast_not_draft', `The broadcast is ${state.status}; only a draft can be sent`, 'invalid_request');
        if (!state.valid)
          throw new DomainError(
            'broadcast_invalid',
            'An invalid broadcast cannot be sent; fix the errors listed and upsert it again',
            'invalid_params',
            state.errors,
          );
        // A time already past is refused, as on the upsert: a mistyped date must not start a send
        // to every member at once (leaving send_at out sends now).
        if (command.sendAt !== null && !(Date.parse(command.sendAt) > Date.parse(command.now)))
          throw invalidParams([{ field: 'send_at', message: 'must be in the future; leave it out to send now', type: 'invalid' }]);
        if (!command.audienceExists)
          throw invalidParams([{ field: 'target_audience_key', message: 'no such audience in this environment', type: 'reference' }]);
        if (command.sendAt !== null)
          return [
            {
              type: 'BroadcastScheduled',
              data: {
                key: command.key,
                send_id: command.sendId,
                send_at: new Date(command.sendAt).toISOString(),
                scheduled_at: command.now,
              },
            },
          ];
        return [
          {
            type: 'BroadcastSendStarted',
            data: { key: command.key, send_id: command.sendId, content: state.content, sha: state.sha, started_at: command.now },
          },
        ];
      }
      case 'StartScheduledSend': {
        // Canceled, started by another timer, or moved to another send meanwhile: nothing to do.
        if (state.status !== 'scheduled' || state.sendId !== command.sendId || !state.content || !state.sha) return [];
        if (state.sendAt && Date.parse(state.sendAt) > Date.parse(command.now)) return [];
        return [
          {
            type: 'BroadcastSendStarted',
            data: { key: command.key, send_id: command.sendId, content: state.content, sha: state.sha, started_at: command.now },
          },
        ];
      }
      case 'StartPage': {
        // Not sending (canceled meanwhile) or moved on: nothing to start, the sender stops.
        if (state.status !== 'sending' || state.sendId !== command.sendId || state.cursor !== command.pageStart) return [];
        // Tenants recorded already (a page continued after a stop) are not recorded again.
        const tenants = [...new Set(command.tenants)].filter((t) => !state.pageTenants.includes(t));
        if (tenants.length === 0) return [];
        return [
          {
            type: 'BroadcastPageStarted',
            data: { key: command.key, send_id: command.sendId, page_start: command.pageStart, tenants, started_at: command.now },
          },
        ];
      }
      case 'RecordPage':
        // A page triggered while a cancel was recorded still counts (its runs went out); the
        // sender stops after it, as the state is no longer sending.
        if ((state.status !== 'sending' && state.status !== 'canceled') || state.sendId !== command.sendId) return [];
        return [
          {
            type: 'BroadcastPageSent',
            data: {
              key: command.key,
              send_id: command.sendId,
              cursor: command.cursor,
              recipients: command.recipients,
              sent_at: command.now,
            },
          },
        ];
      case 'CompleteSend':
        if (state.status !== 'sending' || state.sendId !== command.sendId) return [];
        return [
          {
            type: 'BroadcastSent',
            data: { key: command.key, send_id: command.sendId, recipients: state.recipients, completed_at: command.now },
          },
        ];
      case 'CancelBroadcast': {
        if (!state.exists) throw resourceMissing('broadcast');
        if ((state.status !== 'scheduled' && state.status !== 'sending') || !state.sendId)
          throw new DomainError(
            'broadcast_not_cancelable',
            `The broadcast is ${state.status}; only a scheduled broadcast or one being sent can be canceled`,
            'invalid_request',
          );
        return [
          { type: 'BroadcastCanceled', data: { key: command.key, send_id: state.sendId, was: state.status, canceled_at: command.now } },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};
