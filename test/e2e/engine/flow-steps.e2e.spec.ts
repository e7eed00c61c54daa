import Knock from '@knocklabs/node';
import { cohortBranch } from '@notify/domain';
import { activeWorkflow, bodyOf, eventually, feed, finishedRuns, messagesOf, pausedRuns, uniqueKey } from '../../support/engine';
import { startTestApp, TestApp } from '../../support/test-app';

/** Delay, branch, random cohort, update_data and throttle steps, driven by the official clients. */
describe('workflow engine: flow steps', () => {
  let t: TestApp;
  let knock: Knock;
  beforeAll(async () => {
    t = await startTestApp();
    knock = t.knock();
  });
  afterAll(async () => t?.close());

  describe('delay', () => {
    it('waits delay_for, then sends, with the wait recorded on the run', async () => {
      const key = uniqueKey('delay-for');
      await activeWorkflow(t, key, {
        steps: [{ type: 'delay', ref: 'wait', settings: { delay_for: { unit: 'seconds', value: 2 } } }, feed('feed')],
      });
      await knock.users.update('del-ada', { name: 'Ada' });
      const { workflow_run_id } = await knock.workflows.trigger(key, { recipients: ['del-ada'] });

      const [paused] = await pausedRuns(t, workflow_run_id);
      expect(paused.types).toEqual(['RunEnqueued', 'StepStarted', 'TimerScheduled', 'RunPaused']);
      const pause = paused.events[3].data;
      expect(pause).toMatchObject({ reason: 'delay', step_ref: 'wait', timer_id: expect.any(String) });
      // Both from the one clock reading the run executor decides with.
      expect(Date.parse(pause.resume_at) - Date.parse(pause.at)).toBe(2000);
      expect(paused.events[2].data).toEqual({ timer_id: pause.timer_id, fire_at: pause.resume_at, purpose: 'delay' });
      expect(await messagesOf(t, workflow_run_id)).toEqual([]);

      const [run] = await finishedRuns(t, workflow_run_id);
      expect(run.types).toEqual([
        'RunEnqueued',
        'StepStarted',
        'TimerScheduled',
        'RunPaused',
        'TimerFired',
        'StepCompleted',
        'StepCompleted',
        'RunCompleted',
      ]);
      expect(run.steps.wait).toMatchObject({ status: 'ok', output: { delayed: true } });
      const [message] = await messagesOf(t, workflow_run_id);
      // Not before the timer was due (how long after depends on the machine's load).
      expect(message.inserted_at.getTime()).toBeGreaterThanOrEqual(Date.parse(pause.resume_at));
    });

    it('waits until a timestamp in the data (delay_until_field_path), and skip_delay goes straight on', async () => {
      const key = uniqueKey('delay-until');
      await activeWorkflow(t, key, {
        steps: [{ type: 'delay', ref: 'wait', settings: { delay_until_field_path: 'data.remind_at' } }, feed('feed')],
      });
      // Far enough ahead that the run is still before it when it executes on a busy machine.
      const remindAt = new Date(Date.now() + 5000).toISOString();
      const { workflow_run_id } = await knock.workflows.trigger(key, { recipients: [{ id: 'del-bob' }], data: { remind_at: remindAt } });
      const [paused] = await pausedRuns(t, workflow_run_id);
      expect(paused.events.find((e) => e.type === 'RunPaused')!.data.resume_at).toBe(remindAt);
      const [run] = await finishedRuns(t, workflow_run_id);
      const fired = run.events.find((e) => e.type === 'TimerFired')!;
      expect(fired.at.getTime()).toBeGreaterThanOrEqual(Date.parse(remindAt));
      expect(await messagesOf(t, workflow_run_id)).toHaveLength(1);

      const skipped = await knock.workflows.trigger(key, {
        recipients: ['del-bob'],
        data: { remind_at: new Date(Date.now() + 3_600_000).toISOString() },
        settings: { skip_delay: true },
      } as never);
      const [straight] = await finishedRuns(t, skipped.workflow_run_id);
      expect(straight.types).toEqual(['RunEnqueued', 'StepCompleted', 'StepCompleted', 'RunCompleted']);
      expect(straight.steps.wait).toMatchObject({ status: 'ok', output: { delayed: false } });
      expect(await messagesOf(t, skipped.workflow_run_id)).toHaveLength(1);
    });
  });

  describe('branch', () => {
    const key = uniqueKey('branch');
    beforeAll(async () => {
      await activeWorkflow(t, key, {
        steps: [
          {
            type: 'branch',
            ref: 'route',
            branches: [
              {
                name: 'vip',
                conditions: { all: [{ variable: 'data.tier', operator: 'equal_to', argument: 'vip' }] },
                steps: [feed('vip', 'VIP')],
              },
              {
                name: 'big',
                conditions: { all: [{ variable: 'data.amount', operator: 'greater_than', argument: '100' }] },
                steps: [feed('big', 'BIG')],
                terminates: true,
              },
              { name: 'default', steps: [feed('plain', 'PLAIN')] },
            ],
          },
          feed('after', 'AFTER'),
        ],
      });
    });

    const bodies = async (workflowRunId: string) => (await messagesOf(t, workflowRunId)).map(bodyOf).sort();

    it('takes the first branch whose conditions hold, then continues after the branch step', async () => {
      // Both vip and big hold: the first one wins.
      const { workflow_run_id } = await knock.workflows.trigger(key, { recipients: [{ id: 'br-1' }], data: { tier: 'vip', amount: 500 } });
      const [run] = await finishedRuns(t, workflow_run_id);
      expect(run.steps.route).toMatchObject({ status: 'ok', output: { branch: 'vip' }, next_path: [0, 0, 0] });
      expect(run.completed).toMatchObject({ outcome: 'ended' });
      expect(await bodies(workflow_run_id)).toEqual(['AFTER', 'VIP']);
    });

    it('ends the run after a terminating branch', async () => {
      const { workflow_run_id } = await knock.workflows.trigger(key, {
        recipients: [{ id: 'br-2' }],
        data: { tier: 'basic', amount: 500 },
      });
      const [run] = await finishedRuns(t, workflow_run_id);
      expect(run.steps.route.output).toEqual({ branch: 'big' });
      expect(run.completed).toMatchObject({ outcome: 'halted', reason: 'branch_terminated' });
      expect(await bodies(workflow_run_id)).toEqual(['BIG']);
    });

    it('falls back to the default branch', async () => {
      const { workflow_run_id } = await knock.workflows.trigger(key, { recipients: [{ id: 'br-3' }], data: { tier: 'basic', amount: 5 } });
      const [run] = await finishedRuns(t, workflow_run_id);
      expect(run.steps.route.output).toEqual({ branch: 'default' });
      expect(await bodies(workflow_run_id)).toEqual(['AFTER', 'PLAIN']);
    });
  });

  it('random_cohort puts each recipient (or cohort key) in the same cohort every time', async () => {
    const key = uniqueKey('cohort');
    await activeWorkflow(t, key, {
      steps: [
        {
          type: 'random_cohort',
          ref: 'split',
          cohort_branches: [
            { name: 'a', percentage: 50, steps: [feed('a', 'A')] },
            { name: 'b', percentage: 50, steps: [feed('b', 'B')] },
          ],
        },
      ],
    });
    const users = Array.from({ length: 8 }, (_, i) => `cohort-user-${i}`);
    for (const u of users) await knock.users.update(u, {});
    const cohorts = async () => {
      const { workflow_run_id } = await knock.workflows.trigger(key, { recipients: users });
      const runs = await finishedRuns(t, workflow_run_id, users.length);
      return Object.fromEntries(runs.map((r) => [r.recipient.id, r.steps.split.output.cohort]));
    };
    const first = await cohorts();
    expect(await cohorts()).toEqual(first);
    // The same function the engine uses, keyed by recipient and salted by workflow and step.
    const expected = Object.fromEntries(users.map((u) => [u, ['a', 'b'][cohortBranch([50, 50], u, `${key}:split`)]]));
    expect(first).toEqual(expected);
    expect(new Set(Object.values(first)).size).toBe(2);

    // With a cohort key, recipients sharing its value share the cohort.
    const keyed = uniqueKey('cohort-keyed');
    await activeWorkflow(t, keyed, {
      steps: [
        {
          type: 'random_cohort',
          ref: 'split',
          cohort_key: 'data.team',
          cohort_branches: [
            { name: 'a', percentage: 30, steps: [] },
            { name: 'b', percentage: 70, steps: [] },
          ],
        },
      ],
    });
    const { workflow_run_id } = await knock.workflows.trigger(keyed, { recipients: users, data: { team: 'blue' } });
    const runs = await finishedRuns(t, workflow_run_id, users.length);
    const chosen = ['a', 'b'][cohortBranch([30, 70], 'blue', `${keyed}:split`)];
    expect(runs.map((r) => r.steps.split.output.cohort)).toEqual(users.map(() => chosen));
  });

  it('update_data merges rendered JSON into the data later steps see', async () => {
    const key = uniqueKey('update-data');
    await activeWorkflow(t, key, {
      steps: [
        {
          type: 'update_data',
          ref: 'enrich',
          settings: { data: '{"greeting": "Hi {{ recipient.name }}", "count": {{ data.count | plus: 1 }}}' },
        },
        feed('feed', '{{ data.greeting }} #{{ data.count }} ({{ data.kept }})'),
      ],
    });
    await knock.users.update('ud-ada', { name: 'Ada' });
    const { workflow_run_id } = await knock.workflows.trigger(key, { recipients: ['ud-ada'], data: { count: 1, kept: 'yes' } });
    const [run] = await finishedRuns(t, workflow_run_id);
    expect(run.events.find((e) => e.type === 'RunDataUpdated')!.data).toMatchObject({
      step_ref: 'enrich',
      data: { greeting: 'Hi Ada', count: 2 },
    });
    expect(run.steps.enrich).toMatchObject({ status: 'ok', output: { keys: ['greeting', 'count'] } });
    const [message] = await messagesOf(t, workflow_run_id);
    expect(bodyOf(message)).toBe('Hi Ada #2 (yes)');
    expect(message.data).toMatchObject({ greeting: 'Hi Ada', count: 2, kept: 'yes' });

    // Data that does not render to an object is the step's error; the run goes on.
    const broken = uniqueKey('update-data-bad');
    await activeWorkflow(t, broken, {
      steps: [{ type: 'update_data', ref: 'enrich', settings: { data: '[1, 2]' } }, feed('feed', 'still sent')],
    });
    const bad = await knock.workflows.trigger(broken, { recipients: ['ud-ada'] });
    const [failed] = await finishedRuns(t, bad.workflow_run_id);
    expect(failed.steps.enrich).toMatchObject({ status: 'error', reason: 'update_data: data must render to a JSON object' });
    expect(failed.types).not.toContain('RunDataUpdated');
    expect(await messagesOf(t, bad.workflow_run_id)).toHaveLength(1);
  });

  it('throttle lets `limit` runs per recipient and key through in the window and halts the rest', async () => {
    const key = uniqueKey('throttle');
    await activeWorkflow(t, key, {
      steps: [
        {
          type: 'throttle',
          ref: 'gate',
          settings: { throttle_limit: 2, throttle_window: { unit: 'minutes', value: 10 }, throttle_key: 'data.topic' },
        },
        feed('feed', '{{ data.n }}'),
      ],
    });
    const trigger = async (user: string, n: number, topic: string) =>
      (await knock.workflows.trigger(key, { recipients: [{ id: user }], data: { n, topic } })).workflow_run_id;
    const runs = [];
    // One after the other, so which runs pass is known.
    for (const [user, n, topic] of [
      ['thr-ada', 1, 'a'],
      ['thr-ada', 2, 'a'],
      ['thr-ada', 3, 'a'],
      ['thr-ada', 4, 'a'],
      ['thr-ada', 5, 'b'],
      ['thr-bob', 6, 'a'],
    ] as const) {
      runs.push((await finishedRuns(t, await trigger(user, n, topic)))[0]);
    }
    expect(runs.map((r) => r.completed?.reason ?? null)).toEqual([null, null, 'throttled', 'throttled', null, null]);
    expect(runs[2].steps.gate).toMatchObject({ status: 'ok', output: { throttled: true } });
    const sent = (
      await t.sql<{ recipient_id: string; n: string }>(
        `SELECT recipient_id, content->'blocks'->0->>'content' AS n FROM rm_messages WHERE workflow_key = $1 ORDER BY recipient_id, n`,
        [key],
      )
    ).map((r) => `${r.recipient_id}:${r.n}`);
    expect(sent).toEqual(['thr-ada:1', 'thr-ada:2', 'thr-ada:5', 'thr-bob:6']);
  });

  it('throttles concurrent triggers for one recipient to exactly the limit', async () => {
    const key = uniqueKey('throttle-burst');
    await activeWorkflow(t, key, {
      steps: [
        { type: 'throttle', ref: 'gate', settings: { throttle_limit: 3, throttle_window: { unit: 'minutes', value: 10 } } },
        feed('feed'),
      ],
    });
    const ids = await Promise.all(
      Array.from({ length: 12 }, async () => (await knock.workflows.trigger(key, { recipients: [{ id: 'thr-burst' }] })).workflow_run_id),
    );
    await Promise.all(ids.map((id) => finishedRuns(t, id)));
    await eventually(
      () => t.sql<{ c: string }>('SELECT count(*) AS c FROM rm_messages WHERE workflow_key = $1', [key]),
      (rows) => rows[0].c === '3',
    );
    expect(
      (
        await t.sql<{ c: string }>(`SELECT count(*) AS c FROM es_events WHERE event_type = 'ThrottleLimited' AND stream_id LIKE $1`, [
          `throttle-development-${key}-%`,
        ])
      )[0].c,
    ).toBe('9');
  });
});
