import { Inject, Injectable } from '@nestjs/common';
import { BulkOperationProcessor, BulkOperationReactor, BulkWrite, EngineLookups } from '@notify/application';
import { Database } from '@notify/database';
import { EventStore, RecordedEvent } from '@notify/eventstore';
import { DATABASE, ENGINE_LOOKUPS, EVENT_STORE } from '@notify/platform';
import { ProjectionRuntime, Reactor } from '@notify/projection-runtime';
import { ChannelQueries } from '@notify/projections/channels';
import { SubscriptionQueries } from '@notify/projections/subscriptions';
import { ItemSchemaQueries } from '@notify/projections/item-schemas';

/** How long a chunk waits for the read models of its items before it is redone later. */
const CATCH_UP_MS = 15_000;

/** The worker's bulk operation runner (see BulkOperationReactor). */
@Injectable()
export class BulkOperationWorker implements Reactor {
  private readonly reactor: BulkOperationReactor;
  readonly name: string;
  readonly filter: Reactor['filter'];
  readonly concurrency: number;

  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(DATABASE) database: Database,
    runtime: ProjectionRuntime,
    @Inject(ENGINE_LOOKUPS) lookups: EngineLookups,
  ) {
    const deps = {
      store,
      lookups,
      channels: new ChannelQueries(database.dataSource),
      subscriptions: new SubscriptionQueries(database.dataSource),
      itemSchemas: new ItemSchemaQueries(database.dataSource),
      readModelsAt: async (writes: readonly BulkWrite[]) => {
        if (writes.length === 0) return;
        const position = writes.map((w) => w.position).reduce((a, b) => (a > b ? a : b));
        if (
          !(await runtime.waitFor(
            position,
            writes.flatMap((w) => w.events),
            CATCH_UP_MS,
          ))
        ) {
          throw new Error('read models are behind the bulk operation; its chunk is redone later');
        }
      },
    };
    this.reactor = new BulkOperationReactor(new BulkOperationProcessor(deps, { chunkSize: 100, itemConcurrency: 8 }));
    this.name = this.reactor.name;
    this.filter = this.reactor.filter;
    this.concurrency = this.reactor.concurrency;
  }

  handle(events: readonly RecordedEvent[]): Promise<void> {
    return this.reactor.handle(events);
  }
}
