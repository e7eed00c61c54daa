import { ErrorBodyT } from '@notify/contracts';
import { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Timers of the admission controller; tests pass a fake one they advance by hand. */
export interface AdmissionClock {
  now(): number;
  setTimer(fire: () => void, ms: number): unknown;
  clearTimer(timer: unknown): void;
}

export const systemClock: AdmissionClock = {
  now: () => Date.now(),
  setTimer: (fire, ms) => setTimeout(fire, ms),
  clearTimer: (timer) => clearTimeout(timer as NodeJS.Timeout),
};

export interface AdmissionLimits {
  /** Requests worked on at once (HTTP_MAX_IN_FLIGHT). */
  maxInFlight: number;
  /** Requests that may wait for one of those places (HTTP_QUEUE_SIZE); 0 refuses at once. */
  maxQueued: number;
  /** Longest a request waits in the queue before it is refused (HTTP_QUEUE_TIMEOUT_MS). */
  queueTimeoutMs: number;
}

/** Why a request was refused: no room in the queue, or it waited its whole queue time. */
export type Refusal = 'queue_full' | 'queue_timeout';

interface Waiter {
  decide(admitted: true): void;
  decide(admitted: false, why: Refusal): void;
  timer: unknown;
  since: number;
}

export interface AdmissionStats {
  inFlight: number;
  queued: number;
  admitted: number;
  refused: Record<Refusal, number>;
  /** Longest a request that was admitted from the queue had waited, in ms. */
  longestWaitMs: number;
  /** The most requests worked on, and waiting, at once so far: what bounds the memory requests hold. */
  peakInFlight: number;
  peakQueued: number;
}

/**
 * Bounds the requests a process works on at once: up to `maxInFlight` run, up to `maxQueued`
 * more wait (first come, first served) at most `queueTimeoutMs` for a place, and anything beyond
 * is refused at once. Refusal happens before the request is read or routed, so a refused request
 * costs next to nothing and has done nothing (ADR 0137).
 */
export class AdmissionController {
  private inFlight = 0;
  private readonly queue: Waiter[] = [];
  private readonly counts = { admitted: 0, queue_full: 0, queue_timeout: 0, longestWaitMs: 0, peakInFlight: 0, peakQueued: 0 };

  constructor(
    private readonly limits: AdmissionLimits,
    private readonly clock: AdmissionClock = systemClock,
  ) {}

  /**
   * Calls `decide(true)` once the request may run (synchronously when a place is free) or
   * `decide(false, why)` when it is refused. Every admitted request must call `release` once.
   */
  acquire(decide: Waiter['decide']): void {
    if (this.inFlight < this.limits.maxInFlight) {
      this.inFlight++;
      this.counts.admitted++;
      this.counts.peakInFlight = Math.max(this.counts.peakInFlight, this.inFlight);
      decide(true);
      return;
    }
    if (this.queue.length >= this.limits.maxQueued) {
      this.counts.queue_full++;
      decide(false, 'queue_full');
      return;
    }
    const waiter: Waiter = { decide, since: this.clock.now(), timer: undefined };
    waiter.timer = this.clock.setTimer(() => {
      const at = this.queue.indexOf(waiter);
      if (at < 0) return;
      this.queue.splice(at, 1);
      this.counts.queue_timeout++;
      decide(false, 'queue_timeout');
    }, this.limits.queueTimeoutMs);
    this.queue.push(waiter);
    this.counts.peakQueued = Math.max(this.counts.peakQueued, this.queue.length);
  }

  /** A request finished: its place goes to the longest waiting one, if any. */
  release(): void {
    const next = this.queue.shift();
    if (!next) {
      this.inFlight--;
      return;
    }
    this.clock.clearTimer(next.timer);
    this.counts.admitted++;
    this.counts.longestWaitMs = Math.max(this.counts.longestWaitMs, this.clock.now() - next.since);
    next.decide(true);
  }

  stats(): AdmissionStats {
    const { admitted, queue_full, queue_timeout, longestWaitMs, peakInFlight, peakQueued } = this.counts;
    return {
      inFlight: this.inFlight,
      queued: this.queue.length,
      admitted,
      refused: { queue_full, queue_timeout },
      longestWaitMs,
      peakInFlight,
      peakQueued,
    };
  }
}

/** Seconds a refused client is told to wait (`retry-after`). */
export const OVERLOAD_RETRY_AFTER_SECONDS = 1;

export const overloadedBody: ErrorBodyT = {
  code: 'overloaded',
  message: 'The service is at capacity and did not process the request; retry after the time in the retry-after header',
  status: 503,
  type: 'api_error',
};

/** Liveness, readiness and metrics must answer while the service sheds load. */
const EXEMPT = new Set(['/healthz', '/readyz', '/metrics']);

const RELEASE = Symbol('admissionRelease');
type Tracked = FastifyRequest & { [RELEASE]?: () => void };

/**
 * Puts every routed request through the controller in an onRequest hook, ahead of body parsing,
 * authentication and any database work; a refused one is answered 503 `overloaded` with
 * `retry-after` in the API's error shape. The place is given back when the answer is sent:
 * onSend, which every reply passes, also one to a client that has gone (its handler worked until
 * then, so it counted), or onResponse for an answer Fastify writes without onSend.
 */
export function admitRequests(fastify: FastifyInstance, controller: AdmissionController, onRefused?: (why: Refusal) => void): void {
  fastify.addHook('onRequest', (request: Tracked, reply: FastifyReply, done: (error?: Error) => void) => {
    if (EXEMPT.has(request.url.split('?', 1)[0])) return done();
    controller.acquire((admitted: boolean, why?: Refusal) => {
      if (!admitted) {
        onRefused?.(why!);
        void reply.code(503).header('retry-after', String(OVERLOAD_RETRY_AFTER_SECONDS)).send(overloadedBody);
        return;
      }
      let released = false;
      request[RELEASE] = () => {
        if (released) return;
        released = true;
        controller.release();
      };
      done();
    });
  });
  fastify.addHook('onSend', (request: Tracked, _reply, payload, done) => {
    request[RELEASE]?.();
    done(null, payload);
  });
  fastify.addHook('onResponse', (request: Tracked, _reply, done) => {
    request[RELEASE]?.();
    done();
  });
}

/**
 * Gives a request's place back before its answer ends: a long-lived stream (the console's log
 * tail) waits for events, it does no work, and must not hold one of HTTP_MAX_IN_FLIGHT for hours.
 */
export function releaseAdmission(request: FastifyRequest): void {
  (request as Tracked)[RELEASE]?.();
}
