import { Inject, Injectable } from '@nestjs/common';
import { ERASURE_KEYS, ErasureKeyStore, importLogReplacing } from '@notify/application';
import { LogImportResultT } from '@notify/contracts';
import { BOOTSTRAP_ACTOR, DomainError } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { Logger, LOGGER } from '@notify/logging';
import { EVENT_STORE } from '@notify/platform';
import { ProjectionRuntime, recordLogImportIn } from '@notify/projection-runtime';
import { IncomingMessage } from 'node:http';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';

/**
 * The import over HTTP (ADR 0197): the request body read line by line as it arrives and written
 * in one transaction with the reactors' checkpoints, then every read model rebuilt from it.
 */
@Injectable()
export class LogImporter {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(ERASURE_KEYS) private readonly keys: ErasureKeyStore,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly runtime: ProjectionRuntime,
  ) {}

  async import(body: unknown, batchSize: number): Promise<LogImportResultT> {
    if (!(body instanceof Readable))
      throw new DomainError(
        'unsupported_media_type',
        'Send the export as application/x-ndjson (one event a line)',
        'unsupported_media_type',
      );
    const started = Date.now();
    const result = await importLogReplacing(this.store, this.keys, linesOf(body), {
      batchSize,
      replaceableActor: BOOTSTRAP_ACTOR,
      beforeCommit: async (query, end) => {
        await recordLogImportIn(query, end.position, end.events);
        // The read models of the replaced log go with it (ADR 0250): a runner that read the old
        // log starts over instead of applying the new one on top of the old rows.
        await this.runtime.resetAllIn(query);
      },
    });
    this.logger.info({ events: result.events, replaced: result.replaced, ms: Date.now() - started }, 'imported a log export');
    const projections = [];
    for (const projection of this.runtime.projections) {
      const rebuilt = await this.runtime.rebuild(projection.name);
      projections.push({ name: projection.name, events: rebuilt.events, ms: rebuilt.ms });
    }
    return {
      events: result.events,
      replaced_events: result.replaced,
      last_global_position: result.events ? result.lastGlobalPosition : null,
      position: result.position,
      erased_subjects: result.erasedSubjects,
      projections,
    };
  }
}

/** The body's lines; a body cut short (the client went away) fails, so the import rolls back rather than keep a part. */
async function* linesOf(body: Readable): AsyncIterable<string> {
  yield* createInterface({ input: body, crlfDelay: Infinity });
  if ((body as IncomingMessage).complete === false)
    throw new DomainError('incomplete_body', 'The request body ended before it was complete; nothing was imported', 'invalid_request');
}
