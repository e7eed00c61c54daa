import { Inject, Injectable } from '@nestjs/common';
import { RecipientDeps, ScheduleCleanup } from '@notify/application';
import { Database } from '@notify/database';
import { EventStore, RecordedEvent } from '@notify/eventstore';
import { DATABASE, EVENT_STORE } from '@notify/platform';
import { ProjectionRuntime, Reactor } from '@notify/projection-runtime';
import { ChannelQueries } from '@notify/projections/channels';
import { ScheduleQueries } from '@notify/projections/schedules';
import { SubscriptionQueries } from '@notify/projections/subscriptions';

/** Deleting a user or an object deletes its schedules (ScheduleCleanup). */
@Injectable()
export class ScheduleCleanupReactor implements Reactor {
  readonly name = 'schedule-cleanup';
  readonly filter = { eventTypes: ['UserDeleted', 'ObjectDeleted'] };
  private readonly cleanup: ScheduleCleanup;

  constructor(@Inject(EVENT_STORE) store: EventStore, @Inject(DATABASE) database: Database, runtime: ProjectionRuntime) {
    const schedules = new ScheduleQueries(database.dataSource);
    const recipients: RecipientDeps = {
      store,
      channels: new ChannelQueries(database.dataSource),
      subscriptions: new SubscriptionQueries(database.dataSource),
    };
    this.cleanup = new ScheduleCleanup({
      recipients,
      schedulesOf: async (environment, recipient, position) => {
        // Every schedule created before the deletion must be in the read model first.
        if (!(await runtime.waitFor(position, [{ type: 'ScheduleCreated', streamId: 'schedule-' }], 30_000)))
          throw new Error('the schedules read model is behind the deletion; retrying');
        return schedules.idsOf(environment, recipient);
      },
    });
  }

  async handle(events: readonly RecordedEvent[]): Promise<void> {
    for (const event of events) await this.cleanup.handle(event);
  }
}
