import { LogFilter, RecordedEvent } from '@notify/eventstore';
import { EntityManager } from 'typeorm';

/**
 * A read model built from the log. `apply` runs inside the transaction that also moves the
 * checkpoint, so a batch is applied exactly once or not at all.
 */
export interface Projection {
  readonly name: string;
  /** Bump when the projection's logic or tables change: the read model is rebuilt on start. */
  readonly version: number;
  readonly filter: LogFilter;
  /** Tables emptied by a rebuild. */
  readonly tables: readonly string[];
  /**
   * Projections in one lane share a transaction per page of the log; lanes run beside each other
   * (ADR 0145). A projection whose visibility is waited on (the feed) takes a lane of its own.
   */
  readonly lane?: string;
  /**
   * Nothing a delivery waits for reads it (the run history): while other work is behind (a lane
   * reading full pages, or what the runtime was told to yield to), its lane waits, for a bounded
   * time and never while someone waits for it (ADR 0286). A background projection takes a lane of
   * its own: it does not hold other projections back.
   */
  readonly background?: boolean;
  apply(events: readonly RecordedEvent[], tx: EntityManager): Promise<void>;
}

export function handles(projection: Projection, event: { type: string; streamId: string }): boolean {
  const { eventTypes, streamPrefixes } = projection.filter;
  if (eventTypes?.length && !eventTypes.includes(event.type)) return false;
  if (streamPrefixes?.length && !streamPrefixes.some((p) => event.streamId.startsWith(p))) return false;
  return true;
}
