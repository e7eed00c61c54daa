import Knock from '@knocklabs/node';
import { activeWorkflow, bodyOf, eventually, feed, finishedRuns, messagesFor, RunView, uniqueKey } from '../../support/engine';
import { movableClock } from '../../support/clock';
import { startTestApp, TestApp } from '../../support/test-app';

const seconds = (value: number) => ({ unit: 'seconds', value });
/**
 * An hour: no window closes by itself during a test. The test closes it by moving the worker's
 * clock (its timers and its runs' decisions, ADR 0271) to the window's end once every trigger
 * has reached the batch.
 */
const WINDOW = 3600;

/** Batch step: one message for many triggers of one recipient and batch key. */
describe('workflow engine: batch', () => {
  let t: TestApp;
  let knock: Knock;
  const clock = movableClock();
  beforeAll(async () => {
    t = await startTestApp({ clock: clock.now });
    knock = t.knock();
  });
  // Back to the system clock: the next test's windows open and close by it.
  afterEach(() => clock.moveTo(Date.now()));
  afterAll(async () => t?.close());

  /** The batch streams' events, opened (activities are sealed for the recipient, ADR 0221). */
  const batchEvents = async (workflowKey: string) => {
    const streams = await t.sql<{ stream_id: string }>('SELECT DISTINCT stream_id FROM es_events WHERE stream_id LIKE $1', [
      `batch-development-${workflowKey}-%`,
    ]);
    const events = (await Promise.all(streams.map((s) => t.store.readStream(s.stream_id)))).flat();
    return events
      .sort((a, b) => (a.globalPosition < b.globalPosition ? -1 : 1))
      .map((e) => ({ stream_id: e.streamId, event_type: e.type, data: e.data as any, created_at: e.createdAt }));
  };
  /**
   * Once `items` activities of the workflow's batches were added, moves the worker's clock to where
   * the last open window closes: its timer fires and the batch closes.
   */
  const closeWindows = async (key: string, items: number) => {
    const events = await eventually(
      () => batchEvents(key),
      (all) => all.filter((e) => e.event_type === 'BatchItemAdded').length >= items,
    );
    const closes = events
      .filter((e) => e.event_type === 'BatchOpened' || e.event_type === 'BatchWindowExtended')
      .map((e) => Date.parse(e.data.closes_at));
    clock.moveTo(Math.max(...closes));
  };
  const trigger = async (key: string, recipient: string, data: Record<string, unknown>, actor?: string) =>
    (await knock.workflows.trigger(key, { recipients: [{ id: recipient }], data, ...(actor ? { actor: { id: actor } } : {}) }))
      .workflow_run_id;
  const finished = async (ids: string[]): Promise<RunView[]> =>
    Promise.all(ids.map(async (id) => (await finishedRuns(t, id, 1, 60_000))[0]));
  const messagesEventually = (key: string, recipient: string, count: number, timeoutMs = 60_000) =>
    eventually(
      () => messagesFor(t, key, recipient),
      (rows) => rows.length >= count,
      timeoutMs,
    );

  it('accumulate: the first run waits out the window and sends one message with every activity; a batch per key', async () => {
    const key = uniqueKey('batch-acc');
    await activeWorkflow(t, key, {
      steps: [
        { type: 'batch', ref: 'collect', settings: { batch_window: seconds(WINDOW), batch_key: 'data.thread' } },
        feed('feed', '{{ total_activities }}:{% for a in activities %}{{ a.data.n }},{% endfor %}'),
      ],
    });
    const ids = [
      await trigger(key, 'b-acc', { n: 1, thread: 'a' }),
      await trigger(key, 'b-acc', { n: 2, thread: 'a' }),
      await trigger(key, 'b-acc', { n: 3, thread: 'b' }),
      await trigger(key, 'b-acc', { n: 4, thread: 'a' }),
    ];
    await closeWindows(key, 4);
    const runs = await finished(ids);
    // Per key, the run that got to the batch first owns it; the others end there.
    const threadA = [runs[0], runs[1], runs[3]];
    const owners = threadA.filter((r) => r.completed?.reason !== 'batched_into_another_run');
    expect(owners).toHaveLength(1);
    expect(threadA.filter((r) => r.completed?.reason === 'batched_into_another_run')).toHaveLength(2);
    expect(runs[2].completed).toMatchObject({ outcome: 'ended' });
    expect(owners[0].types).toEqual([
      'RunEnqueued',
      'StepStarted',
      'RunPaused',
      'RunResumed',
      'StepCompleted',
      'StepCompleted',
      'RunCompleted',
    ]);
    expect(owners[0].events.find((e) => e.type === 'RunResumed')!.data).toMatchObject({
      cause: 'batch_closed',
      batch: { total_activities: 3 },
    });
    const messages = await messagesEventually(key, 'b-acc', 2);
    expect(messages.map(bodyOf).sort()).toEqual(['1:3,', '3:1,2,4,']);
    const closed = (await batchEvents(key)).filter((e) => e.event_type === 'BatchClosed');
    expect(closed).toHaveLength(2);
    // The activities (trigger data) are the recipient's: stored sealed for them, opened for readers.
    const raw = await t.sql<{ event_type: string; sealed: string | null }>(
      `SELECT event_type, COALESCE(data->'activity'->>'$sealed', data->'activities'->>'$sealed') AS sealed FROM es_events
        WHERE stream_id LIKE $1 AND event_type IN ('BatchItemAdded', 'BatchClosed')`,
      [`batch-development-${key}-%`],
    );
    expect(raw.length).toBeGreaterThan(0);
    expect(raw.every((r) => r.sealed === 'aes-256-gcm/v1')).toBe(true);
    expect(closed[0].data.activities[0]).toMatchObject({ data: expect.any(Object) });
    const opened = (await batchEvents(key)).find((e) => e.event_type === 'BatchOpened' && e.stream_id.endsWith('-a'))!;
    expect(Date.parse(opened.data.closes_at) - Date.parse(opened.data.opened_at)).toBe(WINDOW * 1000);
    expect((await messagesFor(t, key, 'b-acc')).find((m) => m.total_activities === 3).inserted_at.getTime()).toBeGreaterThanOrEqual(
      Date.parse(opened.data.closes_at),
    );
    const activities = await t.sql('SELECT count(*)::int AS c FROM rm_message_activities WHERE message_id = $1', [
      messages.find((m) => m.total_activities === 3).id,
    ]);
    expect(activities[0].c).toBe(3);
  });

  it('flush_leading: the first trigger sends at once, the rest of the window is sent as one batch when it closes', async () => {
    const key = uniqueKey('batch-lead');
    await activeWorkflow(t, key, {
      steps: [
        { type: 'batch', ref: 'collect', settings: { batch_window: seconds(WINDOW), batch_execution_mode: 'flush_leading' } },
        feed('feed', '{{ total_activities }}:{% for a in activities %}{{ a.data.n }},{% endfor %}'),
      ],
    });
    const first = await trigger(key, 'b-lead', { n: 1 });
    const [leading] = await finished([first]);
    expect(leading.steps.collect.output).toMatchObject({ batch_role: 'leading' });
    expect((await messagesFor(t, key, 'b-lead')).map(bodyOf)).toEqual(['1:1,']);
    const rest = [await trigger(key, 'b-lead', { n: 2 }), await trigger(key, 'b-lead', { n: 3 })];
    await closeWindows(key, 3); // the leading item and the two after it
    const runs = await finished(rest);
    expect(runs.map((r) => r.completed?.reason ?? null).sort()).toEqual(['batched_into_another_run', null].sort());
    expect((await messagesEventually(key, 'b-lead', 2)).map(bodyOf)).toEqual(['1:1,', '2:2,3,']);
  });

  it('sliding window: each trigger extends the window, never beyond the extension limit', async () => {
    const key = uniqueKey('batch-slide');
    await activeWorkflow(t, key, {
      steps: [
        {
          type: 'batch',
          ref: 'collect',
          settings: { batch_window: seconds(WINDOW), batch_window_type: 'sliding', batch_window_extension_limit: seconds(WINDOW + 2) },
        },
        feed('feed', '{{ total_activities }}'),
      ],
    });
    const ids = [await trigger(key, 'b-slide', { n: 1 }), await trigger(key, 'b-slide', { n: 2 })];
    // The third trigger is accepted 2 s after the window opened (by the clock that accepts triggers,
    // moved: ADR 0274), so its window reaches the extension limit.
    const [first] = await eventually(
      () => batchEvents(key),
      (events) => events.some((e) => e.event_type === 'BatchOpened'),
    );
    clock.moveTo(Date.parse(first.data.opened_at) + 2000);
    ids.push(await trigger(key, 'b-slide', { n: 3 }));
    await closeWindows(key, 3);
    await finished(ids);
    const events = await batchEvents(key);
    const opened = events.find((e) => e.event_type === 'BatchOpened')!.data;
    // A window moves by when each trigger was accepted (its activity's inserted_at), not by when its run got to the step.
    const added = events.filter((e) => e.event_type === 'BatchItemAdded').map((e) => Date.parse(e.data.activity.inserted_at));
    const extended = events.filter((e) => e.event_type === 'BatchWindowExtended').map((e) => e.data.closes_at);
    const limit = Date.parse(opened.opened_at) + (WINDOW + 2) * 1000;
    expect(opened.extend_until).toBe(new Date(limit).toISOString());
    // Each later add moves the close to its trigger's accept time + the window, capped at the limit;
    // the third always reaches the limit. (Derived from the recorded add times: on a slow host the
    // second add may itself land within 2 s of the limit, and then only one extension, to the limit, is due.)
    const due: string[] = [];
    let closes = Date.parse(opened.opened_at) + WINDOW * 1000;
    for (const at of added.slice(1)) {
      const next = Math.min(at + WINDOW * 1000, limit);
      if (next > closes) due.push(new Date((closes = next)).toISOString());
    }
    expect(extended).toEqual(due);
    expect(extended[extended.length - 1]).toBe(new Date(limit).toISOString());
    const closed = events.find((e) => e.event_type === 'BatchClosed')!;
    expect(closed.data).toMatchObject({ reason: 'window', total_activities: 3 });
    expect(Date.parse(closed.data.closed_at)).toBeGreaterThanOrEqual(limit);
    expect((await messagesFor(t, key, 'b-slide')).map(bodyOf)).toEqual(['3']);
  });

  it('closes early when batch_items_max_limit is reached, without waiting for the window', async () => {
    const key = uniqueKey('batch-max');
    await activeWorkflow(t, key, {
      steps: [
        { type: 'batch', ref: 'collect', settings: { batch_window: { unit: 'hours', value: 1 }, batch_items_max_limit: 3 } },
        feed('feed', '{{ total_activities }}'),
      ],
    });
    const ids = [await trigger(key, 'b-max', { n: 1 }), await trigger(key, 'b-max', { n: 2 }), await trigger(key, 'b-max', { n: 3 })];
    const runs = await finished(ids);
    expect(runs[0].completed).toMatchObject({ outcome: 'ended' });
    expect((await messagesFor(t, key, 'b-max')).map(bodyOf)).toEqual(['3']);
    expect((await batchEvents(key)).find((e) => e.event_type === 'BatchClosed')!.data).toMatchObject({
      reason: 'max_items',
      total_activities: 3,
    });
    // The next trigger opens a new batch.
    await trigger(key, 'b-max', { n: 4 });
    await eventually(
      () => batchEvents(key),
      (events) => events.filter((e) => e.event_type === 'BatchOpened').length === 2,
    );
  });

  it('renders at most batch_items_render_limit activities, in batch_order, and at most 10 actors; totals count all', async () => {
    const key = uniqueKey('batch-render');
    await activeWorkflow(t, key, {
      steps: [
        { type: 'batch', ref: 'collect', settings: { batch_window: seconds(WINDOW), batch_items_render_limit: 3, batch_order: 'desc' } },
        feed('feed', '{{ total_activities }}/{{ total_actors }}:{% for a in activities %}{{ a.data.n }},{% endfor %}'),
      ],
    });
    const ids = [];
    for (let n = 1; n <= 12; n++) ids.push(await trigger(key, 'b-render', { n }, `b-actor-${n}`));
    await closeWindows(key, 12);
    await finished(ids);
    const [message] = await messagesEventually(key, 'b-render', 1);
    expect(bodyOf(message)).toBe('12/12:12,11,10,');
    expect(message.actors).toHaveLength(10);
    const actorIds = message.actors.map((a: { id: string }) => a.id);
    expect(new Set(actorIds).size).toBe(10);
    expect(actorIds.every((id: string) => /^b-actor-\d+$/.test(id))).toBe(true);
    expect(message).toMatchObject({ total_activities: 12, total_actors: 12 });
  });

  it('20 concurrent triggers for one recipient and key land in one batch and one message', async () => {
    const key = uniqueKey('batch-burst');
    await activeWorkflow(t, key, {
      steps: [{ type: 'batch', ref: 'collect', settings: { batch_window: seconds(WINDOW) } }, feed('feed', '{{ total_activities }}')],
    });
    await knock.users.update('b-burst', {});
    const ids = await Promise.all(
      Array.from(
        { length: 20 },
        async (_, n) => (await knock.workflows.trigger(key, { recipients: ['b-burst'], data: { n } })).workflow_run_id,
      ),
    );
    await closeWindows(key, 20);
    const runs = await finished(ids);
    expect(runs.filter((r) => r.completed?.reason === 'batched_into_another_run')).toHaveLength(19);
    const messages = await messagesEventually(key, 'b-burst', 1);
    expect(messages.map(bodyOf)).toEqual(['20']);
    const events = await batchEvents(key);
    expect(events.filter((e) => e.event_type === 'BatchOpened')).toHaveLength(1);
    expect(events.filter((e) => e.event_type === 'BatchItemAdded')).toHaveLength(20);
  });
});
