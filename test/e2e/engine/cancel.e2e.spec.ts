import Knock from '@knocklabs/node';
import { RunCanceller } from '@notify/application';
import { Database } from '@notify/database';
import { DATABASE } from '@notify/platform';
import { ReactorRuntime } from '@notify/projection-runtime';
import { WorkflowRunQueries } from '@notify/projections/workflow-runs';
import { schemaVersionOf } from '@notify/contracts';
import { runStream } from '@notify/domain';
import { timerFiredEventId } from '../../../apps/worker/src/timers/timer.service';
import { activeWorkflow, eventually, feedStep, messagesOf, runsOf } from '../../support/runs';
import { rebuildAndCompare } from '../../support/rebuild';
import { settled } from '../../support/engine';
import { startTestApp, TestApp } from '../../support/test-app';

const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;

/**
 * POST /v1/workflows/{key}/cancel through @knocklabs/node: runs paused in each kind of wait are
 * cancelled and never send, even when their timer fires afterwards; a cancel racing a large
 * fan-out stops the runs created after it.
 *
 * Not covered here because they never leave a run waiting: throttle (a step that passes or halts
 * the run at once). wait_for_event and fetch retries are not engine steps on this branch yet.
 */
describe('cancelling workflow runs', () => {
  let t: TestApp;
  let knock: Knock;

  const statusOf = async (runId: string) =>
    (await t.sql('SELECT status FROM rm_workflow_recipient_runs WHERE id = $1', [runId]))[0]?.status as string | undefined;
  const streamTypes = async (runId: string) => (await t.store.readStream(runStream('development', runId))).map((e) => e.type);

  /** Triggers and waits until the run of each recipient is paused, returning the runs by recipient. */
  async function pausedRuns(
    workflow: string,
    recipients: string[],
    cancellationKey: string,
  ): Promise<{ workflowRunId: string; runs: Record<string, string> }> {
    const { workflow_run_id } = await knock.workflows.trigger(workflow, {
      recipients: recipients.map((id) => ({ id, name: id })),
      cancellation_key: cancellationKey,
    });
    const runs = await eventually(
      async () => {
        const rows = await runsOf(t, workflow_run_id);
        return rows.length === recipients.length && rows.every((r) => r.status === 'paused') ? rows : undefined;
      },
      20_000,
      `${workflow} runs to pause`,
    );
    return { workflowRunId: workflow_run_id, runs: Object.fromEntries(runs.map((r) => [r.recipient_id, r.id])) };
  }

  /**
   * Fires the latest timer of a stream as the timer service does (same event, same id), at once:
   * the waits below are an hour long, so whether a run goes on is decided here, not by the clock.
   */
  async function fireTimer(streamId: string): Promise<void> {
    const scheduled = (await t.store.readStream(streamId)).filter((e) => e.type === 'TimerScheduled').at(-1)!;
    const timerId = (scheduled.data as { timer_id: string }).timer_id;
    await t.store.append(streamId, [
      {
        id: timerFiredEventId(timerId),
        type: 'TimerFired',
        data: { timer_id: timerId, fired_at: new Date().toISOString() },
        metadata: { environment: 'development', schema_version: schemaVersionOf('TimerFired'), actor: 'system:timers' },
      },
    ]);
  }

  const batchStreamOf = async (recipient: string) =>
    (
      await t.sql<{ stream_id: string }>('SELECT DISTINCT stream_id FROM es_events WHERE stream_id LIKE $1', [
        `batch-development-cancel-batch-collect-${recipient}-%`,
      ])
    )[0].stream_id;

  /** The run is cancelled, its timer was dropped, and firing that timer anyway changes nothing. */
  async function expectCancelledForGood(runId: string): Promise<void> {
    await eventually(async () => (await statusOf(runId)) === 'cancelled', 60_000, 'the run to be cancelled');
    await eventually(
      async () =>
        (await t.sql('SELECT 1 FROM rm_timers WHERE stream_id = $1 AND cancelled_at IS NOT NULL', [runStream('development', runId)]))
          .length === 1,
      60_000,
      'its timer to be dropped',
    );
    await fireTimer(runStream('development', runId));
    await settled(t);
    const types = await streamTypes(runId);
    expect(types.slice(types.indexOf('RunCancelled'))).toEqual(['RunCancelled', 'TimerFired']);
    expect(await statusOf(runId)).toBe('cancelled');
    expect(await t.sql('SELECT id FROM rm_messages WHERE run_id = $1', [runId])).toEqual([]);
  }

  beforeAll(async () => {
    t = await startTestApp();
    knock = t.knock();
    const today = new Date().getUTCDay();
    await activeWorkflow(t, 'cancel-delay', {
      steps: [{ type: 'delay', ref: 'wait', settings: { delay_for: { unit: 'hours', value: 1 } } }, feedStep('feed')],
    });
    await activeWorkflow(t, 'cancel-batch', {
      steps: [{ type: 'batch', ref: 'collect', settings: { batch_window: { unit: 'hours', value: 1 } } }, feedStep('feed')],
    });
    await activeWorkflow(t, 'cancel-window', {
      // Today and tomorrow (UTC, the recipients have no time zone) are closed: the message waits two days.
      steps: [
        feedStep('feed', {
          send_windows: DAYS.map((day, i) => ({ day, type: i === today || i === (today + 1) % 7 ? 'do_not_send' : 'send' })),
        }),
      ],
    });
    // Its runs are appended with the trigger (ADR 0255) but left to the worker: a throttle step
    // is not one a trigger executes itself (ADR 0258).
    await activeWorkflow(t, 'cancel-now', {
      steps: [
        { type: 'throttle', ref: 'gate', settings: { throttle_limit: 1000, throttle_window: { unit: 'seconds', value: 1 } } },
        feedStep('feed'),
      ],
    });
    // Once per recipient and tenant: its runs are appended by the fan-out, after the trigger
    // (an every_trigger workflow's runs for users are appended with it, ADR 0255).
    await activeWorkflow(t, 'cancel-fanout', { trigger_frequency: 'once_per_recipient_per_tenant', steps: [feedStep('feed')] });
  });
  afterAll(async () => t?.close());

  it('cancels runs paused in a delay for the named recipients only; a cancelled run never sends, even when its timer fires', async () => {
    const { workflowRunId, runs } = await pausedRuns('cancel-delay', ['ada', 'grace'], 'delay-1');
    await knock.workflows.cancel('cancel-delay', { cancellation_key: 'delay-1', recipients: ['ada'] });
    await expectCancelledForGood(runs.ada);
    // grace was not named: the same firing of her timer ends her delay and she gets the message.
    await fireTimer(runStream('development', runs.grace));
    const messages = await eventually(
      async () => ((await messagesOf(t, workflowRunId)).length ? messagesOf(t, workflowRunId) : undefined),
      60_000,
      'grace’s message',
    );
    expect(messages.map((m) => m.recipient_id)).toEqual(['grace']);
    const detail = await knock.workflowRecipientRuns.get(runs.ada);
    expect(detail.status).toBe('cancelled');
    expect(detail.events.map((e) => e.event)).toEqual(['run_enqueued', 'step_started', 'run_paused', 'run_cancelled', 'timer_fired']);
    expect(detail.events[3].data).toEqual({ reason: 'cancellation_requested' });
  });

  it('leaves a later trigger with the same cancellation key alone, and handling a request again changes nothing', async () => {
    const first = await pausedRuns('cancel-delay', ['linus'], 'delay-2');
    await knock.workflows.cancel('cancel-delay', { cancellation_key: 'delay-2' });
    await eventually(async () => (await statusOf(first.runs.linus)) === 'cancelled', 60_000, 'the first run to be cancelled');
    const second = await pausedRuns('cancel-delay', ['linus'], 'delay-2');
    // The request handled again while the later run is paused: it covers neither run now.
    const [request] = await t.store.readStream('cancellation-development-cancel-delay-delay-2');
    const canceller = new RunCanceller(t.store, new WorkflowRunQueries(t.app.get<Database>(DATABASE).dataSource), async () => true);
    expect(await canceller.handle(request)).toBe(0);
    expect(await statusOf(second.runs.linus)).toBe('paused');
    await fireTimer(runStream('development', second.runs.linus));
    await eventually(async () => (await messagesOf(t, second.workflowRunId)).length === 1, 60_000, 'the later trigger’s message');
    // The runs read model is its own projection: it may catch up after the messages one.
    await eventually(async () => (await statusOf(second.runs.linus)) === 'completed', 60_000, 'the later run to complete');
    expect((await streamTypes(first.runs.linus)).filter((type) => type === 'RunCancelled')).toHaveLength(1);
  });

  it('cancels a run waiting for its batch window to close; the batch closes and nothing is sent', async () => {
    const { workflowRunId, runs } = await pausedRuns('cancel-batch', ['ada'], 'batch-1');
    const control = await pausedRuns('cancel-batch', ['grace'], 'batch-2');
    await knock.workflows.cancel('cancel-batch', { cancellation_key: 'batch-1' });
    await eventually(async () => (await statusOf(runs.ada)) === 'cancelled', 60_000, 'the batch run to be cancelled');
    // Both windows close now: grace's batch flushes into a message, ada's closes with nobody to resume.
    await fireTimer(await batchStreamOf('grace'));
    await fireTimer(await batchStreamOf('ada'));
    await eventually(async () => (await messagesOf(t, control.workflowRunId)).length === 1, 60_000, 'the control batch to flush');
    await eventually(
      async () => (await t.store.readStream(await batchStreamOf('ada'))).some((e) => e.type === 'BatchClosed'),
      60_000,
      'ada’s batch to close',
    );
    await settled(t);
    expect(await messagesOf(t, workflowRunId)).toEqual([]);
    expect((await streamTypes(runs.ada)).slice(-1)).toEqual(['RunCancelled']);
  });

  it('cancels a run held by a send window', async () => {
    const { workflowRunId, runs } = await pausedRuns('cancel-window', ['ada'], 'window-1');
    const paused = (await t.store.readStream(runStream('development', runs.ada))).find((e) => e.type === 'RunPaused')!;
    expect(paused.data).toMatchObject({ reason: 'send_window' });
    await knock.workflows.cancel('cancel-window', { cancellation_key: 'window-1', recipients: ['ada'] });
    await expectCancelledForGood(runs.ada);
    expect(await messagesOf(t, workflowRunId)).toEqual([]);
  });

  /**
   * Triggers `workflow` (one in-app message) for 1,000 identified recipients and cancels it,
   * at once or once its first runs are recorded; checks that no run enqueued after the request
   * sends, and that only runs enqueued before it may have sent. `cancel-fanout` is triggered in
   * the tenant named `key`, so each call has runs of its own.
   */
  async function triggerThenCancel(
    ids: string[],
    key: string,
    wait: boolean,
    workflow = 'cancel-fanout',
  ): Promise<{ enqueuedAfter: number; cancelled: number }> {
    // At once: the worker's reactors (the fan-out among them) are held until the cancel is
    // recorded, so the request always lands before the fan-out, whatever the machine's load.
    const reactors = t.app.get(ReactorRuntime);
    if (!wait) await reactors.stop();
    const { workflow_run_id } = await knock.workflows.trigger(workflow, {
      recipients: ids,
      cancellation_key: key,
      ...(workflow === 'cancel-fanout' ? { tenant: key } : {}),
    });
    if (wait)
      await eventually(
        async () =>
          (
            await t.sql("SELECT 1 FROM es_events WHERE event_type = 'RunEnqueued' AND data->>'workflow_run_id' = $1 LIMIT 1", [
              workflow_run_id,
            ])
          ).length > 0,
      );
    await knock.workflows.cancel(workflow, { cancellation_key: key });
    if (!wait) await reactors.start();
    const runs = await eventually(
      async () => {
        const rows = await runsOf(t, workflow_run_id);
        return rows.length === ids.length && rows.every((r) => r.status === 'completed' || r.status === 'cancelled') ? rows : undefined;
      },
      60_000,
      'every run to end',
    );
    const [request] = await t.sql('SELECT global_position FROM es_events WHERE event_type = $1 AND stream_id = $2', [
      'CancellationRequested',
      `cancellation-development-${workflow}-${key}`,
    ]);
    const enqueued = await t.sql<{ run: string; position: string }>(
      "SELECT right(stream_id, 36) AS run, global_position AS position FROM es_events WHERE event_type = 'RunEnqueued' AND data->>'workflow_run_id' = $1",
      [workflow_run_id],
    );
    const after = new Set(enqueued.filter((e) => BigInt(e.position) > BigInt(request.global_position)).map((e) => e.run));
    const sent = new Set(
      (await t.sql<{ run_id: string }>('SELECT run_id FROM rm_messages WHERE workflow_run_id = $1', [workflow_run_id])).map(
        (m) => m.run_id,
      ),
    );
    for (const run of runs.filter((r) => after.has(r.id))) {
      expect(run.status).toBe('cancelled');
      expect(sent.has(run.id)).toBe(false);
    }
    // Only runs enqueued before the request completed (those already executing when it was
    // recorded may finish: ADR 0092); every other run was cancelled.
    const completed = runs.filter((r) => r.status === 'completed');
    expect(sent.size).toBe(completed.length);
    for (const run of completed) expect(after.has(run.id)).toBe(false);
    return { enqueuedAfter: after.size, cancelled: runs.length - completed.length };
  }

  it('cancels a trigger of 1,000 recipients before its fan-out finishes: no run created after the request sends', async () => {
    const ids = Array.from({ length: 1000 }, (_, i) => `fan-${String(i).padStart(4, '0')}`);
    await knock.users.bulk.identify({ users: ids.map((id) => ({ id, name: id })) });
    await eventually(
      async () => (await t.sql("SELECT count(*)::int AS c FROM rm_users WHERE id LIKE 'fan-%'"))[0].c === 1000,
      60_000,
      'the users',
    );
    const atOnce = await triggerThenCancel(ids, 'fan-1', false);
    expect(atOnce.enqueuedAfter).toBe(ids.length);
    expect(atOnce.cancelled).toBeGreaterThanOrEqual(atOnce.enqueuedAfter);
    // Cancelled while the fan-out is under way: runs already enqueued are cancelled by the reactor or the executor.
    const midway = await triggerThenCancel(ids, 'fan-2', true);
    expect(midway.cancelled).toBeGreaterThan(0);
    // Runs appended with their trigger: all were enqueued before the request and none had been
    // executed (the reactors were held), so every one is cancelled.
    const withTrigger = await triggerThenCancel(ids, 'fan-3', false, 'cancel-now');
    expect(withTrigger).toEqual({ enqueuedAfter: 0, cancelled: ids.length });
  });

  it('refuses a cancel for an unknown workflow or without a cancellation key, writing nothing', async () => {
    const count = async () => Number((await t.sql("SELECT count(*) AS c FROM es_events WHERE event_type = 'CancellationRequested'"))[0].c);
    const before = await count();
    expect((await t.http('POST', '/v1/workflows/nope/cancel', { body: { cancellation_key: 'x' } })).body).toMatchObject({
      code: 'workflow_missing',
      status: 404,
    });
    const invalid = await t.http('POST', '/v1/workflows/cancel-now/cancel', { body: { recipients: ['ada', { id: 'p1' }] } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors.map((e: { field: string }) => e.field)).toEqual(expect.arrayContaining(['cancellation_key']));
    expect(await count()).toBe(before);
    const ok = await t.http('POST', '/v1/workflows/cancel-now/cancel', { body: { cancellation_key: 'nothing-to-cancel' } });
    expect(ok.status).toBe(204);
  });

  it('leaves a runs read model that rebuilds to the live one', async () => {
    const { live, rebuilt } = await rebuildAndCompare(t, ['workflow-runs']);
    expect(rebuilt).toEqual(live);
  });
});
