import { Inject, Injectable } from '@nestjs/common';
import { RunCanceller } from '@notify/application';
import { Database } from '@notify/database';
import { EventStore, RecordedEvent } from '@notify/eventstore';
import { DATABASE, EVENT_STORE } from '@notify/platform';
import { ProjectionRuntime, Reactor } from '@notify/projection-runtime';
import { WorkflowRunQueries } from '@notify/projections/workflow-runs';

/** How long a cancellation waits for the runs read model before the batch is retried. */
const CATCH_UP_MS = 30_000;

/** Cancels the queued, processing and paused runs a cancellation request covers (found in the runs read model). */
@Injectable()
export class CancellationReactor implements Reactor {
  readonly name = 'engine-cancellations';
  readonly filter = { eventTypes: ['CancellationRequested'], streamPrefixes: ['cancellation-'] };
  readonly concurrency = 4;
  private readonly canceller: RunCanceller;

  constructor(@Inject(EVENT_STORE) store: EventStore, @Inject(DATABASE) database: Database, runtime: ProjectionRuntime) {
    this.canceller = new RunCanceller(store, new WorkflowRunQueries(database.dataSource), (position) =>
      runtime.waitFor(position, [{ type: 'RunEnqueued', streamId: 'run-' }], CATCH_UP_MS),
    );
  }

  async handle(events: readonly RecordedEvent[]): Promise<void> {
    for (const event of events) await this.canceller.handle(event);
  }
}
