import { LogEvent, LogEventT } from '@notify/contracts';
import { DomainError, invalidParams } from '@notify/domain';
import {
  EventMetadata,
  EventStore,
  ImportedEvent,
  ImportTransaction,
  isLogImporter,
  LogNotEmptyError,
  LogPosition,
  ReplacingImportOptions,
} from '@notify/eventstore';
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

/** A line of an export that cannot be imported: 422, naming the line (1-based), nothing written. */
const invalidLine = (line: number, message: string) =>
  invalidParams([{ field: `line ${line}`, message, type: 'invalid_export' }], `Line ${line}: ${message}`);

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

/** A batch of an export as read, and the subjects erased by its last event (a `UserErased` ends a batch). */
interface ExportBatch {
  events: ImportedEvent[];
  erasures: string[];
}

/**
 * The lines of an export as batches, checked as they are read: each line a log event, in
 * increasing global positions. A bad line throws `invalid_export` naming it (1-based).
 */
interface ReadState {
  lastGlobalPosition: bigint;
  /** The line of each event of the batch being written, to name the one the store refuses. */
  lines: number[];
}

async function* exportBatches(lines: AsyncIterable<string>, batchSize: number, state: ReadState): AsyncGenerator<ExportBatch> {
  let batch: ImportedEvent[] = [];
  let batchLines: number[] = [];
  let lineNo = 0;
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
    if (event.globalPosition <= state.lastGlobalPosition)
      throw invalidLine(lineNo, `global position ${event.globalPosition} does not follow ${state.lastGlobalPosition}`);
    state.lastGlobalPosition = event.globalPosition;
    batch.push(event);
    batchLines.push(lineNo);
    if (event.type === 'UserErased' || batch.length >= batchSize) state.lines = batchLines;
    if (event.type === 'UserErased') {
      const userId = (event.data as { user_id?: unknown }).user_id;
      const erasures = typeof userId === 'string' ? [erasureSubject(event.metadata.environment ?? null, userId)] : [];
      // The events after an erasure are sealed after the key is gone, as they were at the source.
      yield { events: batch, erasures };
      batch = [];
      batchLines = [];
    } else if (batch.length >= batchSize) {
      yield { events: batch, erasures: [] };
      batch = [];
      batchLines = [];
    }
  }
  state.lines = batchLines;
  if (batch.length) yield { events: batch, erasures: [] };
}

export async function importLog(
  store: EventStore,
  keys: ErasureKeyStore,
  lines: AsyncIterable<string>,
  options: { batchSize?: number; onProgress?: (progress: ImportProgress) => void } = {},
): Promise<ImportResult> {
  if (!isLogImporter(store)) throw new DomainError('not_supported', 'This event store cannot import a log', 'invalid_request');
  if (!(await store.isEmpty())) throw logNotEmpty();
  const state: ReadState = { lastGlobalPosition: -1n, lines: [] };
  let events = 0;
  const erased = new Set<string>();
  for await (const batch of exportBatches(lines, options.batchSize ?? 500, state)) {
    await store.importEvents(batch.events);
    for (const subject of batch.erasures) {
      await keys.destroy(subject);
      erased.add(subject);
    }
    events += batch.events.length;
    options.onProgress?.({ events, lastGlobalPosition: state.lastGlobalPosition.toString() });
  }
  return {
    events,
    lastGlobalPosition: state.lastGlobalPosition.toString(),
    position: await store.headPosition(),
    erasedSubjects: erased.size,
  };
}

export interface ReplacingImportResultT extends ImportResult {
  /** Events of this installation's first start the import replaced. */
  replaced: number;
}

/**
 * The import over HTTP (ADR 0197): into a running installation whose log holds only what its
 * first start wrote (`replaceableActor`), all in one transaction. The export is read as it
 * arrives (never whole in memory); a bad line or a refused event rolls everything back.
 */
export async function importLogReplacing(
  store: EventStore,
  keys: ErasureKeyStore,
  lines: AsyncIterable<string>,
  options: ReplacingImportOptions & { batchSize?: number },
): Promise<ReplacingImportResultT> {
  if (!isLogImporter(store) || !store.importReplacing)
    throw new DomainError('not_supported', 'This event store cannot import a log', 'invalid_request');
  const state: ReadState = { lastGlobalPosition: -1n, lines: [] };
  const erased = new Set<string>();
  async function* batches(tx: ImportTransaction) {
    // In the import's transaction (ADR 0249): the key goes with the import, or stays if it rolls back.
    const txKeys = keys.inTransaction(tx);
    for await (const batch of exportBatches(lines, options.batchSize ?? 500, state)) {
      yield batch.events;
      // Resumed once the batch is written (inside the import's transaction): the events after it are sealed without the key.
      for (const subject of batch.erasures) {
        await txKeys.destroy(subject);
        erased.add(subject);
      }
    }
  }
  let current: ImportedEvent[] = [];
  async function* tracked(tx: ImportTransaction) {
    for await (const events of batches(tx)) {
      current = events;
      yield events;
    }
  }
  try {
    const result = await store.importReplacing(tracked, options);
    return {
      events: result.events,
      replaced: result.replaced,
      lastGlobalPosition: state.lastGlobalPosition.toString(),
      position: result.position,
      erasedSubjects: erased.size,
    };
  } catch (error) {
    if (error instanceof LogNotEmptyError) throw new DomainError('log_not_empty', error.message, 'conflict');
    // A line the database refused (a revision that does not follow its stream's): the export is not whole.
    const message = (error as { message?: string }).message ?? '';
    const refused = /^import: (.*) revision (\d+) does not follow/.exec(message);
    if (refused) {
      const index = current.findIndex((e) => e.streamId === refused[1] && e.revision === Number(refused[2]));
      throw invalidLine(index >= 0 ? state.lines[index] : 0, message.slice('import: '.length));
    }
    throw error;
  }
}
