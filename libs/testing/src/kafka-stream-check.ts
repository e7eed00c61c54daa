import type { RecordedEvent } from '@notify/eventstore';
import { isDeepStrictEqual } from 'node:util';

export interface StreamRecord {
  partition: number;
  offset: number;
  key: string;
  headers: Record<string, string>;
  value: unknown;
}

/**
 * Checks a consumed topic against the log for at-least-once delivery keyed by stream id:
 * consumed ⊇ stored; each key's records sit in one partition; walking a key's records in
 * offset order, each event id seen for the first time is that stream's next revision (no gap,
 * no reordering); every other record repeats an earlier event id with identical content; no
 * record carries an id the log does not have. Throws on the first violation; returns the
 * number of duplicates.
 */
export function checkAtLeastOnce(
  stored: readonly Pick<RecordedEvent, 'id' | 'streamId' | 'revision'>[],
  consumed: readonly StreamRecord[],
): { duplicates: number } {
  const storedById = new Map(stored.map((e) => [e.id, e]));
  const byKey = new Map<string, StreamRecord[]>();
  for (const record of consumed) byKey.set(record.key, [...(byKey.get(record.key) ?? []), record]);
  const firstCopy = new Map<string, StreamRecord>();
  let duplicates = 0;
  for (const [key, records] of byKey) {
    const partitions = new Set(records.map((r) => r.partition));
    if (partitions.size !== 1) throw new Error(`key ${key} is spread over partitions ${[...partitions].join(', ')}`);
    let next = 0;
    for (const record of [...records].sort((a, b) => a.offset - b.offset)) {
      const id = record.headers['event-id'];
      const event = storedById.get(id);
      if (!event) throw new Error(`record ${record.partition}/${record.offset} carries event id ${id}, which is not in the log`);
      if (event.streamId !== key) throw new Error(`event ${id} of stream ${event.streamId} was published under key ${key}`);
      const earlier = firstCopy.get(id);
      if (earlier) {
        if (!isDeepStrictEqual(record.value, earlier.value))
          throw new Error(`duplicate of ${id} at offset ${record.offset} differs from its first copy`);
        duplicates++;
        continue;
      }
      if (event.revision !== next)
        throw new Error(`key ${key}: expected revision ${next} next, got ${event.revision} at offset ${record.offset}`);
      next++;
      firstCopy.set(id, record);
    }
  }
  const missing = stored.filter((e) => !firstCopy.has(e.id));
  if (missing.length)
    throw new Error(
      `${missing.length} stored events never published, e.g. ${missing
        .slice(0, 5)
        .map((e) => `${e.streamId}@${e.revision}`)
        .join(', ')}`,
    );
  return { duplicates };
}
