import { Inject, Injectable } from '@nestjs/common';
import { GOAL_RECIPIENT_EVENT_TYPES, GOAL_RECIPIENT_STREAM_PREFIXES, GoalRecipientMatcher } from '@notify/application';
import { Database } from '@notify/database';
import { EventStore, RecordedEvent } from '@notify/eventstore';
import { DATABASE, EVENT_STORE } from '@notify/platform';
import { NOTHING_DONE, ProjectionRuntime, Reactor } from '@notify/projection-runtime';
import { GoalQueries } from '@notify/projections/goals';

/** How long a batch waits for the runs and goals read models before it is retried. */
const CATCH_UP_MS = 30_000;

/**
 * Marks runs converted when a user update meets a `recipient` goal, or users enter or exit the
 * static audience of an `audience` goal (ADR 0247). It starts at the
 * end of the log: a new deployment does not convert runs for updates made before it.
 */
@Injectable()
export class GoalRecipientReactor implements Reactor {
  readonly name = 'goals-recipient-and-audience-events';
  readonly filter = { eventTypes: GOAL_RECIPIENT_EVENT_TYPES, streamPrefixes: GOAL_RECIPIENT_STREAM_PREFIXES };
  readonly startFrom = 'end' as const;
  private readonly matcher: GoalRecipientMatcher;

  constructor(
    @Inject(EVENT_STORE) store: EventStore,
    @Inject(DATABASE) database: Database,
    private readonly runtime: ProjectionRuntime,
  ) {
    this.matcher = new GoalRecipientMatcher(store, new GoalQueries(database.dataSource));
  }

  async handle(events: readonly RecordedEvent[]): Promise<void | typeof NOTHING_DONE> {
    if (events.length === 0) return NOTHING_DONE;
    // Runs started and goals saved before these updates must be in the read models conversion reads.
    const caughtUp = await this.runtime.waitFor(
      events[events.length - 1].position,
      [
        { type: 'RunEnqueued', streamId: 'run-' },
        { type: 'GoalUpserted', streamId: 'goal-' },
      ],
      CATCH_UP_MS,
    );
    if (!caughtUp) throw new Error('the runs or goals read model is behind; retrying');
    return (await this.matcher.handle(events)).length === 0 ? NOTHING_DONE : undefined;
  }
}
