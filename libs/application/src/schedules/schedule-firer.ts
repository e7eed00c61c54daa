import { schemaVersionOf } from '@notify/contracts';
import {
  DomainError,
  fold,
  nextPendingOccurrence,
  OccurrenceFiredData,
  ScheduleEvent,
  scheduleDecider,
  ScheduleState,
  scheduleStream,
  WorkflowTriggeredData,
  workflowRunStream,
} from '@notify/domain';
import { DuplicateEventIdError, EventStore, EventToAppend, StreamAppend, WrongExpectedRevisionError } from '@notify/eventstore';
import { uuidV5 as uuidv5 } from '@notify/contracts';
import { toDomainEvent } from '../handle-command';
import { canEnqueueWithTrigger, withEnqueuedRuns } from '../engine/fanout';
import type { EngineLookups, WorkflowView } from '../engine/lookups';
import { checkTrigger } from '../engine/trigger';

const NAMESPACE = '4f0b7a8e-6c1d-4e2f-9a3b-8d7c6b5a4e31';

/** The workflow run an occurrence triggers: the same on every worker and every retry. */
export const occurrenceRunId = (scheduleId: string, occurrence: string) => uuidv5(`run:${scheduleId}:${occurrence}`, NAMESPACE);
const occurrenceEventId = (scheduleId: string, occurrence: string) => uuidv5(`fired:${scheduleId}:${occurrence}`, NAMESPACE);
const triggerEventId = (runId: string) => uuidv5(`triggered:${runId}`, NAMESPACE);

/** Another worker decided (some of) the same occurrences first: its decisions stand, ours are dropped. */
const lostRace = (error: unknown) => error instanceof WrongExpectedRevisionError || error instanceof DuplicateEventIdError;

/** The claim of due schedules (ScheduleTimers over rm_schedules satisfies it). */
export interface ScheduleTimerPort {
  claim(
    now: Date,
    limit: number,
    work: (due: { environment: string; id: string; timeZone: string }[]) => Promise<
      {
        environment: string;
        id: string;
        lastOccurrence: string | null;
        lastOccurrenceAt: string | null;
        next: { local: string; at: string } | null;
        revision: number;
        /** The zone the decision was made in (the row is not moved if its zone changed meanwhile). */
        timeZone: string;
      }[]
    >,
  ): Promise<number>;
}

export interface ScheduleFirerOptions {
  catchUpMs: number;
  batchSize: number;
  /** The clock; tests inject one. */
  now?: () => Date;
  /** Decisions per schedule per claim (a long downtime is worked off over several claims). */
  maxPerSchedule?: number;
  /** Called after the decisions of a batch are appended, before its claim is released (tests stop a worker here). */
  afterAppend?: (appended: number) => void | Promise<void>;
}

/** What a batch's decisions look up: workflows by workflowKey, refusal reasons by reasonKey. */
interface Checks {
  workflows: Map<string, WorkflowView | undefined>;
  reasons: Map<string, string | null>;
}

const workflowKey = (environment: string, workflow: string) => `${environment}\u0000${workflow}`;
/** The trigger check reads the schedule's data only when the workflow has a trigger data schema. */
const reasonKey = (environment: string, definition: { workflow: string; data: unknown }, workflow: WorkflowView | undefined) =>
  workflow?.triggerDataSchema
    ? `${workflowKey(environment, definition.workflow)}\u0000${JSON.stringify(definition.data ?? {})}`
    : workflowKey(environment, definition.workflow);

interface Decision {
  environment: string;
  id: string;
  appends: StreamAppend[];
  fired: OccurrenceFiredData[];
  /** Another writer moved the stream first: nothing recorded, the row is left due for the next claim. */
  lost?: boolean;
  advance: {
    environment: string;
    id: string;
    lastOccurrence: string | null;
    lastOccurrenceAt: string | null;
    next: { local: string; at: string } | null;
    revision: number;
    timeZone: string;
  };
}

/**
 * Fires due schedule occurrences exactly once (ADR 0142). A claim takes a batch of due
 * schedules from the read model (rows locked, other workers skip them); for each, the schedule's
 * stream decides which occurrences are due; each decision is OccurrenceFired on the schedule's
 * stream (expected revision as read) and, when it triggers, WorkflowTriggered on the run's
 * stream (deterministic id, 'no_stream') with the recipient's RunEnqueued (ADR 0235), appended
 * together. Whatever crashes or races, an
 * occurrence is decided once: a second decision finds it in the stream, a concurrent one loses
 * the revision, and its run can only be created once.
 */
export class ScheduleFirer {
  private readonly now: () => Date;
  /** Occurrences this firer recorded as triggered (a re-append of identical events another firer made counts too). */
  firedCount = 0;

  constructor(
    private readonly store: EventStore,
    private readonly lookups: Pick<EngineLookups, 'workflow' | 'recipient'>,
    private readonly timers: ScheduleTimerPort,
    private readonly options: ScheduleFirerOptions,
  ) {
    this.now = options.now ?? (() => new Date());
  }

  /**
   * Decides one batch of due schedules; returns how many were claimed. The batch's streams are
   * read in one statement; the workflows (and, where a trigger data schema makes it depend on
   * the data, the trigger check) are looked up once per batch before any decision; then every
   * decision is made without waiting on anything, so concurrent claims do not interleave their
   * decisions and each appends as soon as its own are made.
   */
  async fireDue(): Promise<number> {
    const now = this.now();
    return this.timers.claim(now, this.options.batchSize, async (due) => {
      const streams = await this.store.readStreams(due.map((d) => scheduleStream(d.environment, d.id)));
      const folded = due.map((d) => {
        const history = streams.get(scheduleStream(d.environment, d.id)) ?? [];
        return { due: d, history, state: fold(scheduleDecider, history.map(toDomainEvent) as ScheduleEvent[]) };
      });
      const checks = await this.checks(folded.map((f) => ({ environment: f.due.environment, state: f.state })));
      const decisions = folded.map((f) => this.decide(f.due, f.history, f.state, now, checks));
      await this.append(decisions);
      const appended = decisions.reduce((n, d) => n + d.fired.length, 0);
      await this.options.afterAppend?.(appended);
      this.firedCount += decisions.reduce((n, d) => n + d.fired.filter((f) => f.status === 'triggered').length, 0);
      return decisions.filter((d) => !d.lost).map((d) => d.advance);
    });
  }

  /** The workflow and the reason its trigger is refused (or null), per schedule of the batch, each looked up once. */
  private async checks(schedules: { environment: string; state: ScheduleState }[]): Promise<Checks> {
    const workflows = new Map<string, Promise<WorkflowView | undefined>>();
    for (const { environment, state } of schedules) {
      if (!state.definition) continue;
      const key = workflowKey(environment, state.definition.workflow);
      if (!workflows.has(key)) workflows.set(key, this.lookups.workflow(environment, state.definition.workflow));
    }
    const found = new Map(await Promise.all([...workflows].map(async ([key, view]) => [key, await view] as const)));
    const reasons = new Map<string, Promise<string | null>>();
    for (const { environment, state } of schedules) {
      if (!state.definition) continue;
      const workflow = found.get(workflowKey(environment, state.definition.workflow));
      const key = reasonKey(environment, state.definition, workflow);
      if (!reasons.has(key)) reasons.set(key, this.skipReason(environment, state.definition, workflow));
    }
    return {
      workflows: found,
      reasons: new Map(await Promise.all([...reasons].map(async ([key, reason]) => [key, await reason] as const))),
    };
  }

  private decide(
    due: { environment: string; id: string; timeZone: string },
    history: Awaited<ReturnType<EventStore['readStream']>>,
    state: ScheduleState,
    now: Date,
    checks: Checks,
  ): Decision {
    const { environment, id, timeZone } = due;
    const stream = scheduleStream(environment, id);
    const revision = history.length ? history[history.length - 1].revision : undefined;
    const decision: Decision = {
      environment,
      id,
      appends: [],
      fired: [],
      advance: { environment, id, lastOccurrence: null, lastOccurrenceAt: null, next: null, revision: revision ?? -1, timeZone },
    };
    if (!state.exists || state.deleted || !state.definition || !state.timing) return decision;

    const definition = state.definition;
    const workflow = checks.workflows.get(workflowKey(environment, definition.workflow));
    const skipReason = checks.reasons.get(reasonKey(environment, definition, workflow)) ?? null;

    const events = scheduleDecider.decide(
      {
        type: 'FireDueOccurrences',
        scheduleId: id,
        now: now.toISOString(),
        timeZone,
        catchUpMs: this.options.catchUpMs,
        skipReason,
        runIdFor: (occurrence) => occurrenceRunId(id, occurrence),
        limit: this.options.maxPerSchedule ?? 100,
      },
      state,
    );
    const after = events.reduce((s, e) => scheduleDecider.evolve(s, e), state);
    const next = nextPendingOccurrence(after.timing!, timeZone);
    const last = events.length ? (events[events.length - 1].data as OccurrenceFiredData) : null;
    decision.advance = {
      environment,
      id,
      lastOccurrence: last?.occurrence ?? null,
      lastOccurrenceAt: last?.due_at ?? null,
      next: next && { local: next.local, at: next.at },
      revision: (revision ?? -1) + events.length,
      timeZone,
    };
    if (events.length === 0) return decision;

    const meta = (type: string, causation?: string) => ({
      environment,
      correlation_id: id,
      causation_id: causation,
      actor: 'system:schedules',
      schema_version: schemaVersionOf(type),
    });
    decision.fired = events.map((e) => e.data as OccurrenceFiredData);
    // Runs first: where appends are not atomic across streams (EventStoreDB) a crash between
    // the two leaves a run whose occurrence is decided again, finds the run and records it.
    for (const fired of decision.fired) {
      if (fired.status !== 'triggered' || !workflow) continue;
      const runId = fired.workflow_run_id!;
      const triggered: WorkflowTriggeredData = {
        workflow_run_id: runId,
        workflow: workflow.snapshot,
        actor: definition.actor,
        recipients: [definition.recipient],
        tenant: definition.tenant,
        data: definition.data ?? {},
        cancellation_key: null,
        settings: { sandbox_mode: false, skip_delay: false },
        trigger_source: { type: 'schedule', schedule_id: id, occurrence: fired.occurrence },
        triggered_at: fired.fired_at,
      };
      const trigger: EventToAppend<WorkflowTriggeredData> = {
        id: triggerEventId(runId),
        type: 'WorkflowTriggered',
        data: triggered,
        metadata: meta('WorkflowTriggered', occurrenceEventId(id, fired.occurrence)),
      };
      // The run is appended with its trigger where the append is atomic (ADR 0235); otherwise
      // (or when deciding it needs a read: once-per-recipient, objects) the fan-out appends it.
      const direct = this.store.atomicMultiStreamAppend && canEnqueueWithTrigger(triggered);
      const { trigger: event, runs } = direct ? withEnqueuedRuns(environment, trigger) : { trigger, runs: [] };
      decision.appends.push({ streamId: workflowRunStream(environment, runId), expectedRevision: 'no_stream', events: [event] }, ...runs);
    }
    decision.appends.push({
      streamId: stream,
      expectedRevision: revision ?? 'no_stream',
      events: decision.fired.map((f) => ({
        id: occurrenceEventId(id, f.occurrence),
        type: 'OccurrenceFired',
        data: f,
        metadata: meta('OccurrenceFired'),
      })),
    });
    return decision;
  }

  /** Why this schedule's workflow cannot be triggered now, or null. */
  private async skipReason(
    environment: string,
    definition: { workflow: string; data: Record<string, unknown> | null; actor: unknown },
    workflow: WorkflowView | undefined,
  ): Promise<string | null> {
    if (!workflow) return 'workflow_missing';
    try {
      const lookups = { workflow: async () => workflow, recipient: this.lookups.recipient } as unknown as EngineLookups;
      await checkTrigger(lookups, environment, definition.workflow, { data: definition.data ?? {} });
      return null;
    } catch (error) {
      if (error instanceof DomainError)
        return error.code === 'invalid_params'
          ? `trigger_refused: ${error.fields.map((f) => `${f.field} ${f.message}`).join('; ')}`
          : error.code;
      throw error;
    }
  }

  /**
   * All decisions in one append (atomic on PostgreSQL). If any schedule's stream moved meanwhile
   * (an update, another worker), each schedule is appended on its own and the ones that lost are
   * left for the next claim, unadvanced.
   */
  private async append(decisions: Decision[]): Promise<void> {
    const all = decisions.flatMap((d) => d.appends);
    if (all.length === 0) return;
    if (this.store.atomicMultiStreamAppend) {
      try {
        await this.store.appendMany(all);
        return;
      } catch (error) {
        if (!lostRace(error)) throw error;
      }
    }
    for (const decision of decisions) {
      if (decision.appends.length === 0) continue;
      try {
        await this.appendOne(decision);
      } catch (error) {
        if (!lostRace(error)) throw error;
        decision.fired = [];
        decision.lost = true;
      }
    }
  }

  /** One schedule's decisions; where appends are not atomic, runs already created are left out. */
  private async appendOne(decision: Decision): Promise<void> {
    if (this.store.atomicMultiStreamAppend) {
      await this.store.appendMany(decision.appends);
      return;
    }
    const runs = decision.appends.filter((a) => !a.streamId.startsWith('schedule-'));
    const existing = await this.store.readStreams(runs.map((r) => r.streamId));
    const missing = decision.appends.filter((a) => a.streamId.startsWith('schedule-') || (existing.get(a.streamId)?.length ?? 0) === 0);
    for (const append of missing) await this.store.append(append.streamId, append.events, { expectedRevision: append.expectedRevision });
  }
}
