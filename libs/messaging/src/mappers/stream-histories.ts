import type { RecordedEvent } from '@notify/eventstore';

/** What the mappers read: whole streams (the EventStore port has this). */
export interface StreamReader {
  readStreams(streamIds: readonly string[]): Promise<Map<string, RecordedEvent[]>>;
}

/**
 * Streams read once per relay batch, cut at the revision a mapper asks about. Events are never
 * changed once written, so a prefix read earlier in the batch is as good as a fresh read; a
 * revision the cached copy does not reach yet (appended after it was read) reads the stream again.
 */
export class StreamHistories {
  private cache = new Map<string, RecordedEvent[]>();

  constructor(private readonly reader: StreamReader) {}

  /** Forgets the previous batch and reads these streams in one call. */
  async load(streamIds: Iterable<string>): Promise<void> {
    const ids = [...new Set(streamIds)];
    this.cache = ids.length ? await this.reader.readStreams(ids) : new Map();
  }

  /** The stream from its first event up to and including `revision`. */
  async upTo(streamId: string, revision: number): Promise<RecordedEvent[]> {
    let events = this.cache.get(streamId);
    if (!events || events.length <= revision) {
      events = (await this.reader.readStreams([streamId])).get(streamId) ?? [];
      this.cache.set(streamId, events);
    }
    return events.filter((e) => e.revision <= revision);
  }
}
