import { requireBackend, testEnv } from '@notify/testing';
import { activeWorkflow, bodyOf, eventually, feed, finishedRuns, messagesFor, pausedRuns, uniqueKey } from '../../support/engine';
import { startTestApp, TestApp } from '../../support/test-app';

/**
 * Timers are events in the log, not in-process state: a worker stopped during a delay or an open
 * batch window and started again (a second app on the same database) continues the run on time,
 * or as soon as it is back when the timer fell due while it was down, and sends once.
 */
requireBackend('postgres', !!testEnv.postgresUrl);
const describeServer = testEnv.postgresUrl ? describe : describe.skip;

describeServer('workflow engine: durable timers across a worker restart', () => {
  const sleepUntil = async (at: number) => {
    const wait = at - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  };
  const count = async (t: TestApp, sql: string, params: unknown[]) => Number((await t.sql<{ c: string }>(sql, params))[0].c);
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
    await activeWorkflow(first, key, { steps: [{ type: 'delay', ref: 'wait', settings: { delay_for: { unit: 'seconds', value: 10 } } }, feed('feed', 'after the delay')] });
    const { workflow_run_id } = await first.knock().workflows.trigger(key, { recipients: [{ id: 'dt-ada' }] });
    const [paused] = await pausedRuns(first, workflow_run_id);
    const resumeAt = Date.parse(paused.events.find((e) => e.type === 'RunPaused')!.data.resume_at);
    await stop();
    expect(Date.now()).toBeLessThan(resumeAt); // stopped while the timer was pending

    second = await startTestApp({ databaseUrl: first.databaseUrl, env: { SECRETS_KEY: first.config.SECRETS_KEY! } });
    const back = Date.now();
    expect(back).toBeLessThan(resumeAt); // and back before it was due
    const [run] = await finishedRuns(second, workflow_run_id, 1, 30_000);
    const fired = run.events.find((e) => e.type === 'TimerFired')!;
    // On time: not before it was due, and within the timer service's polling slack after.
    expect(Date.parse(fired.data.fired_at)).toBeGreaterThanOrEqual(resumeAt);
    expect(Date.parse(fired.data.fired_at) - resumeAt).toBeLessThan(1500);
    expect(run.types.filter((t) => t === 'TimerFired')).toHaveLength(1);
    expect((await messagesFor(second, key, 'dt-ada')).map(bodyOf)).toEqual(['after the delay']);
    expect(await count(second, `SELECT count(*) AS c FROM es_events WHERE event_type = 'MessageCreated' AND data->>'workflow_run_id' = $1`, [workflow_run_id])).toBe(1);
  });

  it('a delay that fell due while the worker was down fires as soon as it is back, once', async () => {
    first = await start();
    const key = uniqueKey('durable-late');
    await activeWorkflow(first, key, { steps: [{ type: 'delay', ref: 'wait', settings: { delay_for: { unit: 'seconds', value: 2 } } }, feed('feed', 'late but sent')] });
    const { workflow_run_id } = await first.knock().workflows.trigger(key, { recipients: [{ id: 'dt-bob' }] });
    const [paused] = await pausedRuns(first, workflow_run_id);
    const resumeAt = Date.parse(paused.events.find((e) => e.type === 'RunPaused')!.data.resume_at);
    await stop();
    await sleepUntil(resumeAt + 1500);

    const restarting = Date.now();
    second = await startTestApp({ databaseUrl: first.databaseUrl, env: { SECRETS_KEY: first.config.SECRETS_KEY! } });
    const back = Date.now();
    const [run] = await finishedRuns(second, workflow_run_id, 1, 30_000);
    const firedAt = Date.parse(run.events.find((e) => e.type === 'TimerFired')!.data.fired_at);
    // Late by the restart, no more: fired once the new worker was up, not earlier.
    expect(firedAt).toBeGreaterThanOrEqual(restarting);
    expect(firedAt - back).toBeLessThan(1500);
    expect((await messagesFor(second, key, 'dt-bob')).map(bodyOf)).toEqual(['late but sent']);
    expect(await count(second, `SELECT count(*) AS c FROM es_events WHERE event_type = 'MessageCreated' AND data->>'workflow_run_id' = $1`, [workflow_run_id])).toBe(1);
  });

  it('an open batch window survives the restart: it closes after it, with every item, in one message', async () => {
    first = await start();
    const key = uniqueKey('durable-batch');
    await activeWorkflow(first, key, { steps: [{ type: 'batch', ref: 'collect', settings: { batch_window: { unit: 'seconds', value: 3 } } }, feed('feed', '{{ total_activities }} items')] });
    const knock = first.knock();
    const ids = [];
    for (let n = 1; n <= 3; n++) ids.push((await knock.workflows.trigger(key, { recipients: [{ id: 'dt-batch' }], data: { n } })).workflow_run_id);
    const batchStream = `batch-development-${key}-collect-dt-batch-default`;
    const opened = await eventually(
      () => first!.store.readStream(batchStream),
      (events) => events.filter((e) => e.type === 'BatchItemAdded').length === 3,
    );
    const closesAt = Date.parse((opened.find((e) => e.type === 'BatchOpened')!.data as { closes_at: string }).closes_at);
    await stop();
    expect(Date.now()).toBeLessThan(closesAt); // stopped with the window open
    await sleepUntil(closesAt + 1000);

    second = await startTestApp({ databaseUrl: first.databaseUrl, env: { SECRETS_KEY: first.config.SECRETS_KEY! } });
    const back = Date.now();
    const runs = await Promise.all(ids.map(async (id) => (await finishedRuns(second!, id, 1, 30_000))[0]));
    expect(runs.map((r) => r.completed?.reason ?? null)).toEqual([null, 'batched_into_another_run', 'batched_into_another_run']);
    const batch = await second.store.readStream(batchStream);
    expect(batch.map((e) => e.type)).toEqual(['BatchOpened', 'BatchItemAdded', 'TimerScheduled', 'BatchItemAdded', 'BatchItemAdded', 'TimerFired', 'BatchClosed']);
    const fired = batch.find((e) => e.type === 'TimerFired')!;
    expect(fired.createdAt.getTime() - back).toBeLessThan(1500);
    expect((await messagesFor(second, key, 'dt-batch')).map(bodyOf)).toEqual(['3 items']);
    expect(await count(second, `SELECT count(*) AS c FROM es_events WHERE event_type = 'MessageCreated' AND data->'workflow'->>'key' = $1`, [key])).toBe(1);
  });
});
