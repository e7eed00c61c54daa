import { RecipientRefT } from '@notify/contracts';
import { fold, frequencyDecider, frequencyStream, recipientKey, RunEnqueuedData, runStream, WorkflowTriggeredData } from '@notify/domain';
import {
  DuplicateEventIdError,
  EventStore,
  EventToAppend,
  RecordedEvent,
  StreamAppend,
  WrongExpectedRevisionError,
} from '@notify/eventstore';
import { engineId, runIdFor } from './ids';
import type { EngineLookups } from './lookups';
import { engineMetadata, eventEnvelope } from '../envelope';
import type { CommandMetadata } from '../handle-command';

/** Runs decided with a read of their frequency stream (once per recipient), appended together. */
const CHUNK = 200;
/**
 * Runs that need nothing read (every_trigger), appended together: a page of an object's
 * subscribers (the lookup's page is 1,000), or the runs of many small triggers (a minute's
 * schedules, a broadcast page) in one statement and one transaction.
 */
const WIDE_CHUNK = 1000;

interface Target {
  recipient: RecipientRefT;
  subscribedTo: RecipientRefT | null;
}

/** Whether a trigger's runs can be appended with it: nothing to read to decide them (ADR 0235). */
export const canEnqueueWithTrigger = (data: Pick<WorkflowTriggeredData, 'workflow' | 'recipients'>) =>
  data.workflow.trigger_frequency === 'every_trigger' && data.recipients.every((r) => r.type === 'user');

/**
 * The runs of a trigger, to append together with it in one atomic append (schedules and broadcast
 * pages, ADR 0235), and the trigger marked as such so the fan-out leaves it. The runs are the ones
 * the fan-out would append (same run ids, event ids and data), except `trigger_position`, unknown
 * before the append: it is left empty, the run's own position standing for it (nothing can come
 * between the two in one atomic append). Only for every_trigger workflows and user recipients.
 */
export function withEnqueuedRuns(
  environment: string,
  trigger: EventToAppend<WorkflowTriggeredData>,
): { trigger: EventToAppend<WorkflowTriggeredData>; runs: StreamAppend[] } {
  const data = trigger.data;
  if (!canEnqueueWithTrigger(data)) throw new Error('runs appended with their trigger: every_trigger workflows and user recipients only');
  const marked = { ...trigger, data: { ...data, runs_enqueued: true } };
  const meta = engineMetadata({
    environment,
    correlationId: data.workflow_run_id,
    causationId: trigger.id,
    actor: trigger.metadata.actor ?? 'system:engine',
    cause: trigger.metadata,
  });
  const seen = new Set<string>();
  const runs: StreamAppend[] = [];
  for (const recipient of data.recipients) {
    const key = recipientKey(recipient);
    if (seen.has(key)) continue;
    seen.add(key);
    runs.push(enqueuedRun(environment, data, { recipient, subscribedTo: null }, runIdFor(data.workflow_run_id, key), '', meta));
  }
  return { trigger: marked, runs };
}

/** One run's RunEnqueued, on its own stream. */
function enqueuedRun(
  environment: string,
  data: WorkflowTriggeredData,
  target: Target,
  runId: string,
  triggerPosition: string,
  meta: CommandMetadata,
): StreamAppend {
  const run: RunEnqueuedData = {
    run_id: runId,
    workflow_run_id: data.workflow_run_id,
    workflow_key: data.workflow.key,
    recipient: target.recipient,
    actor: data.actor,
    tenant: data.tenant,
    data: data.data,
    cancellation_key: data.cancellation_key,
    trigger_source: data.trigger_source,
    trigger_position: triggerPosition,
    subscribed_to: target.subscribedTo,
    enqueued_at: data.triggered_at,
  };
  return {
    streamId: runStream(environment, runId),
    expectedRevision: 'any',
    events: [eventEnvelope('RunEnqueued', run, engineId('enqueued', runId), meta)],
  };
}

/**
 * Decides runs not in the log yet (`InlineRuns.plan` for a page, ADR 0262): the appends that
 * replace their bare `RunEnqueued` ones, each run's stream with what was decided for it and the
 * streams it creates, or undefined to leave the runs to the run executor.
 */
export type PlanRuns = (
  environment: string,
  trigger: WorkflowTriggeredData,
  runs: readonly StreamAppend[],
) => Promise<StreamAppend[] | undefined>;

/** A chunk's runs, and what was decided for them when they could be planned before their append. */
interface PreparedChunk {
  runs: StreamAppend[];
  planned?: StreamAppend[];
}

/**
 * Turns one recorded trigger into a run per recipient: users and objects as given, and every
 * subscriber of each object. Runs are appended in chunks; ids come from the trigger and the
 * recipient, so a fan-out interrupted half-way and done again adds each run once. Where the
 * workflow's runs need nothing asynchronous, a chunk's runs are appended with their decisions
 * (ADR 0287), and the next chunk is planned while one is appended.
 */
export class Fanout {
  /** Fan-outs to objects' subscribers under way. */
  private spreading = 0;

  constructor(
    private readonly store: EventStore,
    private readonly lookups: EngineLookups,
    private readonly planRuns?: PlanRuns,
  ) {}

  /**
   * Many triggers at once. Workflows that run on every trigger need nothing read to decide, so
   * their runs are appended together, in a few transactions; the others go one by one.
   */
  async fanOutMany(triggers: readonly RecordedEvent[]): Promise<number> {
    let count = 0;
    let pending: StreamAppend[] = [];
    const flush = async () => {
      if (pending.length) await this.appendRuns(pending);
      count += pending.length;
      pending = [];
    };
    for (const trigger of triggers) {
      const data = trigger.data as WorkflowTriggeredData;
      if (data.runs_enqueued) continue; // its runs were appended with it (ADR 0235)
      if (data.workflow.trigger_frequency !== 'every_trigger' || data.recipients.some((r) => r.type === 'object')) {
        count += await this.fanOut(trigger);
        continue;
      }
      pending.push(
        ...(await this.appendsFor(
          trigger.metadata.environment!,
          trigger,
          data,
          data.recipients.map((recipient) => ({ recipient, subscribedTo: null })),
        )),
      );
      if (pending.length >= WIDE_CHUNK) await flush();
    }
    await flush();
    return count;
  }

  /**
   * Whether a fan-out to an object's subscribers is under way: its runs are being appended, with
   * their decisions where they were planned, and the run history yields to it (ADR 0287).
   */
  get fanningOut(): boolean {
    return this.spreading > 0;
  }

  async fanOut(trigger: RecordedEvent): Promise<number> {
    const data = trigger.data as WorkflowTriggeredData;
    if (data.runs_enqueued) return 0;
    const toObjects = data.recipients.some((r) => r.type === 'object');
    if (toObjects) this.spreading++;
    try {
      return await this.spread(trigger, data);
    } finally {
      if (toObjects) this.spreading--;
    }
  }

  private async spread(trigger: RecordedEvent, data: WorkflowTriggeredData): Promise<number> {
    const environment = trigger.metadata.environment!;
    let count = 0;
    let chunk: Target[] = [];
    // One chunk's append runs while the next page of subscribers is read and the next chunk
    // built (and planned): at most one append in flight, awaited before the next one starts (and
    // at the end).
    let inFlight: Promise<number> = Promise.resolve(0);
    const planning = this.plannable(data);
    const flush = async () => {
      if (chunk.length === 0) {
        count += await inFlight;
        inFlight = Promise.resolve(0);
        return;
      }
      const targets = chunk;
      chunk = [];
      // Planned now, while the last chunk is appended; its failure is thrown where it is awaited.
      const prepared = planning ? this.prepare(environment, trigger, data, targets) : undefined;
      prepared?.catch(() => undefined);
      count += await inFlight;
      inFlight = prepared ? prepared.then((p) => this.appendPrepared(p)) : this.enqueue(environment, trigger, data, targets);
      // Its failure is thrown where it is awaited (the next flush), not reported as unhandled meanwhile.
      inFlight.catch(() => undefined);
    };
    const size = data.workflow.trigger_frequency === 'every_trigger' ? WIDE_CHUNK : CHUNK;
    for (const recipient of data.recipients) {
      chunk.push({ recipient, subscribedTo: null });
      if (chunk.length >= size) await flush();
      if (recipient.type !== 'object') continue;
      let after: string | undefined;
      do {
        const page = await this.lookups.subscribers(environment, recipient.collection, recipient.id, after);
        for (const subscriber of page.recipients) {
          chunk.push({ recipient: subscriber, subscribedTo: recipient });
          if (chunk.length >= size) await flush();
        }
        after = page.after ?? undefined;
      } while (after);
    }
    await flush();
    return count + (await inFlight);
  }

  /**
   * Appends runs (and frequency claims) all-or-nothing. A chunk can hold runs already appended
   * before a crash or by a twin worker, next to new ones, when the chunks are cut differently
   * the second time (subscribers added or removed meanwhile, another batch of triggers): the
   * store refuses the whole append for the stored event ids. Those runs are then left out, as
   * the log has them, and the rest appended: every run is in the log once.
   */
  private async appendRuns(appends: StreamAppend[]): Promise<void> {
    for (let left = appends; left.length;) {
      try {
        await this.store.appendMany(left);
        return;
      } catch (error) {
        if (!(error instanceof DuplicateEventIdError)) throw error;
        const stored = await this.store.readStreams(left.filter((a) => a.streamId.startsWith('run-')).map((a) => a.streamId));
        const known = new Set([...stored.values()].flat().map((e) => e.id));
        const rest = left.filter((a) => !a.events.every((e) => known.has(e.id)));
        // Nothing of ours is stored: the duplicate is someone else's, not a resumed chunk.
        if (rest.length === left.length) throw error;
        left = rest;
      }
    }
  }

  /**
   * Whether a trigger's runs can be decided before their append: a planner is given, appends are
   * atomic, every run is decided on every trigger, and no cancellation key (a cancellation
   * recorded between a run's plan and its append would not be seen; a bare run checks at its
   * execution).
   */
  private plannable(data: WorkflowTriggeredData): boolean {
    return (
      !!this.planRuns &&
      !!this.store.atomicMultiStreamAppend &&
      data.workflow.trigger_frequency === 'every_trigger' &&
      !data.cancellation_key
    );
  }

  /** A chunk's runs, and their plan: each run's stream created with its decisions, or undefined (bare runs). */
  private async prepare(
    environment: string,
    trigger: RecordedEvent,
    data: WorkflowTriggeredData,
    targets: Target[],
  ): Promise<PreparedChunk> {
    const runs = await this.appendsFor(environment, trigger, data, targets);
    if (runs.length === 0) return { runs };
    // A planned run creates its stream: one that exists already (a fan-out resumed) refuses the plan.
    const planned = await this.planRuns!(
      environment,
      data,
      runs.map((r) => ({ ...r, expectedRevision: 'no_stream' as const })),
    );
    return { runs, planned };
  }

  /**
   * Appends a prepared chunk: its plan, a group of runs at a time (as the run executor appends its
   * decisions), or, for a group in which a stream the plan creates exists (a resumed fan-out), the
   * group's bare runs.
   */
  private async appendPrepared({ runs, planned }: PreparedChunk): Promise<number> {
    const groups = planned && planGroups(runs, planned);
    if (!groups) {
      if (runs.length) await this.appendRuns(runs);
      return runs.length;
    }
    for (const group of groups) {
      try {
        await this.store.appendMany(group.planned);
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError || error instanceof DuplicateEventIdError)) throw error;
        await this.appendRuns(group.runs);
      }
    }
    return runs.length;
  }

  private async enqueue(environment: string, trigger: RecordedEvent, data: WorkflowTriggeredData, targets: Target[]): Promise<number> {
    for (let attempt = 1; ; attempt++) {
      try {
        const appends = await this.appendsFor(environment, trigger, data, targets);
        if (appends.length) await this.appendRuns(appends);
        return appends.filter((a) => a.streamId.startsWith('run-')).length;
      } catch (error) {
        // A concurrent trigger claimed a once-per-recipient slot first: decide again.
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= 5) throw error;
      }
    }
  }

  private async appendsFor(
    environment: string,
    trigger: RecordedEvent,
    data: WorkflowTriggeredData,
    targets: Target[],
  ): Promise<StreamAppend[]> {
    const meta = engineMetadata({
      environment,
      correlationId: data.workflow_run_id,
      causationId: trigger.id,
      actor: 'system:engine',
      cause: trigger.metadata,
    });
    const frequency = data.workflow.trigger_frequency;
    const appends: StreamAppend[] = [];
    const seen = new Set<string>();
    for (const target of targets) {
      const key = recipientKey(target.recipient) + (target.subscribedTo ? `<-${recipientKey(target.subscribedTo)}` : '');
      if (seen.has(key)) continue;
      seen.add(key);
      const runId = runIdFor(data.workflow_run_id, key);
      if (frequency !== 'every_trigger') {
        const streamId = frequencyStream(
          environment,
          data.workflow.key,
          recipientKey(target.recipient),
          frequency === 'once_per_recipient_per_tenant' ? (data.tenant ?? '') : null,
        );
        const history = await this.store.readStream(streamId);
        const state = fold(
          frequencyDecider,
          history.map((e) => ({ type: e.type, data: e.data }) as never),
        );
        if (state.claimedBy && state.claimedBy !== runId) continue; // already ran for this recipient
        const claim = frequencyDecider.decide({ type: 'Claim', runId, workflowRunId: data.workflow_run_id, now: data.triggered_at }, state);
        if (claim.length)
          appends.push({
            streamId,
            expectedRevision: 'no_stream',
            events: claim.map((e) => eventEnvelope(e.type, e.data, engineId('frequency', runId), meta)),
          });
      }
      appends.push(enqueuedRun(environment, data, target, runId, trigger.position, meta));
    }
    return appends;
  }
}

/** Runs per append of a planned chunk (the run executor's group too). */
const PLANNED_RUNS_PER_APPEND = 100;

/**
 * A chunk's plan cut into groups of runs, each with the appends its runs make (a run's stream
 * first, then the streams it created), or undefined when the plan's appends do not follow its runs.
 */
function planGroups(
  runs: readonly StreamAppend[],
  planned: readonly StreamAppend[],
): { runs: StreamAppend[]; planned: StreamAppend[] }[] | undefined {
  const index = new Map(runs.map((r, i) => [r.streamId, i]));
  const groups: { runs: StreamAppend[]; planned: StreamAppend[] }[] = [];
  let group: { runs: StreamAppend[]; planned: StreamAppend[] } | undefined;
  for (const append of planned) {
    const i = index.get(append.streamId);
    if (i !== undefined) {
      if (!group || group.runs.length >= PLANNED_RUNS_PER_APPEND) groups.push((group = { runs: [], planned: [] }));
      group.runs.push(runs[i]);
    } else if (!group) return undefined;
    group.planned.push(append);
  }
  return groups.reduce((n, g) => n + g.runs.length, 0) === runs.length ? groups : undefined;
}
