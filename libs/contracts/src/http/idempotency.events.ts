import { z } from 'zod';
import { defineEvent } from '../events/define-event';

/**
 * Stream idempotency-<env>-<sha256 of the Idempotency-Key>: requests made with one key. The key
 * itself is never recorded; `fingerprint` is a hash of the operation and its parameters.
 */
export const IdempotencyKeyClaimed = defineEvent(
  'IdempotencyKeyClaimed',
  1,
  z.object({
    claim_id: z.uuid(),
    operation: z.string(),
    fingerprint: z.string(),
    request_id: z.string(),
    claimed_at: z.string(),
    /** Until then another request with the key waits for this one (after it, the claim is taken over). */
    lease_until: z.string(),
    /** When the key may be used for another request. */
    expires_at: z.string(),
  }),
);

export const IdempotentResponseRecorded = defineEvent(
  'IdempotentResponseRecorded',
  1,
  z.object({ claim_id: z.uuid(), status: z.number().int(), body: z.unknown(), request_id: z.string(), recorded_at: z.string() }),
);

/** The request failed (nothing is stored for it): the key can be used again at once. */
export const IdempotencyKeyReleased = defineEvent(
  'IdempotencyKeyReleased',
  1,
  z.object({ claim_id: z.uuid(), status: z.number().int().nullable(), released_at: z.string() }),
);

export const idempotencyEventContracts = [IdempotencyKeyClaimed, IdempotentResponseRecorded, IdempotencyKeyReleased] as const;
