import { RecipientRefT } from '@notify/contracts';
import {
  canContinue,
  cancellationCovers,
  cancellationStream,
  ConditionGroup,
  DecisionInputsData,
  enterBranch,
  explainConditionGroup,
  fold,
  nextPath,
  decideRun,
  runDecider,
  StepDecision,
  StepPath,
  RunEnqueuedData,
  RunEvent,
  runStream,
  RunState,
  StepNode,
  stepAt,
  tenantNeverSet,
  workflowRunStream,
  WorkflowTriggeredData,
} from '@notify/domain';
import { DuplicateEventIdError, RecordedEvent, StreamAppend, WrongExpectedRevisionError } from '@notify/eventstore';
import { conditionContext } from './condition-context';
import { engineId, stepEventId } from './ids';
import type { EngineLookups, RecipientView } from './lookups';
import type { EngineDeps, StepContext, StepHandler, StepOutcome } from './step-handler';
import { refToProperties, RunVariables, runVariables } from './variables';
import { inSpan } from '@notify/observability';
import { engineMetadata, eventEnvelope } from '../envelope';

const MAX_STEPS_PER_EXECUTION = 100;
const MAX_ATTEMPTS = 8;

export interface ExecutionResult {
  status: RunState['status'];
  appended: number;
}

/** A run to take as far as it can go. */
export interface RunToExecute {
  environment: string;
  runId: string;
  /** The workflow run it belongs to, when known: its trigger is read with the run. */
  workflowRunId?: string;
  /** Every event of the run's stream from its first, when the caller has them all (not read again). */
  history?: readonly RecordedEvent[];
}

/** What executing a run decided, not yet appended. */
export interface RunPlan {
  result: ExecutionResult;
  appends: StreamAppend[];
  /** The run stopped early (two steps touched one stream) and continues after this is appended. */
  again?: boolean;
}

/** Runs committed together in one transaction at most. */
const RUNS_PER_APPEND = 100;
/** A round that committed at least this many runs is worth another batched round for the rest. */
const MIN_COMMITTED_FOR_ANOTHER_ROUND = 10;
const MAX_ROUNDS = 64;

/**
 * Drives one recipient run as far as it can go now: executes steps in order until the run
 * pauses, halts or ends, then appends everything it decided (the run's events and the messages,
 * batch items, triggers it caused) in one append with the run's expected revision. Ids are
 * derived from the run and its revision, so executing again after a crash appends nothing twice;
 * a concurrent writer (a cancel) makes the append fail and the run is executed again from there.
 */
export class RunExecutor {
  private readonly handlers = new Map<string, StepHandler>();
  private readonly triggers = new Map<string, WorkflowTriggeredData>();

  constructor(
    private readonly deps: EngineDeps,
    handlers: readonly StepHandler[],
  ) {
    for (const h of handlers) this.handlers.set(h.type, h);
  }

  private now(): Date {
    return this.deps.clock?.() ?? new Date();
  }

  async execute(environment: string, runId: string, now = this.now()): Promise<ExecutionResult> {
    let appended = 0;
    for (let attempt = 1; ; attempt++) {
      try {
        const plan = await this.plan(environment, runId, now);
        if (plan.appends.length) await this.deps.store.appendMany(plan.appends);
        appended += plan.result.appended;
        if (!plan.again) return { status: plan.result.status, appended };
        attempt = 0; // progress was appended: carry on from the new revision
        now = this.now();
      } catch (error) {
        const conflict = error instanceof WrongExpectedRevisionError || error instanceof DuplicateEventIdError;
        if (!conflict || attempt >= MAX_ATTEMPTS) throw error;
        now = this.now();
      }
    }
  }

  /**
   * Executes many runs, committing their decisions together: a few transactions instead of one
   * per run. Runs whose plans touch a stream another plan of the round appends to (two runs of
   * one recipient into one batch), and every run of a group whose append failed, are executed
   * again from fresh state: in another batched round while rounds commit many runs, otherwise
   * one by one. Ids are deterministic, so nothing is appended twice.
   */
  async executeMany(runs: readonly RunToExecute[], concurrency: number, round = 0): Promise<void> {
    const now = this.now();
    const batch = this.deps.lookups.forBatch?.();
    const lookups: EngineLookups = batch ?? this.deps.lookups;
    // Load what every run of the batch needs in a few queries: the runs, their triggers, the
    // recipients. The triggers of runs whose workflow run the caller named (the RunEnqueued it
    // handles says it) are read with the runs, in the same statement.
    // A run whose whole history the caller holds (it saw the stream from its first event) is not
    // read again: if the stream has moved on since, the append's expected revision says so and the
    // run goes again from a fresh read.
    const given = new Map<string, RecordedEvent[]>();
    for (const r of runs) if (r.history) given.set(runStream(r.environment, r.runId), [...r.history]);
    const runStreams = runs.map((r) => runStream(r.environment, r.runId)).filter((id) => !given.has(id));
    const named = new Map<string, string>();
    for (const r of runs)
      if (r.workflowRunId && !this.triggers.has(r.workflowRunId))
        named.set(workflowRunStream(r.environment, r.workflowRunId), r.workflowRunId);
    const toRead = [...runStreams, ...named.keys()];
    const read = toRead.length ? await this.deps.store.readStreams(toRead) : new Map<string, RecordedEvent[]>();
    const histories = new Map([...[...read].filter(([id]) => !named.has(id)), ...given]);
    // A run whose history already ends (executed with its trigger, ADR 0258) has nothing to load or plan.
    const finished = (r: RunToExecute) => {
      const history = given.get(runStream(r.environment, r.runId));
      if (!history) return false;
      const state = fold(
        runDecider,
        history.map((e) => ({ type: e.type, data: e.data }) as RunEvent),
      );
      return !state.run || !canContinue(state);
    };
    const live = runs.filter((r) => !finished(r));
    if (live.length === 0) return;
    runs = live;
    const rememberTriggers = (triggers: ReadonlyMap<string, readonly RecordedEvent[]>, streams: ReadonlyMap<string, string>) => {
      for (const [streamId, workflowRunId] of streams) {
        const first = triggers.get(streamId)?.[0];
        if (first?.type === 'WorkflowTriggered') this.remember(workflowRunId, first.data as WorkflowTriggeredData);
      }
    };
    rememberTriggers(read, named);
    const wanted = new Map<string, string>();
    for (const r of runs) {
      const enqueued = histories.get(runStream(r.environment, r.runId))?.[0]?.data as RunEnqueuedData | undefined;
      if (enqueued && !this.triggers.has(enqueued.workflow_run_id))
        wanted.set(workflowRunStream(r.environment, enqueued.workflow_run_id), enqueued.workflow_run_id);
    }
    if (wanted.size) rememberTriggers(await this.deps.store.readStreams([...wanted.keys()]), wanted);
    // The recipient read models must show what the runs' events say happened before them; one
    // wait for the whole batch, before anything is prefetched from them.
    const latest = [...histories.values()]
      .flatMap((h) => (h.length ? [h[h.length - 1].position] : []))
      .sort()
      .pop();
    if (latest) await this.deps.readModelsAt?.(latest);
    if (batch) {
      const byEnvironment = new Map<string, RecipientRefT[]>();
      for (const r of runs) {
        const enqueued = histories.get(runStream(r.environment, r.runId))?.[0]?.data as RunEnqueuedData | undefined;
        if (!enqueued) continue;
        const refs = byEnvironment.get(r.environment) ?? [];
        refs.push(enqueued.recipient, ...(enqueued.actor ? [enqueued.actor] : []));
        byEnvironment.set(r.environment, refs);
      }
      for (const [environment, refs] of byEnvironment) await batch.prefetch(environment, refs);
    }
    const plans: { run: (typeof runs)[number]; plan: RunPlan }[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(concurrency, runs.length) }, async () => {
        while (next < runs.length) {
          const run = runs[next++];
          plans.push({
            run,
            plan: await this.plan(run.environment, run.runId, now, {
              history: histories.get(runStream(run.environment, run.runId)),
              lookups,
              readModelsChecked: true,
            }),
          });
        }
      }),
    );
    // What goes again is read afresh: the history it was given may be what the append refused.
    const again: RunToExecute[] = [];
    const fresh = (run: RunToExecute): RunToExecute =>
      run.history ? { environment: run.environment, runId: run.runId, workflowRunId: run.workflowRunId } : run;
    let group: typeof plans = [];
    let committed = 0;
    // Streams some plan of this round already appends to: a later plan touching one of them (two
    // runs of one recipient adding to the same batch) was decided on stale state and goes again.
    const touched = new Set<string>();
    const flush = async () => {
      if (group.length === 0) return;
      try {
        await this.deps.store.appendMany(group.flatMap((g) => g.plan.appends));
        const unfinished = group.filter((g) => g.plan.again).map((g) => fresh(g.run));
        again.push(...unfinished);
        committed += group.length - unfinished.length;
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError || error instanceof DuplicateEventIdError)) throw error;
        again.push(...group.map((g) => fresh(g.run)));
      }
      group = [];
    };
    for (const planned of plans) {
      if (planned.plan.appends.length === 0) continue;
      if (planned.plan.appends.some((a) => touched.has(a.streamId))) {
        again.push(fresh(planned.run));
        continue;
      }
      for (const a of planned.plan.appends) touched.add(a.streamId);
      group.push(planned);
      if (group.length >= RUNS_PER_APPEND) await flush();
    }
    await flush();
    if (again.length === 0) return;
    // Another batched round while rounds make real progress (many recipients, a few runs each);
    // when they do not (one hot stream), one by one is cheaper than planning everything again.
    if (committed >= MIN_COMMITTED_FOR_ANOTHER_ROUND && round < MAX_ROUNDS) return this.executeMany(again, concurrency, round + 1);
    for (const run of again) await this.execute(run.environment, run.runId);
  }

  /**
   * Plans the runs of a trigger that is not appended yet (ADR 0258), each from its RunEnqueued, on
   * lookups the caller has found current: what the worker would decide for them once appended.
   * Answers each run's stream append (its RunEnqueued followed by what was decided) and the other
   * appends the run caused, or undefined when some run's plan is not one the caller can append
   * with the trigger: it stopped early, or it appends to a stream that may exist already.
   */
  async planUnrecorded(
    environment: string,
    trigger: WorkflowTriggeredData,
    runs: readonly StreamAppend[],
    lookups: EngineLookups,
    now: Date,
  ): Promise<StreamAppend[] | undefined> {
    const appends: StreamAppend[] = [];
    for (const run of runs) {
      const [enqueued] = run.events;
      // A new run's stream (its id derives from the new workflow run's; the trigger's own stream,
      // expected not to exist in the same append, stands for both).
      if (run.events.length !== 1 || enqueued.type !== 'RunEnqueued') return undefined;
      const recorded: RecordedEvent = {
        ...enqueued,
        streamId: run.streamId,
        revision: 0,
        // Not in the log yet: nothing can be recorded between the trigger and its runs.
        globalPosition: 0n,
        position: '',
        createdAt: now,
      };
      const { run_id: runId } = enqueued.data as RunEnqueuedData;
      const plan = await this.plan(environment, runId, now, { history: [recorded], lookups, readModelsChecked: true, trigger });
      if (plan.again) return undefined;
      const [own, ...caused] = plan.appends;
      if (caused.some((a) => a.expectedRevision !== 'no_stream')) return undefined;
      appends.push(
        { streamId: run.streamId, expectedRevision: run.expectedRevision, events: [enqueued, ...(own?.events ?? [])] },
        ...caused,
      );
    }
    return appends;
  }

  /** Decides everything a run can do now, without appending it. */
  async plan(
    environment: string,
    runId: string,
    now: Date,
    preloaded: { history?: RecordedEvent[]; lookups?: EngineLookups; readModelsChecked?: boolean; trigger?: WorkflowTriggeredData } = {},
  ): Promise<RunPlan> {
    const streamId = runStream(environment, runId);
    const history = preloaded.history ?? (await this.deps.store.readStream(streamId));
    const deps: EngineDeps = preloaded.lookups ? { ...this.deps, lookups: preloaded.lookups } : this.deps;
    const initial = fold(
      runDecider,
      history.map((e) => ({ type: e.type, data: e.data }) as RunEvent),
    );
    if (!initial.run || !canContinue(initial)) return { result: { status: initial.status, appended: 0 }, appends: [] };
    if (!preloaded.readModelsChecked) await this.deps.readModelsAt?.(history[history.length - 1].position);
    const trigger = preloaded.trigger ?? (await this.trigger(environment, initial.run.workflow_run_id));
    const steps = trigger.workflow.steps as unknown as StepNode[];

    let state = initial;
    const events: RunEvent[] = [];
    const appends: StreamAppend[] = [];
    let again = false;
    const record = (...recorded: RunEvent[]) => {
      for (const e of recorded) {
        events.push(e);
        state = runDecider.evolve(state, e);
      }
    };
    const at = now.toISOString();
    const run = initial.run;

    // Lazily loaded, shared by every step of this execution.
    let recipient: Promise<RecipientView | undefined> | undefined;
    let variables: Promise<RunVariables> | undefined;
    const loadRecipient = () => (recipient ??= deps.lookups.recipient(environment, run.recipient));
    const loadVariables = () =>
      (variables ??= (async () => {
        const [r, actor, tenant, vars] = await Promise.all([
          loadRecipient(),
          run.actor ? deps.lookups.recipient(environment, run.actor) : Promise.resolve(undefined),
          run.tenant ? deps.lookups.tenant(environment, run.tenant) : Promise.resolve(undefined),
          deps.lookups.vars(environment),
        ]);
        const base = runVariables({
          data: state.data,
          trigger,
          recipient: r?.properties ?? refToProperties(run.recipient),
          actor: actor?.properties ?? refToProperties(run.actor),
          tenant: tenant ?? (run.tenant ? tenantNeverSet(run.tenant) : null),
          vars,
        });
        if (run.subscribed_to)
          base.object = (await deps.lookups.recipient(environment, run.subscribed_to))?.properties ?? refToProperties(run.subscribed_to);
        return base;
      })());
    const currentVariables = async (): Promise<RunVariables> => ({ ...(await loadVariables()), data: state.data });

    // A cancellation recorded after this run's trigger stops it wherever it is. A run appended
    // with its trigger has no trigger position: its own first entry stands for it (ADR 0235).
    // A run not in the log yet (planned with its trigger): no cancellation can follow its trigger.
    const triggerPosition = run.trigger_position || history[0].position;
    if (
      run.cancellation_key &&
      triggerPosition !== '' &&
      (await this.cancelled(environment, run.workflow_key, run.cancellation_key, run.recipient, run.subscribed_to, triggerPosition))
    ) {
      record(...decideRun(state, { type: 'Cancel', reason: 'cancellation_requested', now: at }));
    } else if (state.status === 'queued' && trigger.workflow.conditions) {
      // The workflow's own conditions decide, once, whether the run happens at all.
      const group = trigger.workflow.conditions as ConditionGroup;
      const context = await conditionContext(deps.lookups, environment, run, [group], await currentVariables(), at);
      const trace = explainConditionGroup(group, context);
      if (!trace.holds)
        record(
          ...decideRun(state, {
            type: 'Halt',
            reason: 'workflow_conditions_not_met',
            now: at,
            inputs: { user_id: inputsSubject(run.recipient), conditions: trace },
          }),
        );
    }

    for (let i = 0; i < MAX_STEPS_PER_EXECUTION && canContinue(state); i++) {
      const path = state.path;
      const step = stepAt(steps, path);
      if (!path || !step) {
        record(...decideRun(state, { type: 'End', now: at }));
        break;
      }
      const resumed = state.status === 'paused' || state.resumedWith !== undefined;
      const ctx: StepContext = {
        environment,
        now,
        state,
        trigger,
        step,
        path,
        resumed,
        attempt: state.attempts[step.ref] ?? 0,
        deps,
        recipient: loadRecipient,
        variables: currentVariables,
      };
      const outcome = await inSpan(
        `step ${step.type}`,
        {
          parent: history[0]?.metadata,
          attributes: {
            'notify.workflow': run.workflow_key,
            'notify.step_ref': step.ref,
            'notify.run_id': runId,
            'notify.environment': environment,
          },
        },
        async (span) => {
          const result = await this.runStep(ctx);
          span.setAttribute('notify.step_status', result.status ?? 'ok');
          return result;
        },
      );
      // A step touching a stream an earlier step of this execution also touches (two updates of
      // one user) decided without those events: append what came before, then execute again.
      if (outcome.appends?.some((a) => appends.some((b) => b.streamId === a.streamId))) {
        again = true;
        break;
      }
      appends.push(...(outcome.appends ?? []));
      if (outcome.variables) {
        const changed = outcome.variables;
        variables = loadVariables().then((v) => ({ ...v, ...changed }));
        if (changed.recipient) recipient = loadRecipient().then((r) => r && { ...r, properties: changed.recipient! });
      }
      const timerId =
        outcome.flow === 'pause' && outcome.resumeAt
          ? engineId('timer', runId, step.ref, path.join('.'), history.length + events.length)
          : null;
      record(
        ...decideRun(state, {
          type: 'ApplyStep',
          step: { ref: step.ref, type: stepType(step) },
          resumed,
          attempt: ctx.attempt,
          decision: stepDecision(outcome, steps, path, timerId, inputsSubject(run.recipient)),
          now: at,
        }),
      );
      if (outcome.flow !== 'continue' || !state.path) break;
    }

    if (events.length === 0) return { result: { status: state.status, appended: 0 }, appends: [] };
    const metadata = engineMetadata({
      environment,
      correlationId: run.workflow_run_id,
      causationId: run.run_id,
      actor: 'system:engine',
      cause: history[0]?.metadata,
    });
    const revision = history.length ? history[history.length - 1].revision : -1;
    const runAppend: StreamAppend = {
      streamId,
      expectedRevision: revision,
      events: events.map((e, i) => eventEnvelope(e.type, e.data, stepEventId(runId, revision + 1, i), metadata)),
    };
    return { result: { status: state.status, appended: events.length }, appends: [runAppend, ...appends], again };
  }

  private async runStep(ctx: StepContext): Promise<StepOutcome> {
    const step = ctx.step;
    // Step conditions (every kind that has them) are checked first, and only on first entry.
    if (!ctx.resumed && step.conditions) {
      const group = step.conditions as ConditionGroup;
      const context = await conditionContext(
        ctx.deps.lookups,
        ctx.environment,
        ctx.state.run!,
        [group],
        await ctx.variables(),
        ctx.now.toISOString(),
      );
      const conditions = explainConditionGroup(group, context);
      if (!conditions.holds) return { flow: 'continue', status: 'skipped', reason: 'step_conditions_not_met', inputs: { conditions } };
      // The conditions held: recorded with whatever the step decided from (ADR 0219).
      const outcome = await this.handle(ctx);
      return { ...outcome, inputs: { ...outcome.inputs, conditions } };
    }
    return this.handle(ctx);
  }

  private async handle(ctx: StepContext): Promise<StepOutcome> {
    const step = ctx.step;
    const handler = this.handlers.get(step.type);
    if (!handler) return { flow: 'continue', status: 'error', reason: `unsupported_step_type:${step.type}` };
    try {
      return await handler.execute(ctx);
    } catch (error) {
      // A failing lookup or provider is retried by executing the run again; a step bug must
      // not spin forever: it is recorded as this step's error and the run moves on.
      if (isTransient(error)) throw error;
      return { flow: 'continue', status: 'error', reason: `step_failed: ${(error as Error).message}` };
    }
  }

  /** The trigger that started a run: its workflow version, data, actor, tenant, settings. */
  private async trigger(environment: string, workflowRunId: string): Promise<WorkflowTriggeredData> {
    const cached = this.triggers.get(workflowRunId);
    if (cached) return cached;
    const [event] = await this.deps.store.readStream(workflowRunStream(environment, workflowRunId), { maxCount: 1 });
    if (!event || event.type !== 'WorkflowTriggered') throw new Error(`No trigger recorded for workflow run ${workflowRunId}`);
    const data = event.data as WorkflowTriggeredData;
    this.remember(workflowRunId, data);
    return data;
  }

  /** A trigger the caller saw in the log (a WorkflowTriggered event): its runs need not read it. */
  rememberTrigger(workflowRunId: string, data: WorkflowTriggeredData): void {
    this.remember(workflowRunId, data);
  }

  private remember(workflowRunId: string, data: WorkflowTriggeredData): void {
    if (this.triggers.size > 10_000) this.triggers.delete(this.triggers.keys().next().value as string);
    this.triggers.set(workflowRunId, data);
  }

  private async cancelled(
    environment: string,
    workflowKey: string,
    cancellationKey: string,
    recipient: RecipientRefT,
    subscribedTo: RecipientRefT | null,
    triggerPosition: string,
  ): Promise<boolean> {
    const requests: RecordedEvent[] = await this.deps.store.readStream(cancellationStream(environment, workflowKey, cancellationKey));
    return requests.some((r) => {
      if (r.type !== 'CancellationRequested' || r.position <= triggerPosition) return false;
      return cancellationCovers((r.data as { recipients: RecipientRefT[] | null }).recipients, recipient, subscribedTo);
    });
  }
}

/** A handler's outcome as the run's decider takes it: where the cursor goes next, the pause's timer. */
function stepDecision(
  outcome: StepOutcome,
  steps: StepNode[],
  path: StepPath,
  timerId: string | null,
  userId: string | null,
): StepDecision {
  const inputs: DecisionInputsData | null = outcome.inputs ? { user_id: userId, ...outcome.inputs } : null;
  const common = { status: outcome.status ?? 'ok', output: outcome.output ?? null, inputs };
  if (outcome.flow === 'pause')
    return {
      flow: 'pause',
      reason: outcome.reason,
      timerId,
      resumeAt: outcome.resumeAt?.toISOString() ?? null,
      waitingFor: outcome.waitingFor ?? null,
      inputs,
    };
  if (outcome.flow === 'halt') return { flow: 'halt', ...common, reason: outcome.reason };
  const next = outcome.branch !== undefined ? enterBranch(steps, path, outcome.branch) : nextPath(steps, path);
  return { flow: 'continue', ...common, reason: outcome.reason ?? null, data: outcome.data ?? null, next };
}

/** Whose a decision's inputs are: the recipient when a user (their key seals them), else nobody (they stay in clear). */
const inputsSubject = (recipient: RecipientRefT): string | null => (recipient.type === 'user' ? recipient.id : null);

export function stepType(step: StepNode): string {
  return step.type === 'channel' ? String((step as { channel_type?: string }).channel_type ?? 'channel') : step.type;
}

/** Database and network trouble: worth executing the run again later. */
function isTransient(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? '';
  return (
    error instanceof WrongExpectedRevisionError ||
    error instanceof DuplicateEventIdError ||
    /^(08|40|53|57)/.test(code) ||
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT'].includes(code)
  );
}
