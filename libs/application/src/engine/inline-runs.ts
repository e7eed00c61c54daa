import type { RecipientRefT } from '@notify/contracts';
import type { RunEnqueuedData, StepNode, WorkflowTriggeredData } from '@notify/domain';
import { sqlLiteral, type StreamAppend } from '@notify/eventstore';
import type { EngineLookups } from './lookups';
import type { RunExecutor } from './run-executor';
import { triggerRuns } from '@notify/observability';

/**
 * The events the recipient read models are made of: what a run reads of its recipient, actor,
 * tenant, preferences, channel data and audiences was written by one of these. The worker waits
 * for the projections of these before it executes a run; a run planned with its trigger needs
 * them to hold every such event committed (ADR 0258).
 */
export const RECIPIENT_EVENT_TYPES: readonly string[] = [
  'UserIdentified',
  'ObjectSet',
  'TenantSet',
  'PreferenceSetUpdated',
  'ChannelDataSet',
  'AudienceMembersAdded',
];

/**
 * Step kinds that only read and decide: no call out (fetch), no wait for other events, no append
 * to a stream that exists already (batch, throttle, recipient updates, nested triggers). A
 * delay pauses the run on a timer, which the worker fires as for any run.
 */
const INLINE_STEP_TYPES = new Set(['channel', 'branch', 'random_cohort', 'update_data', 'delay']);

/** Recipients a trigger executes runs for at most: a longer list would hold its answer back (the worker plans them in parallel). */
const MAX_RECIPIENTS = 8;

/** Whether every step of a workflow, branches included, is one a trigger can execute itself. */
export function executableWithTrigger(steps: readonly StepNode[]): boolean {
  return steps.every(
    (step) =>
      INLINE_STEP_TYPES.has(step.type) &&
      [...(step.branches ?? []), ...(step.cohort_branches ?? [])].every((b) => executableWithTrigger(b.steps ?? [])),
  );
}

/** A projection and the recipient event types it applies. */
export interface RecipientProjection {
  name: string;
  types: readonly string[];
}

/**
 * A boolean SQL expression, true when every projection named has applied the newest committed
 * event of each type it handles: its checkpoint is at or past that event's position. Evaluated in
 * one snapshot with the reads of the same statement, it says whether those reads show every
 * recipient event committed before it. Undefined when the log cannot answer it in the same
 * statement (another database, a type without its index).
 */
export function recipientFreshnessSql(
  projections: readonly RecipientProjection[],
  headSql: (type: string) => string | undefined,
): string | undefined {
  const relevant = projections.filter((p) => p.types.length > 0);
  if (relevant.length === 0) return 'true';
  const heads = new Map<string, string>();
  for (const type of new Set(relevant.flatMap((p) => p.types))) {
    const sql = headSql(type);
    if (!sql) return undefined;
    heads.set(type, sql);
  }
  const rows = relevant.map((p) => {
    const head = p.types.length === 1 ? heads.get(p.types[0])! : `greatest(${p.types.map((t) => heads.get(t)!).join(', ')})`;
    return `(${sqlLiteral(p.name)}, ${head})`;
  });
  // A projection with no checkpoint row has applied nothing: fresh only while no event of its types exists.
  return `(SELECT bool_and(coalesce(c.position, '') COLLATE "C" >= coalesce(v.head, '') COLLATE "C")
    FROM (VALUES ${rows.join(', ')}) AS v(name, head) LEFT JOIN projection_checkpoints c ON c.name = v.name)`;
}

export interface InlineRunsStats {
  /** Triggers whose runs were planned with them. */
  planned: number;
  /** Triggers left to the worker for their workflow's steps or their number of recipients. */
  notEligible: number;
  /** Triggers left to the worker because the recipient read models were behind the log. */
  behind: number;
  /** Triggers left to the worker because a run's plan could not be appended with the trigger. */
  declined: number;
  /** Triggers left to the worker because planning failed (a read, a step): the worker retries it. */
  failed: number;
  /** Triggers left to the worker because other triggers were in flight (under load the worker batches better). */
  busy: number;
}

/**
 * Executes the runs of a trigger in the trigger's own request (ADR 0258): where the workflow's
 * steps only read and decide and the recipient read models are current, the runs' decisions are
 * appended with the trigger in one atomic append, as the worker would have appended them after
 * it. Anything else (a step that calls out or waits, read models behind the log, a plan that
 * touches an existing stream) is left to the worker, as before.
 */
export class InlineRuns {
  readonly stats: InlineRunsStats = { planned: 0, notEligible: 0, behind: 0, declined: 0, failed: 0, busy: 0 };
  /** Trigger requests of this process between `begin` and its release. */
  private inFlight = 0;

  constructor(
    private readonly executor: RunExecutor,
    private readonly lookups: EngineLookups,
    /** The freshness expression (`recipientFreshnessSql`). */
    private readonly fresh: string,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * A trigger request begins (before its first read); the answer releases it. A trigger plans
   * its runs only when it is the only one in flight: a request plans its runs with statements of
   * its own, the worker hundreds of runs per statement, so under load the worker takes them.
   */
  begin(): () => void {
    this.inFlight++;
    let released = false;
    return () => {
      if (!released) this.inFlight--;
      released = true;
    };
  }

  private count(outcome: keyof InlineRunsStats, executedBy: string): void {
    this.stats[outcome]++;
    triggerRuns.inc({ executed_by: executedBy });
  }

  /**
   * The appends that replace the runs' (RunEnqueued only) ones, or undefined to leave the runs to
   * the worker. `page`: the runs of a bulk sender's page (a broadcast's, ADR 0262, or a chunk of
   * an object's subscribers, ADR 0287), planned
   * whatever their number and whatever else is in flight: the sender plans them all with one
   * read of their recipients, as the worker would.
   */
  async plan(
    environment: string,
    trigger: WorkflowTriggeredData,
    runs: readonly StreamAppend[],
    options: { page?: boolean } = {},
  ): Promise<StreamAppend[] | undefined> {
    if ((!options.page && runs.length > MAX_RECIPIENTS) || !executableWithTrigger(trigger.workflow.steps as unknown as StepNode[])) {
      this.count('notEligible', 'worker_not_eligible');
      return undefined;
    }
    if (!options.page && this.inFlight > 1) {
      this.count('busy', 'worker_busy');
      return undefined;
    }
    const batch = this.lookups.forBatch?.();
    if (!batch) return undefined;
    // The runs' recipients (an object's subscribers when a fan-out plans them), and the actor.
    const refs: RecipientRefT[] = [
      ...runs.flatMap((r) => (r.events[0]?.type === 'RunEnqueued' ? [(r.events[0].data as RunEnqueuedData).recipient] : [])),
      ...(trigger.actor ? [trigger.actor] : []),
    ];
    let appends: StreamAppend[] | undefined;
    try {
      if (!(await batch.prefetch(environment, refs, { fresh: this.fresh }))) {
        this.count('behind', 'worker_read_models_behind');
        return undefined;
      }
      appends = await this.executor.planUnrecorded(environment, trigger, runs, batch, this.clock());
    } catch {
      // Whatever failed here (a read, a step) the worker meets again and retries; the trigger is
      // still recorded, with its runs for the worker.
      this.count('failed', 'worker_plan_failed');
      return undefined;
    }
    if (appends) this.count('planned', 'trigger');
    else this.count('declined', 'worker_plan_declined');
    return appends;
  }
}
