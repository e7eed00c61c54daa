import { StreamAppend } from './event-store';

/**
 * The requests of this process whose writes are in the log: an append that committed notes the
 * `request_id` of its events' metadata. The HTTP error handler asks it when the database fails
 * in the middle of a request: before the request's write committed, nothing was written and the
 * request may be repeated; after, the write stands and repeating it could record it twice.
 * Entries are forgotten when the request is answered; the oldest go first past `max`, so
 * requests that are never answered cannot make it grow.
 */
export class CommittedRequests {
  private readonly ids = new Set<string>();

  constructor(private readonly max = 10_000) {}

  noteAppends(appends: readonly Pick<StreamAppend, 'events'>[]): void {
    for (const append of appends) {
      const id = append.events[0]?.metadata.request_id;
      if (typeof id !== 'string' || this.ids.has(id)) continue;
      if (this.ids.size >= this.max) this.ids.delete(this.ids.values().next().value!);
      this.ids.add(id);
    }
  }

  has(requestId: string): boolean {
    return this.ids.has(requestId);
  }

  forget(requestId: string): void {
    this.ids.delete(requestId);
  }
}

/** One per process: the event store adapters write to it, the HTTP layer reads it. */
export const committedRequests = new CommittedRequests();
