import { DomainError, idempotencyDecider, IdempotencyState, idempotencyStream, invalidParams } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { createHash, randomUUID } from 'node:crypto';
import { contentSha } from '../config/content-hash';
import { CommandMetadata, handleCommand } from '../handle-command';

export interface IdempotencyOptions {
  /** How long a key stays bound to its first request (24 hours). */
  ttlMs: number;
  /** How long a claim holds the key before another request may take it over (its request died). */
  leaseMs: number;
  /** How long a repeat waits for the first request's answer before it is refused as in use. */
  waitMs: number;
}

export const IDEMPOTENCY_DEFAULTS: IdempotencyOptions = { ttlMs: 24 * 3_600_000, leaseMs: 60_000, waitMs: 10_000 };
export const IDEMPOTENCY_KEY_MAX = 255;

export interface IdempotentRequest {
  environment: string;
  key: string;
  /** The route's operation id: a key used for another operation counts as other parameters. */
  operation: string;
  /** A hash of the request's parameters (path, query, body). */
  fingerprint: string;
  requestId: string;
  metadata: CommandMetadata;
}

export interface IdempotentResponse {
  status: number;
  body: unknown;
}

export type IdempotentOutcome =
  { replayed: false; response: IdempotentResponse } | { replayed: true; response: IdempotentResponse; originalRequestId: string };

/** The `Idempotency-Key` header must be 1 to 255 characters. */
export function checkIdempotencyKey(key: string): void {
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX) {
    throw invalidParams(
      [{ field: 'Idempotency-Key', message: `must be 1 to ${IDEMPOTENCY_KEY_MAX} characters`, type: 'too_long' }],
      'The Idempotency-Key header is invalid',
    );
  }
}

/** The fingerprint of a request's parameters, whatever the key order of its JSON. */
export const requestFingerprint = (parameters: unknown) => contentSha(parameters);

const keyHash = (key: string) => createHash('sha256').update(key).digest('hex');

const is2xx = (status: number) => status >= 200 && status < 300;

/**
 * Runs a request at most once per Idempotency-Key, with the key's state in its own stream
 * (idempotency decider): the first request claims the key and records its 2xx response (a
 * failure releases the key); a repeat with the same parameters gets that response back; a
 * repeat that arrives while the first is still running waits for its answer, up to `waitMs`,
 * then is refused with 409 `idempotency_key_in_use`; other parameters get 422
 * `idempotency_key_reused`.
 */
export class IdempotencyGate {
  constructor(
    private readonly store: EventStore,
    private readonly options: IdempotencyOptions = IDEMPOTENCY_DEFAULTS,
  ) {}

  async run(request: IdempotentRequest, execute: () => Promise<IdempotentResponse>): Promise<IdempotentOutcome> {
    checkIdempotencyKey(request.key);
    const stream = idempotencyStream(request.environment, keyHash(request.key));
    const claimId = randomUUID();
    const deadline = Date.now() + this.options.waitMs;
    // The key's bookkeeping is not the request's write: without the request id in its metadata,
    // a claim that committed does not count as the request having written (ADR 0135); the
    // claim's data names the request. No projection or reactor reads it either: its appends wake
    // no log reader (quiet), which read past them with the request's own append (ADR 0183).
    const metadata: CommandMetadata = { ...request.metadata, request_id: undefined, environment: request.environment };
    // A key is nearly always new (the official clients send a fresh one with every POST): the
    // first claim is appended without reading the key's stream, as if it had none (ADR 0183).
    let claimed: { state: IdempotencyState; revision: number };
    for (let pause = 10, first = true; ; pause = Math.min(pause * 2, 200), first = false) {
      try {
        const claim = await handleCommand(
          this.store,
          stream,
          idempotencyDecider,
          {
            type: 'Claim',
            claimId,
            operation: request.operation,
            fingerprint: request.fingerprint,
            requestId: request.requestId,
            now: new Date().toISOString(),
            leaseMs: this.options.leaseMs,
            ttlMs: this.options.ttlMs,
          },
          metadata,
          // Only the first time: a request waiting for the key's first request knows it exists.
          { quiet: true, ...(first ? { assume: { revision: 'no_stream' } } : {}) },
        );
        if (claim.events.length) {
          claimed = { state: claim.state, revision: claim.append!.nextExpectedRevision };
          break;
        }
        const stored = claim.state.response!;
        return { replayed: true, response: { status: stored.status, body: stored.body }, originalRequestId: stored.requestId };
      } catch (error) {
        if (!(error instanceof DomainError && error.code === 'idempotency_key_in_use') || Date.now() + pause > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }

    let response: IdempotentResponse;
    try {
      response = await execute();
    } catch (error) {
      await this.settle(stream, { type: 'Release', claimId, status: null, now: new Date().toISOString() }, metadata, claimed);
      throw error;
    }
    await this.settle(
      stream,
      is2xx(response.status)
        ? {
            type: 'RecordResponse',
            claimId,
            status: response.status,
            body: response.body ?? null,
            requestId: request.requestId,
            now: new Date().toISOString(),
          }
        : { type: 'Release', claimId, status: response.status, now: new Date().toISOString() },
      metadata,
      claimed,
    );
    return { replayed: false, response };
  }

  /**
   * Best effort: the request's own outcome is what the caller must get. Should recording fail,
   * the claim expires with its lease and a repeat then runs the request again. Decided first on
   * the stream as the claim left it, without reading it; read if another request wrote since
   * (took the key over after the lease).
   */
  private async settle(
    stream: string,
    command: Parameters<typeof idempotencyDecider.decide>[0],
    metadata: CommandMetadata,
    claimed: { state: IdempotencyState; revision: number },
  ): Promise<void> {
    await handleCommand(this.store, stream, idempotencyDecider, command, metadata, { assume: claimed, quiet: true }).catch(() => undefined);
  }
}
