import { CancellationRequested, CancelWorkflowBodyT, EventOf, RecipientRefT, toRecipientRef } from '@notify/contracts';
import { cancellationStream, DomainError, runDecider, runStream } from '@notify/domain';
import { AppendResult, EventStore, RecordedEvent } from '@notify/eventstore';
import { randomUUID } from 'node:crypto';
import { eventEnvelope } from '../envelope';
import { CommandMetadata, handleCommand } from '../handle-command';
import { engineId } from './ids';
import type { EngineLookups } from './lookups';

type CancellationRequestedData = EventOf<typeof CancellationRequested>['data'];

/**
 * Records a cancellation request for a workflow and cancellation key. What it cancels is
 * decided from the log: runs of triggers recorded before it (the cancellation reactor cancels
 * those already running; the executor checks the request before every step, so runs the fan-out
 * creates after it never start).
 */
export async function requestCancellation(
  deps: { store: EventStore; lookups: EngineLookups },
  environment: string,
  workflowKey: string,
  body: CancelWorkflowBodyT,
  metadata: CommandMetadata,
): Promise<{ append: AppendResult; data: CancellationRequestedData }> {
  if (!(await deps.lookups.workflow(environment, workflowKey)))
    throw new DomainError('workflow_missing', `No workflow ${workflowKey} exists in this environment`, 'not_found');
  const data: CancellationRequestedData = {
    workflow_key: workflowKey,
    cancellation_key: body.cancellation_key,
    recipients: body.recipients ? body.recipients.map(toRecipientRef) : null,
    requested_at: new Date().toISOString(),
  };
  const append = await deps.store.append(cancellationStream(environment, workflowKey, body.cancellation_key), [
    eventEnvelope('CancellationRequested', data, randomUUID(), { ...metadata, environment }),
  ]);
  return { append, data };
}

/** The runs a cancellation may apply to, from the runs read model. */
export interface CancellableRuns {
  cancellable(
    environment: string,
    workflow: string,
    cancellationKey: string,
    recipients: readonly RecipientRefT[] | null,
    before: string,
  ): Promise<{ id: string }[]>;
}

/**
 * Cancels, through the run decider, every queued, processing or paused run a recorded
 * CancellationRequested covers. It first waits until the runs read model has seen the log up to
 * the request, so every run enqueued before it is found; runs enqueued after it are stopped by
 * the executor's own check. Event ids come from the run and the request, and the decider
 * ignores runs already ended, so handling a request again changes nothing.
 */
export class RunCanceller {
  constructor(
    private readonly store: EventStore,
    private readonly runs: CancellableRuns,
    /** Resolves once the runs read model has applied the log up to `position`; false on timeout. */
    private readonly runsCaughtUp: (position: string) => Promise<boolean>,
  ) {}

  async handle(request: RecordedEvent): Promise<number> {
    const environment = request.metadata.environment;
    if (request.type !== 'CancellationRequested' || !environment) return 0;
    const data = request.data as CancellationRequestedData;
    if (!(await this.runsCaughtUp(request.position)))
      throw new Error(`runs read model did not reach ${request.position}; cancellation will be retried`);
    const runs = await this.runs.cancellable(environment, data.workflow_key, data.cancellation_key, data.recipients, request.position);
    let cancelled = 0;
    const metadata: CommandMetadata = {
      environment,
      correlation_id: request.metadata.correlation_id,
      causation_id: request.id,
      actor: 'system:engine',
    };
    for (let i = 0; i < runs.length; i += 16) {
      const outcomes = await Promise.all(
        runs.slice(i, i + 16).map((run) =>
          handleCommand(
            this.store,
            runStream(environment, run.id),
            runDecider,
            { type: 'Cancel', reason: 'cancellation_requested', now: data.requested_at },
            metadata,
            {
              eventId: () => engineId('run-cancelled', run.id, request.id),
            },
          ),
        ),
      );
      cancelled += outcomes.filter((o) => o.events.length > 0).length;
    }
    return cancelled;
  }
}
