import { LogFilter, RecordedEvent } from '@notify/eventstore';

/**
 * What `Reactor.handle` answers when the events had no effect at all (nothing appended, nothing
 * called or published): the runtime then only remembers how far the reactor has read, as for
 * events its filter leaves out, and writes the checkpoint with a later batch or after 500 ms.
 * Handling them again after a crash must do nothing again (or what an idempotent effect would).
 */
export const NOTHING_DONE = Symbol('nothing done');

/**
 * Something that reacts to events with effects outside a read-model transaction: appending
 * events (process managers), calling providers, publishing to Kafka. Delivery is at least once:
 * after a crash a batch may be handled again, so every effect must be idempotent
 * (deterministic event ids, provider idempotency keys, consumers deduplicating by event id).
 */
export interface Reactor {
  readonly name: string;
  readonly filter: LogFilter;
  /** Where a reactor with no checkpoint yet begins (default: the start of the log). */
  readonly startFrom?: 'beginning' | 'end';
  /**
   * Handle events of one batch. The runtime calls this per stream group in parallel (up to the
   * reactor's concurrency), preserving order within a stream.
   */
  handle(events: readonly RecordedEvent[]): Promise<void | typeof NOTHING_DONE>;
  /** Streams handled in parallel within one batch (default 1: strictly in log order). */
  readonly concurrency?: number;
  /**
   * true: after a full batch the runtime reads the next one while this one is handled, and hands
   * it to `prepare` as soon as it is read. For reactors that go through a backlog one batch at a
   * time (concurrency 1) and wait on something else meanwhile (the broker's acknowledgement).
   */
  readonly readAhead?: boolean;
  /**
   * Called with a batch as soon as it is read, possibly while the batch before it is still being
   * handled; `handle` is later called with the same array. For work that does not depend on the
   * batches before being handled (mapping, serializing). A batch may be prepared and never
   * handled (the previous one failed and is read again): nothing here may have an effect.
   */
  prepare?(events: readonly RecordedEvent[]): void;
  /** Events per batch (default: the runtime's batch size). */
  readonly batchSize?: number;
  /**
   * false: the runtime does not run it at all (its backend is not configured), so its
   * checkpoint never moves past events it did not handle. Default true.
   */
  readonly enabled?: boolean;
  /**
   * Called when this runtime moves the reactor past events it did not hand to it: another
   * worker (or an import) moved the checkpoint, and the runtime continues from there. A reactor
   * that keeps what it learnt from the events it saw (the wait matcher's awaited kinds) forgets
   * it here.
   */
  skipped?(): void;
  /**
   * true: handling a batch again changes nothing (every effect is an append with ids derived
   * from what was handled, checked against the stream's revision), so the runtime may write the
   * checkpoint after a batch that acted as late as after one that did not (ADR 0255): a crash
   * replays at most that much. Default false: written after every batch that acted.
   */
  readonly replayable?: boolean;
  /**
   * true: handling a batch again has effects, but ones that are tolerated where they land (the
   * Kafka relay: a record published twice is dropped by consumers by its event id), so the
   * runtime writes the checkpoint after batches that acted as it does for a replayable reactor,
   * at most every 500 ms, not after each one: a crash publishes at most that much again. Default
   * false.
   */
  readonly repeatsTolerated?: boolean;
}
