import { runStream } from '@notify/domain';
import { waitFor, describeWith } from '@notify/testing';
import { TimerService } from '../../../apps/worker/src/timers/timer.service';
import { movableClock, MovableClock } from '../../support/clock';
import { activeWorkflow, bodyOf, eventually, feed, finishedRuns, messagesFor, pausedRuns, uniqueKey } from '../../support/engine';
import { startTestApp, TestApp } from '../../support/test-app';

/**
 * Timers are events in the log, not in-process state: a worker stopped during a delay or an open
 * batch window and started again (a second app on the same database) continues the run on time,
 * or as soon as it is back when the timer fell due while it was down, and sends once.
 */
const describeServer = describeWith('postgres');

describeServer('workflow engine: durable timers across a worker restart', () => {
  const count = async (t: TestApp, sql: string, params: unknown[]) => Number((await t.sql<{ c: string }>(sql, params))[0].c);
  const firings = (t: TestApp, streamId: string) =>
    count(t, `SELECT count(*) AS c FROM es_events WHERE stream_id = $1 AND event_type = 'TimerFired'`, [streamId]);
  // Timers here are an hour long and fire by a clock the test moves: the first worker (system
  // clock) can never fire them, whatever the machine's load, and the second fires them when the
  // test says the time has come.
  /** Waits until the app's timer service has looked for due timers at least once more. */
  const timersLooked = async (t: TestApp) => {
    const timers = t.app.get(TimerService);
    const before = timers.polls;
    await waitFor(() => timers.polls > before, 'the timer service to look for due timers');
  };
  let first: TestApp | undefined;
  let second: TestApp | undefined;
  let firstOpen = false;
  const start = async () => {
    first = await startTestApp({ keepDatabase: true });
    firstOpen = true;
    return first;
  };
  const stop = async () => {
    firstOpen = false;
    await first!.close();
  };
  const restart = (clock: MovableClock) =>
    startTestApp({ databaseUrl: first!.databaseUrl, env: { SECRETS_KEY: first!.config.SECRETS_KEY! }, clock: clock.now });
  afterEach(async () => {
    if (firstOpen) await first?.close();
    await second?.close();
    await first?.dropDatabase();
    first = second = undefined;
    firstOpen = false;
  });

  it('a delay pending while the worker was stopped fires on time after the restart, once', async () => {
    first = await start();
    const key = uniqueKey('durable-delay');
    await activeWorkflow(first, key, {
      steps: [{ type: 'delay', ref: 'wait', settings: { delay_for: { unit: 'hours', value: 1 } } }, feed('feed', 'after the delay')],
    });
    const { workflow_run_id } = await first.knock().workflows.trigger(key, { recipients: [{ id: 'dt-ada' }] });
    const [paused] = await pausedRuns(first, workflow_run_id);
    const resumeAt = Date.parse(paused.events.find((e) => e.type === 'RunPaused')!.data.resume_at);
    const stream = runStream('development', paused.runId);
    await stop();

    const clock = movableClock();
    second = await restart(clock);
    // Back before it was due: the new worker has looked and left it pending.
    await timersLooked(second);
    expect(await firings(second, stream)).toBe(0);
    clock.moveTo(resumeAt);
    const [run] = await finishedRuns(second, workflow_run_id, 1, 60_000);
    const fired = run.events.find((e) => e.type === 'TimerFired')!;
    // On time: not before it was due by the worker's clock.
    expect(Date.parse(fired.data.fired_at)).toBeGreaterThanOrEqual(resumeAt);
    expect(run.types.filter((t) => t === 'TimerFired')).toHaveLength(1);
    expect((await messagesFor(second, key, 'dt-ada')).map(bodyOf)).toEqual(['after the delay']);
    expect(
      await count(second, `SELECT count(*) AS c FROM es_events WHERE event_type = 'MessageCreated' AND data->>'workflow_run_id' = $1`, [
        workflow_run_id,
      ]),
    ).toBe(1);
  });

  it('a delay that fell due while the worker was down fires as soon as it is back, once', async () => {
    first = await start();
    const key = uniqueKey('durable-late');
    await activeWorkflow(first, key, {
      steps: [{ type: 'delay', ref: 'wait', settings: { delay_for: { unit: 'hours', value: 1 } } }, feed('feed', 'late but sent')],
    });
    const { workflow_run_id } = await first.knock().workflows.trigger(key, { recipients: [{ id: 'dt-bob' }] });
    const [paused] = await pausedRuns(first, workflow_run_id);
    const resumeAt = Date.parse(paused.events.find((e) => e.type === 'RunPaused')!.data.resume_at);
    await stop();

    // The worker comes back a minute after the timer fell due.
    const clock = movableClock();
    clock.moveTo(resumeAt + 60_000);
    const restarting = clock.now().getTime();
    second = await restart(clock);
    const [run] = await finishedRuns(second, workflow_run_id, 1, 60_000);
    const firedAt = Date.parse(run.events.find((e) => e.type === 'TimerFired')!.data.fired_at);
    // Late by the restart: fired by the new worker once it was up, not earlier.
    expect(firedAt).toBeGreaterThanOrEqual(restarting);
    expect(run.types.filter((t) => t === 'TimerFired')).toHaveLength(1);
    expect((await messagesFor(second, key, 'dt-bob')).map(bodyOf)).toEqual(['late but sent']);
    expect(
      await count(second, `SELECT count(*) AS c FROM es_events WHERE event_type = 'MessageCreated' AND data->>'workflow_run_id' = $1`, [
        workflow_run_id,
      ]),
    ).toBe(1);
  });

  it('an open batch window survives the restart: it closes after it, with every item, in one message', async () => {
    first = await start();
    const key = uniqueKey('durable-batch');
    await activeWorkflow(first, key, {
      steps: [
        { type: 'batch', ref: 'collect', settings: { batch_window: { unit: 'hours', value: 1 } } },
        feed('feed', '{{ total_activities }} items'),
      ],
    });
    const knock = first.knock();
    const ids = [];
    for (let n = 1; n <= 3; n++)
      ids.push((await knock.workflows.trigger(key, { recipients: [{ id: 'dt-batch' }], data: { n } })).workflow_run_id);
    const batchStream = `batch-development-${key}-collect-dt-batch-default`;
    const opened = await eventually(
      () => first!.store.readStream(batchStream),
      (events) => events.filter((e) => e.type === 'BatchItemAdded').length === 3,
    );
    const closesAt = Date.parse((opened.find((e) => e.type === 'BatchOpened')!.data as { closes_at: string }).closes_at);
    await stop();

    const clock = movableClock();
    second = await restart(clock);
    // Stopped and started again with the window open: the new worker has looked and left it open.
    await timersLooked(second);
    expect(await firings(second, batchStream)).toBe(0);
    clock.moveTo(closesAt + 1000);
    const runs = await Promise.all(ids.map(async (id) => (await finishedRuns(second!, id, 1, 60_000))[0]));
    expect(runs.map((r) => r.completed?.reason ?? null)).toEqual([null, 'batched_into_another_run', 'batched_into_another_run']);
    const batch = await second.store.readStream(batchStream);
    expect(batch.map((e) => e.type)).toEqual([
      'BatchOpened',
      'BatchItemAdded',
      'TimerScheduled',
      'BatchItemAdded',
      'BatchItemAdded',
      'TimerFired',
      'BatchClosed',
    ]);
    expect(Date.parse((batch.find((e) => e.type === 'TimerFired')!.data as { fired_at: string }).fired_at)).toBeGreaterThanOrEqual(
      closesAt,
    );
    expect((await messagesFor(second, key, 'dt-batch')).map(bodyOf)).toEqual(['3 items']);
    expect(
      await count(second, `SELECT count(*) AS c FROM es_events WHERE event_type = 'MessageCreated' AND data->'workflow'->>'key' = $1`, [
        key,
      ]),
    ).toBe(1);
  });
});
