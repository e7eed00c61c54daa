import { assertNever, Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';
import type { IdempotencyCommand } from './idempotency.commands';
import type { IdempotencyEvent } from './idempotency.events';

export interface IdempotencyClaim {
  claimId: string;
  operation: string;
  fingerprint: string;
  requestId: string;
  leaseUntil: string;
  expiresAt: string;
}

export interface IdempotencyState {
  /** The latest claim of the key. */
  claim?: IdempotencyClaim;
  /** The stored answer to that claim's request. */
  response?: { status: number; body: unknown; requestId: string };
  released: boolean;
}

export const idempotencyKeyReused = () =>
  new DomainError(
    'idempotency_key_reused',
    'This Idempotency-Key was already used with other parameters in the last 24 hours; use a new key for a different request',
    'invalid_params',
  );
export const idempotencyKeyInUse = () =>
  new DomainError(
    'idempotency_key_in_use',
    'A request with this Idempotency-Key is still being processed; retry once it has finished',
    'conflict',
  );

const at = (iso: string) => Date.parse(iso);
const plus = (iso: string, ms: number) => new Date(at(iso) + ms).toISOString();

/**
 * One Idempotency-Key: the first request claims it; a repeat with the same operation and
 * parameters gets the stored 2xx response, one with other parameters is refused, one that
 * arrives while the first is under way must wait (or is refused as in use). A failed request
 * releases the key; a claim whose lease ran out (its request died) can be taken over; 24 hours
 * after a claim the key is free for anything.
 */
export const idempotencyDecider: Decider<IdempotencyState, IdempotencyCommand, IdempotencyEvent> = {
  initialState: () => ({ released: false }),

  evolve(state, event) {
    switch (event.type) {
      case 'IdempotencyKeyClaimed': {
        const d = event.data;
        return {
          claim: {
            claimId: d.claim_id,
            operation: d.operation,
            fingerprint: d.fingerprint,
            requestId: d.request_id,
            leaseUntil: d.lease_until,
            expiresAt: d.expires_at,
          },
          released: false,
        };
      }
      case 'IdempotentResponseRecorded':
        return state.claim?.claimId === event.data.claim_id
          ? { ...state, response: { status: event.data.status, body: event.data.body, requestId: event.data.request_id } }
          : state;
      case 'IdempotencyKeyReleased':
        return state.claim?.claimId === event.data.claim_id ? { ...state, released: true } : state;
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    const current = state.claim;
    const isCurrent = (claimId: string) => current?.claimId === claimId && !state.released && !state.response;
    switch (command.type) {
      case 'Claim': {
        const claim: IdempotencyEvent = {
          type: 'IdempotencyKeyClaimed',
          data: {
            claim_id: command.claimId,
            operation: command.operation,
            fingerprint: command.fingerprint,
            request_id: command.requestId,
            claimed_at: command.now,
            lease_until: plus(command.now, command.leaseMs),
            expires_at: plus(command.now, command.ttlMs),
          },
        };
        if (!current || state.released || at(command.now) >= at(current.expiresAt)) return [claim];
        if (current.operation !== command.operation || current.fingerprint !== command.fingerprint) throw idempotencyKeyReused();
        if (state.response) return [];
        if (at(command.now) < at(current.leaseUntil)) throw idempotencyKeyInUse();
        return [claim];
      }
      case 'RecordResponse':
        if (!isCurrent(command.claimId)) return [];
        return [
          {
            type: 'IdempotentResponseRecorded',
            data: {
              claim_id: command.claimId,
              status: command.status,
              body: command.body,
              request_id: command.requestId,
              recorded_at: command.now,
            },
          },
        ];
      case 'Release':
        if (!isCurrent(command.claimId)) return [];
        return [{ type: 'IdempotencyKeyReleased', data: { claim_id: command.claimId, status: command.status, released_at: command.now } }];
      default:
        return assertNever(command);
    }
  },
};
