import Knock from '@knocklabs/node';
import { handleCommand } from '@notify/application';
import { messageDecider, messageStream } from '@notify/domain';
import { activeWorkflow, bodyOf, eventually, feed, finishedRuns, messagesOf, pausedRuns, uniqueKey } from '../../support/engine';
import { rebuildAndCompare } from '../../support/rebuild';
import { startTestApp, TestApp } from '../../support/test-app';

const sameOrder = [{ conditions: [{ variable: 'event.data.order_id', operator: 'equal_to', argument: 'data.order_id' }] }];

/** wait_for_event: paused until another workflow's run or message event for the recipient, or the expiry. */
describe('workflow engine: wait_for_event', () => {
  let t: TestApp;
  let knock: Knock;
  beforeAll(async () => {
    t = await startTestApp();
    knock = t.knock();
  });
  afterAll(async () => t?.close());

  const waiting = async () => (await t.sql<{ c: string }>('SELECT count(*) AS c FROM rm_waiting_runs'))[0].c;

  it('continues when the workflow it triggered completes for the recipient with matching data', async () => {
    const child = uniqueKey('wf-child');
    const parent = uniqueKey('wf-parent');
    await activeWorkflow(t, child, {
      steps: [{ type: 'update_data', ref: 'enrich', settings: { data: '{"total": 42}' } }, feed('feed', 'child')],
    });
    await activeWorkflow(t, parent, {
      steps: [
        { type: 'trigger_workflow', ref: 'spawn', settings: { workflow_key: child, data: '{"order_id": "{{ data.order_id }}"}' } },
        {
          type: 'wait_for_event',
          ref: 'wait',
          settings: {
            event: { event_type: 'workflow', event_key: 'completed', source_key: child },
            match_conditions: sameOrder,
            expires_after: { unit: 'minutes', value: 5 },
          },
        },
        feed('feed', 'child finished with {{ data.order_id }}'),
      ],
    });
    const { workflow_run_id } = await knock.workflows.trigger(parent, { recipients: [{ id: 'we-ada' }], data: { order_id: 'o-1' } });
    const [run] = await finishedRuns(t, workflow_run_id);
    const paused = run.events.find((e) => e.type === 'RunPaused')!.data;
    expect(paused).toMatchObject({
      reason: 'wait_for_event',
      step_ref: 'wait',
      waiting_for: {
        event_type: 'workflow',
        event_key: 'completed',
        source_key: child,
        match_conditions: sameOrder,
        recipient: { type: 'user', id: 'we-ada' },
      },
    });
    const resumed = run.events.find((e) => e.type === 'RunResumed')!.data;
    const childRunId = run.steps.spawn.output.workflow_run_id;
    expect(resumed).toMatchObject({
      cause: 'event_matched',
      step_ref: 'wait',
      event: {
        type: 'workflow.completed',
        workflow_key: child,
        workflow_run_id: childRunId,
        outcome: 'ended',
        data: { order_id: 'o-1', total: 42 },
      },
    });
    expect(run.steps.wait).toMatchObject({
      status: 'ok',
      output: { matched: true, event: expect.objectContaining({ type: 'workflow.completed' }) },
    });
    expect(run.types).not.toContain('TimerFired');
    expect(bodyOf((await messagesOf(t, workflow_run_id))[0])).toBe('child finished with o-1');
    // The child's completion was recorded before the parent resumed.
    const [childRun] = await finishedRuns(t, childRunId);
    expect(childRun.events.at(-1)!.at.getTime()).toBeLessThanOrEqual(run.events.find((e) => e.type === 'RunResumed')!.at.getTime());
    // The runs' ends are in the log; the waiting-runs read model applies them a moment later.
    expect(await eventually(waiting, (c) => c === '0', 15_000)).toBe('0');
  });

  it('resumes only on a start of the awaited workflow for the same recipient whose data matches', async () => {
    const other = uniqueKey('wf-other');
    const waiter = uniqueKey('wf-waiter');
    await activeWorkflow(t, other, { steps: [feed('feed', 'other')] });
    await activeWorkflow(t, waiter, {
      steps: [
        {
          type: 'wait_for_event',
          ref: 'wait',
          settings: {
            event: { event_type: 'workflow', event_key: 'started', source_key: other },
            match_conditions: sameOrder,
            expires_after: { unit: 'minutes', value: 5 },
          },
        },
        feed('feed', 'saw it'),
      ],
    });
    const { workflow_run_id } = await knock.workflows.trigger(waiter, { recipients: [{ id: 'ws-ada' }], data: { order_id: 'o-7' } });
    await pausedRuns(t, workflow_run_id);
    const miss1 = await knock.workflows.trigger(other, { recipients: [{ id: 'ws-bob' }], data: { order_id: 'o-7' } }); // another recipient
    const miss2 = await knock.workflows.trigger(other, { recipients: [{ id: 'ws-ada' }], data: { order_id: 'o-8' } }); // other data
    await finishedRuns(t, miss1.workflow_run_id);
    await finishedRuns(t, miss2.workflow_run_id);
    const hit = await knock.workflows.trigger(other, { recipients: [{ id: 'ws-ada' }], data: { order_id: 'o-7' } });
    const [run] = await finishedRuns(t, workflow_run_id);
    // Events are matched in log order and a run resumes once: the first match is the right trigger.
    expect(run.events.find((e) => e.type === 'RunResumed')!.data.event).toMatchObject({
      type: 'workflow.started',
      workflow_run_id: hit.workflow_run_id,
      recipient: { id: 'ws-ada' },
    });
    expect((await messagesOf(t, workflow_run_id)).map(bodyOf)).toEqual(['saw it']);
  });

  it('continues on a matching message status of the awaited workflow (message delivered)', async () => {
    const digest = uniqueKey('wf-digest');
    const waiter = uniqueKey('wf-msg-waiter');
    await activeWorkflow(t, digest, { steps: [feed('feed', 'digest')] });
    await activeWorkflow(t, waiter, {
      steps: [
        {
          type: 'wait_for_event',
          ref: 'wait',
          settings: {
            event: { event_type: 'message', event_key: 'delivered', source_type: 'workflow', source_key: digest },
            match_conditions: sameOrder,
            expires_after: { unit: 'minutes', value: 5 },
          },
        },
        feed('feed', 'digest delivered'),
      ],
    });
    const { workflow_run_id } = await knock.workflows.trigger(waiter, { recipients: [{ id: 'wm-ada' }], data: { order_id: 'o-3' } });
    await pausedRuns(t, workflow_run_id);
    const sent = await knock.workflows.trigger(digest, { recipients: [{ id: 'wm-ada' }], data: { order_id: 'o-3' } });
    const [run] = await finishedRuns(t, workflow_run_id);
    const [digestMessage] = await messagesOf(t, sent.workflow_run_id);
    expect(run.events.find((e) => e.type === 'RunResumed')!.data.event).toMatchObject({
      type: 'message.delivered',
      message_id: digestMessage.id,
      workflow_key: digest,
      channel_type: 'in_app_feed',
    });
    expect((await messagesOf(t, workflow_run_id)).map(bodyOf)).toEqual(['digest delivered']);
  });

  it('continues when the awaited message is seen; the engagement is recorded as the messages API will record it', async () => {
    const digest = uniqueKey('wf-seen-digest');
    const waiter = uniqueKey('wf-seen-waiter');
    await activeWorkflow(t, digest, { steps: [feed('feed', 'digest')] });
    await activeWorkflow(t, waiter, {
      steps: [
        {
          type: 'wait_for_event',
          ref: 'wait',
          settings: {
            event: { event_type: 'message', event_key: 'seen', source_type: 'workflow', source_key: digest },
            match_conditions: sameOrder,
            expires_after: { unit: 'minutes', value: 5 },
            on_match: 'halt',
          },
        },
        feed('reminder', 'you have not seen the digest'),
      ],
    });
    const sent = await knock.workflows.trigger(digest, { recipients: [{ id: 'wn-ada' }], data: { order_id: 'o-9' } });
    await finishedRuns(t, sent.workflow_run_id);
    const [digestMessage] = await messagesOf(t, sent.workflow_run_id);
    const { workflow_run_id } = await knock.workflows.trigger(waiter, { recipients: [{ id: 'wn-ada' }], data: { order_id: 'o-9' } });
    await pausedRuns(t, workflow_run_id);
    // There is no messages API yet: append what marking the message seen records.
    await handleCommand(
      t.store,
      messageStream('development', digestMessage.id),
      messageDecider,
      { type: 'Engage', action: 'seen', now: new Date().toISOString() },
      { environment: 'development', actor: 'test' },
    );
    const [run] = await finishedRuns(t, workflow_run_id);
    expect(run.events.find((e) => e.type === 'RunResumed')!.data.event).toMatchObject({
      type: 'message.seen',
      message_id: digestMessage.id,
    });
    expect(run.completed).toMatchObject({ outcome: 'halted', reason: 'wait_for_event_matched' });
    expect(await messagesOf(t, workflow_run_id)).toEqual([]);
  });

  it('continues when the recipient is updated with matching properties', async () => {
    const key = uniqueKey('wf-recipient');
    await activeWorkflow(t, key, {
      steps: [
        {
          type: 'wait_for_event',
          ref: 'wait',
          settings: {
            event: { event_type: 'recipient', event_key: 'updated' },
            match_conditions: [{ conditions: [{ variable: 'event.properties.plan', operator: 'equal_to', argument: 'pro' }] }],
            expires_after: { unit: 'minutes', value: 5 },
          },
        },
        feed('feed', '{{ recipient.name }} is now on {{ recipient.plan }}'),
      ],
    });
    await knock.users.update('wr-ada', { name: 'Ada', plan: 'free' } as never);
    const { workflow_run_id } = await knock.workflows.trigger(key, { recipients: ['wr-ada'] });
    await pausedRuns(t, workflow_run_id);
    await knock.users.update('wr-ada', { name: 'Ada L.' }); // an update, but not the awaited one
    await knock.users.update('wr-bob', { plan: 'pro' } as never); // another recipient
    await knock.users.update('wr-ada', { plan: 'pro' } as never);
    const [run] = await finishedRuns(t, workflow_run_id);
    expect(run.events.find((e) => e.type === 'RunResumed')!.data.event).toEqual({
      type: 'recipient.updated',
      recipient: { type: 'user', id: 'wr-ada' },
      properties: { plan: 'pro' },
    });
    expect((await messagesOf(t, workflow_run_id)).map(bodyOf)).toEqual(['Ada L. is now on pro']);
  });

  it('on the expiry goes on with on_timeout (continue, or halt); on_match halt ends the run', async () => {
    const never = uniqueKey('wf-never');
    const waitStep = (over: Record<string, unknown>) => ({
      type: 'wait_for_event',
      ref: 'wait',
      settings: {
        event: { event_type: 'workflow', event_key: 'completed', source_key: never },
        match_conditions: sameOrder,
        expires_after: { unit: 'seconds', value: 2 },
        ...over,
      },
    });
    await activeWorkflow(t, never, { steps: [feed('feed', 'never')] });
    const goOn = uniqueKey('wf-timeout-continue');
    const stop = uniqueKey('wf-timeout-halt');
    const stopOnMatch = uniqueKey('wf-match-halt');
    await activeWorkflow(t, goOn, { steps: [waitStep({ on_timeout: 'continue' }), feed('feed', 'timed out, going on')] });
    await activeWorkflow(t, stop, { steps: [waitStep({ on_timeout: 'halt' }), feed('feed', 'never sent')] });
    await activeWorkflow(t, stopOnMatch, {
      steps: [waitStep({ on_match: 'halt', expires_after: { unit: 'minutes', value: 5 } }), feed('feed', 'never sent')],
    });

    const a = await knock.workflows.trigger(goOn, { recipients: [{ id: 'wt-ada' }], data: { order_id: 'x' } });
    const b = await knock.workflows.trigger(stop, { recipients: [{ id: 'wt-ada' }], data: { order_id: 'x' } });
    const c = await knock.workflows.trigger(stopOnMatch, { recipients: [{ id: 'wt-bob' }], data: { order_id: 'y' } });
    await pausedRuns(t, c.workflow_run_id);
    await knock.workflows.trigger(never, { recipients: [{ id: 'wt-bob' }], data: { order_id: 'y' } });

    const [continued] = await finishedRuns(t, a.workflow_run_id);
    const pause = continued.events.find((e) => e.type === 'RunPaused')!.data;
    expect(Date.parse(pause.resume_at) - Date.parse(pause.at)).toBe(2000);
    expect(continued.types).toContain('TimerFired');
    expect(continued.types).not.toContain('RunResumed');
    expect(continued.steps.wait).toMatchObject({ status: 'ok', output: { matched: false, timed_out: true } });
    expect((await messagesOf(t, a.workflow_run_id)).map(bodyOf)).toEqual(['timed out, going on']);

    const [halted] = await finishedRuns(t, b.workflow_run_id);
    expect(halted.completed).toMatchObject({ outcome: 'halted', reason: 'wait_for_event_timed_out' });
    expect(await messagesOf(t, b.workflow_run_id)).toEqual([]);

    const [matched] = await finishedRuns(t, c.workflow_run_id);
    expect(matched.completed).toMatchObject({ outcome: 'halted', reason: 'wait_for_event_matched' });
    expect(matched.steps.wait.output).toMatchObject({ matched: true });
    expect(await messagesOf(t, c.workflow_run_id)).toEqual([]);
    // The runs' ends are in the log; the waiting-runs read model applies them a moment later.
    expect(await eventually(waiting, (c) => c === '0', 15_000)).toBe('0');
  });

  it('keeps the waiting-runs read model equal to a rebuild from the log', async () => {
    const key = uniqueKey('wf-rebuild');
    await activeWorkflow(t, key, {
      steps: [
        {
          type: 'wait_for_event',
          ref: 'wait',
          settings: {
            event: { event_type: 'workflow', event_key: 'completed', source_key: 'nothing-yet' },
            match_conditions: sameOrder,
            expires_after: { unit: 'hours', value: 1 },
          },
        },
      ],
    });
    const { workflow_run_id } = await knock.workflows.trigger(key, { recipients: [{ id: 'wrb-1' }, { id: 'wrb-2' }] });
    await pausedRuns(t, workflow_run_id, 2);
    await eventually(waiting, (c) => Number(c) >= 2);
    const { live, rebuilt } = await rebuildAndCompare(t, ['waiting-runs']);
    expect(live.rm_waiting_runs.length).toBeGreaterThanOrEqual(2);
    expect(rebuilt).toEqual(live);
  });

  it('records waits for events this service has no source of as the step error, and ends the run', async () => {
    const key = uniqueKey('wf-unsupported');
    await activeWorkflow(t, key, {
      steps: [
        { type: 'wait_for_event', ref: 'wait', settings: { event: { event_type: 'audience', event_key: 'enter', audience_key: 'vip' } } },
        feed('feed', 'never'),
      ],
    });
    const { workflow_run_id } = await knock.workflows.trigger(key, { recipients: [{ id: 'wu-ada' }] });
    const [run] = await finishedRuns(t, workflow_run_id);
    expect(run.steps.wait).toMatchObject({ status: 'error', reason: 'wait_for_event: audience events are not supported' });
    expect(run.completed).toMatchObject({ outcome: 'halted', reason: 'wait_for_event: audience events are not supported' });
    expect(await messagesOf(t, workflow_run_id)).toEqual([]);
  });
});
