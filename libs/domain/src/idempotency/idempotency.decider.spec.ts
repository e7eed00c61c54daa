import { deciderSpec } from '@notify/testing';
import { idempotencyDecider } from './idempotency.decider';
import type { IdempotencyEvent } from './idempotency.events';

const T0 = '2030-01-01T00:00:00.000Z';
const later = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();
const HOUR = 3_600_000;
const claimCmd = (over: Partial<{ claimId: string; fingerprint: string; operation: string; now: string }> = {}) => ({
  type: 'Claim' as const,
  claimId: over.claimId ?? '00000000-0000-4000-8000-000000000001',
  operation: over.operation ?? 'triggerWorkflow',
  fingerprint: over.fingerprint ?? 'f1',
  requestId: 'req-1',
  now: over.now ?? T0,
  leaseMs: 60_000,
  ttlMs: 24 * HOUR,
});
const claimed = (claimId = '00000000-0000-4000-8000-000000000001', now = T0, fingerprint = 'f1'): IdempotencyEvent => ({
  type: 'IdempotencyKeyClaimed',
  data: {
    claim_id: claimId,
    operation: 'triggerWorkflow',
    fingerprint,
    request_id: 'req-1',
    claimed_at: now,
    lease_until: new Date(Date.parse(now) + 60_000).toISOString(),
    expires_at: new Date(Date.parse(now) + 24 * HOUR).toISOString(),
  },
});
const recorded: IdempotencyEvent = {
  type: 'IdempotentResponseRecorded',
  data: {
    claim_id: '00000000-0000-4000-8000-000000000001',
    status: 200,
    body: { workflow_run_id: 'w' },
    request_id: 'req-1',
    recorded_at: T0,
  },
};
const released: IdempotencyEvent = {
  type: 'IdempotencyKeyReleased',
  data: { claim_id: '00000000-0000-4000-8000-000000000001', status: 422, released_at: T0 },
};
const spec = deciderSpec(idempotencyDecider);

describe('an Idempotency-Key', () => {
  it('is claimed by the first request, with a lease and a 24-hour expiry', () => {
    spec.given([]).when(claimCmd()).then([claimed()]);
  });

  it('answers a repeat with the stored response: the claim decides nothing new', () => {
    spec
      .given([claimed(), recorded])
      .when(claimCmd({ claimId: '00000000-0000-4000-8000-000000000002', now: later(HOUR) }))
      .thenNothing();
  });

  it('refuses a repeat with other parameters or for another operation, answered or still running', () => {
    spec
      .given([claimed(), recorded])
      .when(claimCmd({ fingerprint: 'f2' }))
      .thenThrows('idempotency_key_reused');
    spec
      .given([claimed()])
      .when(claimCmd({ fingerprint: 'f2' }))
      .thenThrows('idempotency_key_reused');
    spec
      .given([claimed(), recorded])
      .when(claimCmd({ operation: 'cancelWorkflow' }))
      .thenThrows('idempotency_key_reused');
  });

  it('is in use while the first request runs, and can be taken over once its lease ran out', () => {
    spec
      .given([claimed()])
      .when(claimCmd({ claimId: '00000000-0000-4000-8000-000000000002', now: later(1000) }))
      .thenThrows('idempotency_key_in_use');
    spec
      .given([claimed()])
      .when(claimCmd({ claimId: '00000000-0000-4000-8000-000000000002', now: later(61_000) }))
      .then([claimed('00000000-0000-4000-8000-000000000002', later(61_000))]);
  });

  it('is free again at once when its request failed, for any parameters', () => {
    spec
      .given([claimed(), released])
      .when(claimCmd({ claimId: '00000000-0000-4000-8000-000000000003', fingerprint: 'f2', now: later(5) }))
      .then([claimed('00000000-0000-4000-8000-000000000003', later(5), 'f2')]);
  });

  it('is free for anything 24 hours after it was claimed', () => {
    spec
      .given([claimed(), recorded])
      .when(claimCmd({ claimId: '00000000-0000-4000-8000-000000000004', fingerprint: 'f2', now: later(24 * HOUR) }))
      .then([claimed('00000000-0000-4000-8000-000000000004', later(24 * HOUR), 'f2')]);
  });

  it('records the response or the release of the current claim only, once', () => {
    spec
      .given([claimed()])
      .when({
        type: 'RecordResponse',
        claimId: '00000000-0000-4000-8000-000000000001',
        status: 200,
        body: { workflow_run_id: 'w' },
        requestId: 'req-1',
        now: T0,
      })
      .then([recorded]);
    spec
      .given([claimed(), recorded])
      .when({ type: 'RecordResponse', claimId: '00000000-0000-4000-8000-000000000001', status: 200, body: {}, requestId: 'req-1', now: T0 })
      .thenNothing();
    spec
      .given([claimed()])
      .when({ type: 'Release', claimId: '00000000-0000-4000-8000-000000000001', status: 422, now: T0 })
      .then([released]);
    // A request whose claim was taken over (its lease ran out) records nothing.
    spec
      .given([claimed(), claimed('00000000-0000-4000-8000-000000000002', later(61_000))])
      .when({
        type: 'RecordResponse',
        claimId: '00000000-0000-4000-8000-000000000001',
        status: 200,
        body: {},
        requestId: 'req-1',
        now: later(62_000),
      })
      .thenNothing();
    spec
      .given([claimed(), released])
      .when({ type: 'Release', claimId: '00000000-0000-4000-8000-000000000001', status: 500, now: T0 })
      .thenNothing();
  });
});
