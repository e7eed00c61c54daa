import { engineMetadata, eventEnvelope } from '../../envelope';
import {
  batchDecider,
  BatchEvent,
  BatchPolicy,
  batchStream,
  durationMs,
  Duration,
  explainBatchAdd,
  explainThrottle,
  fold,
  readPath,
  recipientKey,
  throttleDecider,
  ThrottleEvent,
  throttleStream,
  toInstant,
} from '@notify/domain';
import { StreamAppend } from '@notify/eventstore';
import { engineId } from '../ids';
import type { StepContext, StepHandler, StepOutcome } from '../step-handler';

function keyFrom(variables: Record<string, unknown>, path: string | null | undefined): string {
  if (!path) return 'default';
  const value = readPath(variables, path);
  return value === undefined || value === null ? 'default' : typeof value === 'string' ? value : JSON.stringify(value);
}

function metadata(ctx: StepContext) {
  const run = ctx.state.run!;
  return engineMetadata({
    environment: ctx.environment,
    correlationId: run.workflow_run_id,
    causationId: run.run_id,
    actor: 'system:engine',
  });
}

/**
 * At most `throttle_limit` runs per recipient and key pass within the window; the rest halt. The
 * decision is appended with the throttle stream's revision in the same transaction as the run's
 * progress, so concurrent runs of one recipient can never both take the last slot.
 */
export class ThrottleStep implements StepHandler {
  readonly type = 'throttle';

  async execute(ctx: StepContext): Promise<StepOutcome> {
    const settings = (ctx.step.settings ?? {}) as {
      throttle_key?: string;
      throttle_limit?: number;
      throttle_window?: Duration;
      throttle_window_field_path?: string;
    };
    const vars = await ctx.variables();
    const run = ctx.state.run!;
    let windowMs = settings.throttle_window ? durationMs(settings.throttle_window, ctx.now) : 0;
    if (settings.throttle_window_field_path) {
      const value = readPath(vars, settings.throttle_window_field_path) as Duration | number | undefined;
      if (typeof value === 'number') windowMs = value * 1000;
      else if (value && typeof value === 'object') windowMs = durationMs(value, ctx.now);
    }
    const throttleKey = keyFrom(vars, settings.throttle_key);
    const streamId = throttleStream(ctx.environment, ctx.trigger.workflow.key, ctx.step.ref, recipientKey(run.recipient), throttleKey);
    const history = await ctx.deps.store.readStream(streamId);
    const state = fold(
      throttleDecider,
      history.map((e) => ({ type: e.type, data: e.data }) as ThrottleEvent),
    );
    const prior = state.decided[run.run_id];
    const command = { type: 'Pass' as const, runId: run.run_id, windowMs, limit: settings.throttle_limit ?? 1, now: ctx.now.toISOString() };
    const events = throttleDecider.decide(command, state);
    // The window it counted, for explain (ADR 0239).
    const inputs = { throttle: explainThrottle(state, command, throttleKey) };
    const passed = prior ? prior === 'passed' : events[0]?.type === 'ThrottlePassed';
    const appends: StreamAppend[] = events.length
      ? [
          {
            streamId,
            expectedRevision: history.length ? history[history.length - 1].revision : 'no_stream',
            events: events.map((e, i) => eventEnvelope(e.type, e.data, engineId('throttle', run.run_id, ctx.step.ref, i), metadata(ctx))),
          },
        ]
      : [];
    return passed
      ? { flow: 'continue', status: 'ok', output: { throttled: false }, appends, inputs }
      : { flow: 'halt', status: 'ok', reason: 'throttled', output: { throttled: true }, appends, inputs };
  }
}

interface BatchSettings {
  batch_execution_mode?: 'accumulate' | 'flush_leading' | null;
  batch_items_max_limit?: number | null;
  batch_items_render_limit?: number | null;
  batch_key?: string | null;
  batch_order?: 'asc' | 'desc' | null;
  batch_until_field_path?: string | null;
  batch_window?: Duration | null;
  batch_window_extension_limit?: Duration | null;
  batch_window_type?: 'fixed' | 'sliding' | null;
}

/**
 * Collects triggers for one recipient and batch key into one batch. The run that opens it waits
 * until the window closes and continues with every activity; runs that join end here. Joining
 * is appended with the batch stream's revision, so concurrent triggers always land in one batch.
 */
export class BatchStep implements StepHandler {
  readonly type = 'batch';

  async execute(ctx: StepContext): Promise<StepOutcome> {
    const settings = (ctx.step.settings ?? {}) as BatchSettings;
    const run = ctx.state.run!;
    if (ctx.resumed) {
      const batch = ctx.state.resumedWith?.batch;
      if (!batch) return { flow: 'continue', status: 'error', reason: 'batch_resumed_without_items' };
      // What the run resumed with: the flush's items (the window was recorded when it paused).
      const inputs = {
        batch: {
          ...NO_BATCH,
          role: 'owner' as const,
          mode: settings.batch_execution_mode ?? 'accumulate',
          window_type: settings.batch_window_type ?? 'fixed',
          items: batch.total_activities,
          max_items: settings.batch_items_max_limit ?? null,
        },
      };
      return { flow: 'continue', status: 'ok', output: { batch: shape(batch, settings) }, inputs };
    }
    const vars = await ctx.variables();
    const untilAt = settings.batch_until_field_path
      ? (toInstant(readPath(vars, settings.batch_until_field_path))?.toISOString() ?? null)
      : null;
    const policy: BatchPolicy = {
      mode: settings.batch_execution_mode ?? 'accumulate',
      windowType: settings.batch_window_type ?? 'fixed',
      windowMs: settings.batch_window ? durationMs(settings.batch_window, ctx.now) : null,
      untilAt,
      extensionLimitMs: settings.batch_window_extension_limit ? durationMs(settings.batch_window_extension_limit, ctx.now) : null,
      maxItems: settings.batch_items_max_limit ?? null,
    };
    if (policy.windowMs === null && policy.untilAt === null) policy.windowMs = 0;
    const batchKey = keyFrom(vars, settings.batch_key);
    const streamId = batchStream(ctx.environment, ctx.trigger.workflow.key, ctx.step.ref, recipientKey(run.recipient), batchKey);
    const history = await ctx.deps.store.readStream(streamId);
    const state = fold(
      batchDecider,
      history.map((e) => ({ type: e.type, data: e.data }) as BatchEvent),
    );
    // An activity happened when it was triggered: batch_order sorts by that, not by when its run got here.
    const activity = { id: run.run_id, actor: run.actor, data: ctx.state.data, inserted_at: run.enqueued_at };
    const command = {
      type: 'AddItem' as const,
      runId: run.run_id,
      activity,
      userId: run.recipient.type === 'user' ? run.recipient.id : null,
      policy,
      now: ctx.now.toISOString(),
      // A run behind a backlog joins the window its trigger was accepted in (issue 19).
      dueAt: ctx.state.pausedOnce || run.enqueued_at > ctx.now.toISOString() ? ctx.now.toISOString() : run.enqueued_at,
      newBatchId: engineId('batch', streamId, history.length),
      newTimerId: (closesAt: string) => engineId('batch-timer', streamId, closesAt),
    };
    const events = batchDecider.decide(command, state);
    const after = events.reduce((s, e) => batchDecider.evolve(s, e), state);
    // The batch it went into, its window and items (ADR 0239); a pause also records when the window's timer is due.
    const trace = explainBatchAdd(state, command, events, batchKey);
    const role = after.roles[run.run_id];
    const appends: StreamAppend[] = events.length
      ? [
          {
            streamId,
            expectedRevision: history.length ? history[history.length - 1].revision : 'no_stream',
            events: events.map((e, i) =>
              eventEnvelope(
                e.type,
                e.data,
                engineId('batch-event', streamId, (history.length ? history[history.length - 1].revision : -1) + 1 + i),
                metadata(ctx),
              ),
            ),
          },
        ]
      : [];
    if (role === 'leading') {
      const own = { activities: [activity], actors: run.actor ? [run.actor] : [], total_activities: 1, total_actors: run.actor ? 1 : 0 };
      return { flow: 'continue', status: 'ok', output: { batch_role: role, batch: own }, appends, inputs: { batch: trace } };
    }
    if (role === 'owner') {
      // Closed at once (items limit reached by this run's own add): nothing to wait for.
      const closed = events.find((e) => e.type === 'BatchClosed');
      if (closed)
        return {
          flow: 'continue',
          status: 'ok',
          output: { batch_role: role, batch: shape(closed.data as never, settings) },
          appends,
          inputs: { batch: trace },
        };
      return {
        flow: 'pause',
        reason: 'batch',
        resumeAt: null,
        waitingFor: { batch_stream: streamId },
        appends,
        inputs: { batch: trace, pause: { reason: 'batch', resume_at: trace.closes_at } },
      };
    }
    return {
      flow: 'halt',
      status: 'ok',
      reason: 'batched_into_another_run',
      output: { batch_role: 'joined' },
      appends,
      inputs: { batch: trace },
    };
  }
}

/** A batch trace's fields the resumed step does not know (the window was recorded at the pause). */
const NO_BATCH = {
  key: null,
  batch_id: null,
  opened_at: null,
  closes_at: null,
  extend_until: null,
  closed: null,
};

/** Orders the activities and keeps the render limit; totals count every item. */
function shape(
  batch: { activities: { inserted_at: string }[]; actors: unknown[]; total_activities: number; total_actors: number },
  settings: BatchSettings,
) {
  const ordered = [...batch.activities].sort((a, b) => a.inserted_at.localeCompare(b.inserted_at));
  if (settings.batch_order === 'desc') ordered.reverse();
  const limit = settings.batch_items_render_limit ?? 10;
  return { ...batch, activities: ordered.slice(0, limit), actors: batch.actors.slice(0, 10) };
}
