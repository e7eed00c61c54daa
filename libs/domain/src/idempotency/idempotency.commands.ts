export type IdempotencyCommand =
  /** A request with the key arrives: it claims the key, or finds it answered, reused or in use. */
  | {
      type: 'Claim';
      claimId: string;
      operation: string;
      fingerprint: string;
      requestId: string;
      now: string;
      leaseMs: number;
      ttlMs: number;
    }
  /** The claiming request succeeded (2xx): its response is what repeats answer. */
  | { type: 'RecordResponse'; claimId: string; status: number; body: unknown; requestId: string; now: string }
  /** The claiming request failed: nothing is stored and the key is free again. */
  | { type: 'Release'; claimId: string; status: number | null; now: string };
