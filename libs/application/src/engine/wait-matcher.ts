import { expandRecorded, MESSAGE_EVENT_TYPES, RecipientRefT } from '@notify/contracts';
import {
  EventOccurrence,
  fold,
  MessageCreatedData,
  occurrenceMatches,
  runDecider,
  RunEnqueuedData,
  RunEvent,
  runStream,
  WaitingFor,
} from '@notify/domain';
import { EventStore, LogPosition, RecordedEvent, WrongExpectedRevisionError } from '@notify/eventstore';
import { engineEvent } from '../envelope';
import { engineId } from './ids';
import type { EngineLookups } from './lookups';
import { refToProperties } from './variables';

/** The waiting-runs read model (WaitingRunQueries satisfies this). */
export interface WaitingRunsPort {
  /** What anything waits for at all, as `environment|event_type|event_key`: events nobody awaits cost no reads. */
  awaitedKinds(environments: readonly string[]): Promise<Set<string>>;
  waitingFor(
    environment: string,
    keys: readonly { recipient: RecipientRefT; eventType: string; sourceKey: string }[],
  ): Promise<{ key: number; runId: string; stepRef: string }[]>;
}

interface Found extends EventOccurrence {
  environment: string;
  recipient: RecipientRefT;
  position: LogPosition;
  /** The run the occurrence is about (never resumed by its own events). */
  runId: string | null;
}

const MESSAGE_KEYS = MESSAGE_EVENT_TYPES as Record<string, string | null>;

/** Event types whose occurrences can resolve a wait: run starts and ends, message statuses and engagement. */
export const WAIT_SOURCE_EVENT_TYPES: readonly string[] = [
  'RunEnqueued',
  'RunCompleted',
  'UserIdentified',
  'ObjectSet',
  ...Object.keys(MESSAGE_KEYS).filter((t) => MESSAGE_KEYS[t]),
];

/** What the matcher's reactor reads: the sources, and RunPaused, which adds what an environment awaits. */
export const WAIT_MATCHER_EVENT_TYPES: readonly string[] = [...WAIT_SOURCE_EVENT_TYPES, 'RunPaused'];

/** Streams those events are in. */
export const WAIT_SOURCE_STREAM_PREFIXES: readonly string[] = ['run-', 'message-', 'user-', 'object-'];

/**
 * Resumes runs paused on wait_for_event when what they wait for happens: a run of the awaited
 * workflow for the same recipient is enqueued (`started`) or completes (`completed`), a
 * message of the awaited workflow to that recipient gets the awaited status, or the recipient
 * is updated (identified again, set; `event.properties` holds what changed). Only occurrences
 * recorded after the run paused count. The run's own stream decides: it must still be paused
 * on that step with its expiry timer not fired; RunResumed gets a deterministic id.
 */
export class WaitMatcher {
  /**
   * What each environment was found to await (`awaitedKinds`), kept between batches: a kind is
   * added only by a RunPaused, which the matcher sees in its own batches (the reactor reads
   * them, WAIT_MATCHER_EVENT_TYPES) before any occurrence after it. An environment's entry is
   * dropped when a batch holds a RunPaused of it, when a batch had occurrences it awaits (runs
   * may have resumed since, the entry would only grow stale), and all of them when the runtime
   * moves past events this process did not see (`forget`). Runs leaving only make the entry a
   * superset: an occurrence of a kind nobody awaits any more costs the `waitingFor` read it
   * always cost, and drops the entry.
   */
  private readonly awaitedByEnvironment = new Map<string, Set<string>>();

  constructor(
    private readonly store: EventStore,
    private readonly waiting: WaitingRunsPort,
    private readonly lookups: EngineLookups,
    /** Resolves once the waiting-runs read model has seen everything up to `position`. */
    private readonly settled: (position: LogPosition) => Promise<void>,
  ) {}

  async handle(events: readonly RecordedEvent[]): Promise<number> {
    if (events.length === 0) return 0;
    // A run that paused before these events were recorded must be visible in the read model.
    await this.settled(events[events.length - 1].position);
    const environments = [...new Set(events.map((e) => e.metadata.environment).filter((e): e is string => !!e))];
    for (const e of events) if (e.type === 'RunPaused' && e.metadata.environment) this.awaitedByEnvironment.delete(e.metadata.environment);
    const unknown = environments.filter((e) => !this.awaitedByEnvironment.has(e));
    if (unknown.length) {
      const loaded = await this.waiting.awaitedKinds(unknown);
      for (const environment of unknown) this.awaitedByEnvironment.set(environment, new Set());
      for (const kind of loaded) this.awaitedByEnvironment.get(kind.slice(0, kind.indexOf('|')))?.add(kind);
    }
    const awaited = new Set(environments.flatMap((e) => [...this.awaitedByEnvironment.get(e)!]));
    if (awaited.size === 0) return 0;
    const found: Found[] = [];
    // A compound entry (ADR 0233) is what each event it stands for is: a message created delivered is also `delivered`.
    for (const event of events) for (const part of expandRecorded(event)) found.push(...(await this.occurrences(part, awaited)));
    let resumed = 0;
    const byEnvironment = new Map<string, Found[]>();
    for (const f of found) byEnvironment.set(f.environment, [...(byEnvironment.get(f.environment) ?? []), f]);
    for (const [environment, list] of byEnvironment) {
      this.awaitedByEnvironment.delete(environment);
      const rows = await this.waiting.waitingFor(
        environment,
        list.map((f) => ({ recipient: f.recipient, eventType: f.event_type, sourceKey: f.source_key })),
      );
      for (const row of rows) {
        const occurrence = list[row.key];
        if (occurrence.runId === row.runId) continue;
        if (await this.resume(environment, row.runId, row.stepRef, await this.complete(occurrence))) resumed++;
      }
    }
    return resumed;
  }

  /** Drops every environment's awaited kinds: the reactor was moved past events this process did not see. */
  forget(): void {
    this.awaitedByEnvironment.clear();
  }

  /** What an event means to waiting runs (a message's first event carries its recipient and workflow). */
  private async occurrences(event: RecordedEvent, awaited: Set<string>): Promise<Found[]> {
    const environment = event.metadata.environment;
    if (!environment) return [];
    const wanted = (type: string, key: string) => awaited.has(`${environment}|${type}|${key}`);
    const at = event.createdAt.toISOString();
    if (event.type === 'RunEnqueued' && event.streamId.startsWith('run-')) {
      if (!wanted('workflow', 'started')) return [];
      const run = event.data as RunEnqueuedData;
      return [
        {
          environment,
          recipient: run.recipient,
          position: event.position,
          runId: run.run_id,
          at,
          event_type: 'workflow',
          event_key: 'started',
          source_key: run.workflow_key,
          event: workflowEvent('started', run, run.data),
        },
      ];
    }
    if (event.type === 'RunCompleted' && event.streamId.startsWith('run-')) {
      if (!wanted('workflow', 'completed')) return [];
      const [first] = await this.store.readStream(event.streamId, { maxCount: 1 });
      if (!first || first.type !== 'RunEnqueued') return [];
      const run = first.data as RunEnqueuedData;
      const completed = event.data as { outcome: string; reason: string | null };
      // The run's final data is read only when some run waits for it (see complete()).
      return [
        {
          environment,
          recipient: run.recipient,
          position: event.position,
          runId: run.run_id,
          at,
          event_type: 'workflow',
          event_key: 'completed',
          source_key: run.workflow_key,
          event: { ...workflowEvent('completed', run, null), outcome: completed.outcome, reason: completed.reason },
        },
      ];
    }
    if (
      (event.type === 'UserIdentified' && event.streamId.startsWith('user-')) ||
      (event.type === 'ObjectSet' && event.streamId.startsWith('object-'))
    ) {
      if (!wanted('recipient', 'updated')) return [];
      const data = event.data as { user_id?: string; collection?: string; object_id?: string; properties: Record<string, unknown> };
      const recipient: RecipientRefT =
        event.type === 'UserIdentified'
          ? { type: 'user', id: data.user_id! }
          : { type: 'object', collection: data.collection!, id: data.object_id! };
      return [
        {
          environment,
          recipient,
          position: event.position,
          runId: null,
          at,
          event_type: 'recipient',
          event_key: 'updated',
          source_key: '',
          event: { type: 'recipient.updated', recipient, properties: data.properties },
        },
      ];
    }
    const publicType = MESSAGE_KEYS[event.type];
    if (!publicType || !event.streamId.startsWith('message-')) return [];
    const keys = event.type === 'MessageCreated' ? ['created', 'queued'] : [publicType.replace(/^message\./, '')];
    if (!keys.some((k) => wanted('message', k))) return [];
    const created = event.type === 'MessageCreated' ? event : (await this.store.readStream(event.streamId, { maxCount: 1 }))[0];
    if (!created || created.type !== 'MessageCreated') return [];
    const message = created.data as MessageCreatedData;
    return keys
      .filter((k) => wanted('message', k))
      .map((key) => ({
        environment,
        recipient: message.recipient,
        position: event.position,
        runId: null,
        at,
        event_type: 'message' as const,
        event_key: key,
        source_key: message.workflow.key,
        event: {
          type: `message.${key}`,
          message_id: message.message_id,
          channel_id: message.channel.id,
          channel_type: message.channel.type,
          workflow_key: message.workflow.key,
          workflow_run_id: message.workflow_run_id,
          workflow_recipient_run_id: message.workflow_recipient_run_id,
          step_ref: message.step_ref,
          tenant: message.tenant,
          recipient: message.recipient,
          data: message.data,
          ...(event.type === 'MessageCreated' ? {} : { event: event.data }),
        },
      }));
  }

  /** A completed run's final data (after fetch and update_data steps), read once it matters. */
  private async complete(found: Found): Promise<Found> {
    if (found.event_type !== 'workflow' || found.event_key !== 'completed' || !found.runId) return found;
    const history = await this.store.readStream(runStream(found.environment, found.runId));
    const state = fold(
      runDecider,
      history.map((e) => ({ type: e.type, data: e.data }) as RunEvent),
    );
    return { ...found, event: { ...found.event, data: state.data } };
  }

  /** Appends RunResumed to a run still waiting on that step for this occurrence. */
  private async resume(environment: string, runId: string, stepRef: string, occurrence: Found): Promise<boolean> {
    const streamId = runStream(environment, runId);
    for (let attempt = 1; attempt <= 5; attempt++) {
      const history = await this.store.readStream(streamId);
      const state = fold(
        runDecider,
        history.map((e) => ({ type: e.type, data: e.data }) as RunEvent),
      );
      const pause = state.pause;
      if (state.status !== 'paused' || !pause || pause.reason !== 'wait_for_event' || pause.stepRef !== stepRef) return false;
      if (pause.timerId && state.fired.includes(pause.timerId)) return false; // it timed out first
      const pausedAt = [...history].reverse().find((e) => e.type === 'RunPaused')!;
      if (occurrence.position <= pausedAt.position) return false; // happened before the wait began
      const run = state.run!;
      const recipient = (await this.lookups.recipient(environment, run.recipient))?.properties ?? refToProperties(run.recipient);
      const variables = {
        data: state.data,
        recipient,
        actor: refToProperties(run.actor),
        tenant: run.tenant ? { id: run.tenant } : null,
        workflow: { key: run.workflow_key },
      };
      if (!occurrenceMatches(pause.waitingFor as unknown as WaitingFor, occurrence, variables)) return false;
      const data = {
        run_id: runId,
        step_ref: stepRef,
        cause: 'event_matched' as const,
        batch: null,
        event: occurrence.event,
        at: new Date().toISOString(),
      };
      try {
        await this.store.append(
          streamId,
          [
            engineEvent('RunResumed', data, {
              id: engineId('wait-matched', runId, pausedAt.revision),
              environment,
              correlationId: run.workflow_run_id,
              causationId: runId,
              actor: 'system:engine',
            }),
          ],
          { expectedRevision: history[history.length - 1].revision },
        );
        return true;
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
      }
    }
    return false;
  }
}

function workflowEvent(key: 'started' | 'completed', run: RunEnqueuedData, data: Record<string, unknown> | null): Record<string, unknown> {
  return {
    type: `workflow.${key}`,
    workflow_key: run.workflow_key,
    workflow_run_id: run.workflow_run_id,
    workflow_recipient_run_id: run.run_id,
    recipient: run.recipient,
    actor: run.actor,
    tenant: run.tenant,
    trigger_source: run.trigger_source,
    data,
  };
}
