import { eventContracts } from '@notify/contracts';
import {
  hasSealingKeyChecks,
  isLogImporter,
  isLogRangeLocator,
  isStreamRedactor,
  isTamperEvident,
  SealedForms,
  SealingKeyChangedError,
} from '@notify/eventstore';
import type {
  AppendResult,
  ChainReport,
  EventStore,
  EventToAppend,
  ExpectedRevision,
  ImportedEvent,
  ImportTransaction,
  LogImporter,
  LogPosition,
  LogRangeLocator,
  StreamRedactor,
  ReadAllOptions,
  ReadAllPage,
  ReadStreamOptions,
  RecordedEvent,
  SealedWith,
  StreamAppend,
} from '@notify/eventstore';
import { ErasureKeyStore, erasureSubject, SealingKey, TransactionKeys } from './erasure-keys';
import {
  hasPersonalValues,
  isSealedField,
  openPersonalFields,
  personalSubject,
  RecentSeals,
  sealPersonalFields,
  sealedSubjects,
} from './personal-fields';

/**
 * An event store that seals the personal fields its contracts declare before they are appended
 * and opens them on every read (ADR 0180): callers see clear data, or `{ $erased: true }` once the
 * subject's key is destroyed. The wrapped store's SQL is unchanged.
 *
 * Over a store with sealing-key checks (Postgres, ADR 0216) no statement of its own reads the
 * erasure epoch: a read's events are opened under the epoch its own statement returned, and an
 * append sealed with cached keys lands only if they are still the stored ones (else the cache
 * of those subjects is dropped and the events sealed again).
 */
export class PersonalDataEventStore implements EventStore, SealedForms {
  readonly kind: EventStore['kind'];
  readonly atomicMultiStreamAppend: boolean;
  /** Whether the wrapped store returns the epoch with its reads and checks `sealedWith` (ADR 0216). */
  private readonly keyChecks: boolean;
  private readonly stopObserving: () => void = () => undefined;

  constructor(
    private readonly inner: EventStore,
    private readonly keys: ErasureKeyStore,
  ) {
    this.kind = inner.kind;
    this.atomicMultiStreamAppend = inner.atomicMultiStreamAppend;
    this.keyChecks = hasSealingKeyChecks(inner);
    if (hasSealingKeyChecks(inner)) this.stopObserving = inner.onErasureEpoch((epoch) => keys.observeEpoch(epoch));
    // The hash chain (ADR 0176) is the wrapped store's, over the sealed rows: a wrapper over a
    // store that keeps one answers its check, one over a store that does not has none.
    if (isTamperEvident(inner)) this.verifyChain = (options) => inner.verifyChain(options);
    if (isLogRangeLocator(inner)) this.locateRange = (range) => inner.locateRange(range);
    // The record of a deletion has no personal field: written as given.
    if (isStreamRedactor(inner)) this.deleteStreams = (ids, record) => inner.deleteStreams(ids, record);
    if (isLogImporter(inner)) {
      this.isEmpty = () => inner.isEmpty();
      this.importEvents = async (events) => inner.importEvents(await this.sealImported(events));
      this.importReplacing = (batches, options) => {
        // The stream's earlier events are in the import's own transaction, which the lookup of a
        // `'stream'` subject cannot read: the subjects already sealed for are remembered instead.
        const known = new Map<string, string>();
        const seal = (batch: readonly ImportedEvent[], keys: TransactionKeys) => this.sealImported(batch, known, keys);
        // The keys are read and created in the import's transaction (ADR 0249), the view its
        // erasures use too (the same object for the same transaction).
        const sealed = async function* (tx: ImportTransaction) {
          const txKeys = keys.inTransaction(tx);
          for await (const batch of batches(tx)) yield await seal(batch, txKeys);
        };
        return inner.importReplacing(sealed, options);
      };
    }
  }

  isEmpty?: () => Promise<boolean>;
  importEvents?: (events: readonly ImportedEvent[]) => Promise<void>;
  importReplacing?: LogImporter['importReplacing'];
  locateRange?: LogRangeLocator['locateRange'];
  deleteStreams?: StreamRedactor['deleteStreams'];

  /**
   * Seals imported events stream by stream (a `'stream'` subject is found on the stream's earlier
   * events), in their order. With `txKeys` (an import's transaction) the batch's keys are taken
   * there, in one lookup.
   */
  private async sealImported(
    events: readonly ImportedEvent[],
    known?: Map<string, string>,
    txKeys?: TransactionKeys,
  ): Promise<ImportedEvent[]> {
    let prepared: Map<string, SealingKey> | undefined;
    if (txKeys) {
      const keys = await txKeys.keysForWriting(subjectsNamedIn(events));
      prepared = new Map([...keys].map(([subject, key]) => [subject, { subject, key, wrapped: '' }]));
    }
    const byStream = new Map<string, ImportedEvent[]>();
    for (const e of events) {
      const group = byStream.get(e.streamId);
      if (group) group.push(e);
      else byStream.set(e.streamId, [e]);
    }
    const sealed = new Map<ImportedEvent, ImportedEvent>();
    for (const [streamId, group] of byStream) {
      const { events: out } = await this.seal(streamId, group, { known, prepared, keys: txKeys });
      group.forEach((e, i) => sealed.set(e, { ...e, data: out[i].data }));
    }
    return events.map((e) => sealed.get(e)!);
  }

  verifyChain?: (options?: { checkpoint?: boolean }) => Promise<ChainReport>;

  async append(
    streamId: string,
    events: readonly EventToAppend[],
    options?: { expectedRevision?: ExpectedRevision; quiet?: boolean },
  ): Promise<AppendResult> {
    return this.conditionally(async () => {
      const sealed = await this.seal(streamId, events, { conditional: this.keyChecks });
      return this.inner.append(streamId, sealed.events, { ...options, sealedWith: sealed.sealedWith });
    });
  }

  async appendMany(appends: readonly StreamAppend[]): Promise<AppendResult[]> {
    return this.sealedAppend(appends, (sealed) => this.inner.appendMany(sealed));
  }

  /** appendMany through the inner store's group commit where it has one. */
  async appendTogether(appends: readonly StreamAppend[]): Promise<AppendResult[]> {
    const inner = this.inner;
    return this.sealedAppend(appends, (sealed) => (inner.appendTogether ? inner.appendTogether(sealed) : inner.appendMany(sealed)));
  }

  private async sealedAppend(
    appends: readonly StreamAppend[],
    write: (sealed: StreamAppend[]) => Promise<AppendResult[]>,
  ): Promise<AppendResult[]> {
    return this.conditionally(async () => {
      // The keys of every subject named in the events' data, in one lookup for the whole batch.
      const subjects = subjectsNamedIn(appends.flatMap((a) => a.events));
      const prepared =
        subjects.size <= 1
          ? undefined
          : this.keyChecks
            ? await this.keys.sealingKeys(subjects)
            : new Map([...(await this.keys.keysForWriting(subjects))].map(([subject, key]) => [subject, { subject, key, wrapped: '' }]));
      const sealed: StreamAppend[] = [];
      for (const a of appends) {
        const out = await this.seal(a.streamId, a.events, { prepared, conditional: this.keyChecks });
        sealed.push({ ...a, events: out.events, sealedWith: out.sealedWith });
      }
      return write(sealed);
    });
  }

  /**
   * Runs a sealing append again when the store found a key it was sealed with no longer stored
   * (destroyed by another process since this one cached it): the subjects' cache is dropped and
   * the events are sealed with the key stored now (a new one after an erasure, as keyFor gives).
   */
  private async conditionally<T>(attempt: () => Promise<T>): Promise<T> {
    for (let tries = 1; ; tries++) {
      try {
        return await attempt();
      } catch (error) {
        if (!(error instanceof SealingKeyChangedError) || tries >= 5) throw error;
        this.keys.forget(error.subjects);
      }
    }
  }

  async readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    return this.open(await this.inner.readStream(streamId, options));
  }

  async readStreams(streamIds: readonly string[]): Promise<Map<string, RecordedEvent[]>> {
    const streams = await this.inner.readStreams(streamIds);
    const opened = await this.open([...streams.values()].flat());
    const byId = new Map(opened.map((e) => [e.id, e]));
    return new Map([...streams].map(([id, events]) => [id, events.map((e) => byId.get(e.id)!)]));
  }

  async readAll(options?: ReadAllOptions): Promise<ReadAllPage> {
    const page = await this.inner.readAll(options);
    return { ...page, events: await this.open(page.events) };
  }

  headPosition(): Promise<LogPosition> {
    return this.inner.headPosition();
  }
  typeHeadSql(type: string): string | undefined {
    return this.inner.typeHeadSql?.(type);
  }

  newestPosition(): Promise<LogPosition> {
    return this.inner.newestPosition();
  }

  onAppended(listener: (appended?: LogPosition) => void): () => void {
    return this.inner.onAppended(listener);
  }

  onReplaced(listener: () => void): () => void {
    return this.inner.onReplaced?.(listener) ?? (() => undefined);
  }

  close(): Promise<void> {
    this.stopObserving();
    return this.inner.close();
  }

  /**
   * Opens a batch just read from the wrapped store with one key lookup for all its subjects.
   * With key checks the read's statement returned the epoch, already observed by the key store.
   */
  private async open(events: RecordedEvent[]): Promise<RecordedEvent[]> {
    const subjects = new Set<string>();
    for (const e of events) sealedSubjects(e.data, subjects);
    if (subjects.size === 0) return events;
    const keys = await this.keys.keysFor(subjects, { epochObserved: this.keyChecks });
    // An erasure since (the key cache was cleared): what was remembered in clear goes too.
    if (this.keys.erasuresSeen !== this.recentErasures) {
      this.recent.clear();
      this.recentErasures = this.keys.erasuresSeen;
    }
    return events.map((e) => {
      const data = openPersonalFields(e.data, (s) => keys.get(s) ?? null, this.recent);
      if (data === e.data) return e;
      const opened = { ...e, data };
      this.logged.set(opened, e.data);
      return opened;
    });
  }

  /** What this store sealed lately, opened again without decrypting (ADR 0253). */
  readonly recent = new RecentSeals();
  private recentErasures = 0;

  /** The sealed data of events this store opened, by the opened object (kept only as long as it is). */
  private readonly logged = new WeakMap<RecordedEvent, unknown>();

  /**
   * Events' data as the log holds it (ADR 0182). An event this store opened gives back the data
   * it read; any other (one it returned as read, with nothing sealed, or one made elsewhere) is
   * sealed again under its subject's key, so a personal value is never given out in clear.
   */
  async sealedForms(events: readonly RecordedEvent[]): Promise<Map<RecordedEvent, unknown>> {
    const out = new Map<RecordedEvent, unknown>();
    for (const event of events) {
      const logged = this.logged.get(event);
      if (logged !== undefined) out.set(event, logged);
      else if (!eventContracts.get(event.type)?.personal) out.set(event, event.data);
      else out.set(event, (await this.seal(event.streamId, [event])).events[0].data);
    }
    return out;
  }

  /**
   * Seals the events' personal fields. `conditional`: the keys are taken without an epoch read
   * and returned as `sealedWith`, for an append that lands only if they are still stored.
   */
  private async seal(
    streamId: string,
    events: readonly EventToAppend[],
    options: {
      prepared?: Map<string, SealingKey>;
      known?: Map<string, string>;
      conditional?: boolean;
      /** Where keys not prepared come from (an import's transaction); the key store otherwise. */
      keys?: { keyFor(subject: string): Promise<Buffer> };
    } = {},
  ): Promise<{ events: EventToAppend[]; sealedWith?: SealedWith[] }> {
    const { prepared, known, conditional } = options;
    const keys = options.keys ?? this.keys;
    const out: EventToAppend[] = [];
    const used = new Map<string, SealedWith>();
    let streamSubject: string | null | undefined;
    for (const event of events) {
      const personal = eventContracts.get(event.type)?.personal;
      if (!personal || !hasPersonalValues(personal, event.data as object)) {
        out.push(event);
        continue;
      }
      let subject: string | null;
      if (personal.subject === 'stream') {
        if (streamSubject === undefined) streamSubject = known?.get(streamId) ?? (await this.subjectOfStream(streamId, out, !known));
        subject = streamSubject;
      } else {
        const id = personalSubject(personal, event.data as never);
        subject = id === null ? null : erasureSubject(event.metadata.environment, id);
      }
      if (subject === null) {
        out.push(event);
        continue;
      }
      if (known && !known.has(streamId)) known.set(streamId, subject);
      let key: Buffer;
      if (conditional) {
        const sealing = prepared?.get(subject) ?? (await this.keys.sealingKey(subject));
        used.set(subject, { subject, wrappedKey: sealing.wrapped });
        key = sealing.key;
      } else key = prepared?.get(subject)?.key ?? (await keys.keyFor(subject));
      out.push({ ...event, data: sealPersonalFields(personal, event.data as object, subject, key, this.recent) });
    }
    return { events: out, sealedWith: used.size > 0 ? [...used.values()] : undefined };
  }

  /** The subject an earlier event of the stream sealed for (in clear on its sealed fields), this batch first. */
  private async subjectOfStream(streamId: string, batch: readonly EventToAppend[], readStore = true): Promise<string | null> {
    const find = (data: unknown): string | null => {
      if (typeof data !== 'object' || data === null) return null;
      for (const v of Object.values(data)) if (isSealedField(v)) return v.subject;
      return null;
    };
    for (const e of batch) {
      const s = find(e.data);
      if (s) return s;
    }
    if (!readStore) return null;
    for (const e of await this.inner.readStream(streamId)) {
      const s = find(e.data);
      if (s) return s;
    }
    return null;
  }
}

/** The subjects named in the events' data (a `'stream'` subject is not: it is found on the stream's events). */
function subjectsNamedIn(events: readonly EventToAppend[]): Set<string> {
  const subjects = new Set<string>();
  for (const event of events) {
    const personal = eventContracts.get(event.type)?.personal;
    if (!personal || personal.subject === 'stream') continue;
    const id = personalSubject(personal, event.data as never);
    if (id !== null) subjects.add(erasureSubject(event.metadata.environment, id));
  }
  return subjects;
}
