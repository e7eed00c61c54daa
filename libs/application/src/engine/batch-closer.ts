import { batchDecider, BatchEvent, runDecider, RunEvent, runStream } from '@notify/domain';
import { EventStore, RecordedEvent } from '@notify/eventstore';
import { handleCommand } from '../handle-command';
import { engineId } from './ids';

/** How long a window's close waits at most for the runs due before it (then it closes anyway). */
const MAX_CLOSE_WAIT_MS = 30_000;

/**
 * Closes batches whose window timer fired, and hands each closed batch to the run that owns it
 * (which then continues with every activity).
 *
 * `runsThrough(position)` answers whether every run started by what the log holds before
 * `position` has been executed as far as it could go: a window closes only once the runs whose
 * triggers were accepted while it was open have reached the batch step (behind a backlog they
 * arrive after the window's timer), so they join it instead of opening another (issue 19).
 */
export class BatchCloser {
  constructor(
    private readonly store: EventStore,
    private readonly runsThrough?: (position: string) => Promise<boolean>,
  ) {}

  async handle(event: RecordedEvent): Promise<void> {
    const environment = event.metadata.environment!;
    const meta = { environment, actor: 'system:batches', causation_id: event.id };
    if (event.type === 'TimerFired') {
      const { timer_id: timerId, fired_at: now } = event.data as { timer_id: string; fired_at: string };
      await this.afterRunsDueBefore(event.position);
      // The batch closed when its timer fired, by the clock the timers fire by (ADR 0271).
      await handleCommand(this.store, event.streamId, batchDecider, { type: 'Close', timerId, now }, meta, {
        eventId: (_e: BatchEvent, i) => engineId('batch-close', timerId, i),
      });
      return;
    }
    if (event.type === 'BatchClosed') {
      const closed = event.data as Extract<BatchEvent, { type: 'BatchClosed' }>['data'];
      if (!closed.owner_run_id) return; // flush_leading with nothing accumulated
      const batch = {
        activities: closed.activities,
        actors: closed.actors,
        total_activities: closed.total_activities,
        total_actors: closed.total_actors,
      };
      await handleCommand(
        this.store,
        runStream(environment, closed.owner_run_id),
        runDecider,
        { type: 'Resume', cause: 'batch_closed', batch, now: closed.closed_at },
        meta,
        {
          eventId: (_e: RunEvent, i) => engineId('batch-resume', closed.batch_id, i),
        },
      );
    }
  }

  private async afterRunsDueBefore(position: string): Promise<void> {
    if (!this.runsThrough) return;
    const deadline = Date.now() + MAX_CLOSE_WAIT_MS;
    while (!(await this.runsThrough(position)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  }
}
