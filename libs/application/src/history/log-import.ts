import { LogEvent, LogEventT } from '@notify/contracts';
import { DomainError } from '@notify/domain';
import { EventMetadata, EventStore, ImportedEvent, isLogImporter, LogPosition } from '@notify/eventstore';
import { ErasureKeyStore, erasureSubject } from '../erasure/erasure-keys';

/**
 * `notify events import` (ADR 0153): an export (JSONL of log events, as the log read API shows
 * them) written into an empty log with the same ids, streams, revisions, global positions and
 * times, so projections rebuilt from it give the same read models. Personal fields arrive in clear
 * and are sealed under this installation's keys; values already erased stay erased markers, and
 * each `UserErased` destroys the subject's key here too, once the events before it are in.
 */

export interface ImportProgress {
  events: number;
  lastGlobalPosition: string;
}

export interface ImportResult extends ImportProgress {
  /** Where the imported log ends in this installation's positions. */
  position: LogPosition;
  erasedSubjects: number;
}

export const logNotEmpty = () =>
  new DomainError('log_not_empty', 'The event log of this installation is not empty; import only into an empty one', 'conflict');

const invalidLine = (line: number, message: string) => new DomainError('invalid_export', `Line ${line}: ${message}`, 'invalid_request');

function toImported(e: LogEventT): ImportedEvent {
  return {
    id: e.id,
    type: e.type,
    streamId: e.stream,
    revision: e.revision,
    globalPosition: BigInt(e.global_position),
    createdAt: new Date(e.recorded_at),
    data: e.data,
    metadata: e.metadata as EventMetadata,
  };
}

export async function importLog(
  store: EventStore,
  keys: ErasureKeyStore,
  lines: AsyncIterable<string>,
  options: { batchSize?: number; onProgress?: (progress: ImportProgress) => void } = {},
): Promise<ImportResult> {
  if (!isLogImporter(store)) throw new DomainError('not_supported', 'This event store cannot import a log', 'invalid_request');
  if (!(await store.isEmpty())) throw logNotEmpty();
  const batchSize = options.batchSize ?? 500;
  let batch: ImportedEvent[] = [];
  let erasures: string[] = [];
  let events = 0;
  let lineNo = 0;
  let last = -1n;
  const erased = new Set<string>();

  const flush = async () => {
    if (batch.length === 0) return;
    await store.importEvents(batch);
    for (const subject of erasures) {
      await keys.destroy(subject);
      erased.add(subject);
    }
    events += batch.length;
    options.onProgress?.({ events, lastGlobalPosition: last.toString() });
    batch = [];
    erasures = [];
  };

  for await (const raw of lines) {
    lineNo++;
    if (raw.trim() === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      throw invalidLine(lineNo, 'not JSON');
    }
    const parsed = LogEvent.safeParse(json);
    if (!parsed.success) throw invalidLine(lineNo, `not a log event (${parsed.error.issues[0]?.path.join('.')})`);
    const event = toImported(parsed.data);
    if (event.globalPosition <= last) throw invalidLine(lineNo, `global position ${event.globalPosition} does not follow ${last}`);
    last = event.globalPosition;
    batch.push(event);
    if (event.type === 'UserErased') {
      const userId = (event.data as { user_id?: unknown }).user_id;
      if (typeof userId === 'string') erasures.push(erasureSubject(event.metadata.environment ?? null, userId));
      // The events after an erasure are sealed after the key is gone, as they were at the source.
      await flush();
    } else if (batch.length >= batchSize) await flush();
  }
  await flush();
  return { events, lastGlobalPosition: last.toString(), position: await store.headPosition(), erasedSubjects: erased.size };
}
