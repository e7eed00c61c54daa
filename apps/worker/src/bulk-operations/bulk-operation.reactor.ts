import { Inject, Injectable } from '@nestjs/common';
import { BulkOperationProcessor, BulkOperationReactor } from '@notify/application';
import { Database } from '@notify/database';
import { EventStore, RecordedEvent } from '@notify/eventstore';
import { DATABASE, EVENT_STORE } from '@notify/platform';
import { Reactor } from '@notify/projection-runtime';
import { ChannelQueries } from '@notify/projections/channels';
import { SubscriptionQueries } from '@notify/projections/subscriptions';

/** The worker's bulk operation runner (see BulkOperationReactor). */
@Injectable()
export class BulkOperationWorker implements Reactor {
  private readonly reactor: BulkOperationReactor;
  readonly name: string;
  readonly filter: Reactor['filter'];
  readonly concurrency: number;

  constructor(@Inject(EVENT_STORE) store: EventStore, @Inject(DATABASE) database: Database) {
    const deps = { store, channels: new ChannelQueries(database.dataSource), subscriptions: new SubscriptionQueries(database.dataSource) };
    this.reactor = new BulkOperationReactor(new BulkOperationProcessor(deps, { chunkSize: 100, itemConcurrency: 8 }));
    this.name = this.reactor.name;
    this.filter = this.reactor.filter;
    this.concurrency = this.reactor.concurrency;
  }

  handle(events: readonly RecordedEvent[]): Promise<void> {
    return this.reactor.handle(events);
  }
}
