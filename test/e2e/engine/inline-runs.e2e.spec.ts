import { encodedPositionSql } from '@notify/eventstore';
import Knock from '@knocklabs/node';
import { activeWorkflow, eventually as until, feed, uniqueKey } from '../../support/engine';

/** The probe's first truthy answer, asked again until it comes (60 s at most). */
const eventually = <T>(probe: () => Promise<T | undefined | false>): Promise<T> =>
  until(probe, (value) => Boolean(value), 60_000) as Promise<T>;
import { startTestApp, TestApp } from '../../support/test-app';

type LogRow = { stream_id: string; event_type: string; tx: string };

/** Every event of a workflow run (trigger, runs, messages) with its transaction, in log order. */
async function logOf(t: TestApp, workflowRunId: string): Promise<LogRow[]> {
  return t.sql(
    `SELECT stream_id, event_type, transaction_id::text AS tx FROM es_events
     WHERE stream_id = $2 OR metadata ->> 'correlation_id' = $1 OR data ->> 'workflow_run_id' = $1
     ORDER BY transaction_id, global_position`,
    [workflowRunId, `workflow_run-development-${workflowRunId}`],
  );
}

/**
 * Whether every projection that applies UserIdentified has applied the newest one: the state in
 * which a trigger may execute its runs itself (ADR 0258).
 */
async function usersProjected(t: TestApp): Promise<boolean> {
  const [row] = await t.sql(
    `SELECT bool_and(c.position COLLATE "C" >= (
       SELECT ${encodedPositionSql('e')}
       FROM es_events e WHERE e.event_type = 'UserIdentified' ORDER BY e.transaction_id DESC, e.global_position DESC LIMIT 1)) AS ok
     FROM projection_checkpoints c WHERE c.name IN ('users', 'schedules') HAVING count(*) = 2`,
  );
  return row?.ok === true;
}

/** Runs executed by the trigger request itself, appended with the trigger (ADR 0258). */
describe('workflow engine: runs executed with their trigger', () => {
  let t: TestApp;
  let knock: Knock;
  beforeAll(async () => {
    t = await startTestApp();
    knock = t.knock();
  });
  afterAll(async () => t?.close());

  it('appends a run that needs nothing asynchronous, its step and its message in the trigger transaction', async () => {
    const key = uniqueKey('inline');
    await activeWorkflow(t, key, { steps: [feed('feed', 'Hello {{ recipient.name }}, {{ data.n }}')] });
    await knock.users.update('inl-ada', { name: 'Ada' });
    await eventually(() => usersProjected(t));

    const { workflow_run_id } = await knock.workflows.trigger(key, { recipients: ['inl-ada'], data: { n: 7 } });

    // In the log as soon as the trigger is answered: nothing waits for the worker.
    const log = await logOf(t, workflow_run_id);
    expect(log.map((e) => e.event_type)).toEqual(['WorkflowTriggered', 'RunEnqueued', 'RunCompleted', 'MessageCreated']);
    expect(new Set(log.map((e) => e.tx)).size).toBe(1);
    const [message] = await eventually(async () => {
      const rows = await t.sql('SELECT id, content, status FROM rm_messages WHERE workflow_run_id = $1', [workflow_run_id]);
      return rows.length ? rows : undefined;
    });
    expect(message.content.blocks[0].content).toBe('Hello Ada, 7');
    expect(message.status).toBe('delivered');
    // The run's read model shows it ended, and the worker appended nothing more for it.
    const [run] = await eventually(async () => {
      const rows = await t.sql("SELECT status FROM rm_workflow_recipient_runs WHERE workflow_run_id = $1 AND status = 'completed'", [
        workflow_run_id,
      ]);
      return rows.length ? rows : undefined;
    });
    expect(run.status).toBe('completed');
    // Once the worker's executor has passed these events, it has appended nothing more for the run.
    await eventually(async () => {
      const [row] = await t.sql(
        `SELECT c.position COLLATE "C" >= (SELECT max(${encodedPositionSql('e')}) FROM es_events e WHERE e.stream_id = $1) AS past
         FROM reactor_checkpoints c WHERE c.name = 'engine-runs'`,
        [`workflow_run-development-${workflow_run_id}`],
      );
      return row?.past === true;
    });
    expect((await logOf(t, workflow_run_id)).length).toBe(4);
  });

  it('leaves to the worker a run with a step that cannot run in the request (a throttle), and the run still completes', async () => {
    const key = uniqueKey('inline-throttle');
    await activeWorkflow(t, key, {
      steps: [
        { type: 'throttle', ref: 'gate', settings: { throttle_limit: 5, throttle_window: { unit: 'minutes', value: 10 } } },
        feed('feed'),
      ],
    });
    await knock.users.update('inl-thr', { name: 'Thr' });
    await eventually(() => usersProjected(t));
    const { workflow_run_id } = await knock.workflows.trigger(key, { recipients: ['inl-thr'] });
    const log = await eventually(async () => {
      const rows = await logOf(t, workflow_run_id);
      return rows.some((e) => e.event_type === 'RunCompleted') ? rows : undefined;
    });
    const triggerTx = log[0].tx;
    expect(log.filter((e) => e.tx === triggerTx).map((e) => e.event_type)).toEqual(['WorkflowTriggered', 'RunEnqueued']);
    expect(log.find((e) => e.event_type === 'RunCompleted')!.tx).not.toBe(triggerTx);
    // /metrics counts who executed each trigger's runs.
    const metrics = (await t.http('GET', '/metrics', { key: null })).body as string;
    const count = (by: string) =>
      Number(new RegExp(`^notify_trigger_runs_total\\{executed_by="${by}"\\} (\\d+)`, 'm').exec(metrics)?.[1] ?? 0);
    expect(count('trigger')).toBeGreaterThanOrEqual(1);
    expect(count('worker_not_eligible')).toBeGreaterThanOrEqual(1);
  });

  it("a fan-out to an object's subscribers appends each run with its decisions and message; with a cancellation key it leaves them bare (ADR 0287)", async () => {
    const key = uniqueKey('inline-fanout');
    await activeWorkflow(t, key, { steps: [feed('feed', 'Hello {{ recipient.name }}, {{ data.n }}')] });
    const subscribers = ['inl-fo-1', 'inl-fo-2', 'inl-fo-3'];
    for (const id of subscribers) await knock.users.update(id, { name: `Name ${id.slice(-1)}` });
    const team = uniqueKey('team');
    await knock.objects.set('teams', team, { name: 'Team' });
    await knock.objects.addSubscriptions('teams', team, { recipients: subscribers });
    await eventually(() => usersProjected(t));

    const { workflow_run_id } = await knock.workflows.trigger(key, { recipients: [{ collection: 'teams', id: team }], data: { n: 3 } });
    // Every subscriber's message (the object, a recipient too, has a run of its own).
    const messages = await eventually(async () => {
      const rows = await t.sql<{ recipient_id: string; content: { blocks: { content: string }[] } }>(
        'SELECT recipient_id, content FROM rm_messages WHERE workflow_run_id = $1 ORDER BY recipient_id',
        [workflow_run_id],
      );
      return rows.filter((m) => subscribers.includes(m.recipient_id)).length === subscribers.length ? rows : undefined;
    });
    expect(messages.filter((m) => subscribers.includes(m.recipient_id)).map((m) => m.content.blocks[0].content)).toEqual([
      'Hello Name 1, 3',
      'Hello Name 2, 3',
      'Hello Name 3, 3',
    ]);
    // The trigger in its own transaction; each run enqueued with its end and its message, in the fan-out's.
    const log = await logOf(t, workflow_run_id);
    const triggerTx = log[0].tx;
    expect(log[0].event_type).toBe('WorkflowTriggered');
    const fanned = log.filter((e) => e.tx !== triggerTx);
    expect(fanned.filter((e) => e.event_type === 'RunEnqueued')).toHaveLength(subscribers.length + 1);
    for (const run of fanned.filter((e) => e.event_type === 'RunEnqueued')) {
      const inRun = fanned.filter((e) => e.stream_id === run.stream_id);
      expect(inRun.map((e) => [e.event_type, e.tx])).toEqual([
        ['RunEnqueued', run.tx],
        ['RunCompleted', run.tx],
      ]);
    }
    const created = fanned.filter((e) => e.event_type === 'MessageCreated');
    expect(created).toHaveLength(subscribers.length + 1);
    for (const message of created) expect(fanned.some((e) => e.tx === message.tx && e.event_type === 'RunEnqueued')).toBe(true);

    // A cancellation key: a cancel recorded between a run's plan and its append would go unseen, so the runs go bare to the worker.
    const cancellable = await knock.workflows.trigger(key, {
      recipients: [{ collection: 'teams', id: team }],
      data: { n: 4 },
      cancellation_key: uniqueKey('cancel'),
    });
    const bare = await eventually(async () => {
      const rows = await logOf(t, cancellable.workflow_run_id);
      return rows.filter((e) => e.event_type === 'RunCompleted').length === subscribers.length + 1 ? rows : undefined;
    });
    for (const run of bare.filter((e) => e.event_type === 'RunEnqueued')) {
      const completed = bare.find((e) => e.stream_id === run.stream_id && e.event_type === 'RunCompleted')!;
      expect(completed.tx).not.toBe(run.tx);
    }
  });

  it('never renders a recipient identified with the trigger from a read model that does not show it yet', async () => {
    const key = uniqueKey('inline-identify');
    await activeWorkflow(t, key, { steps: [feed('feed', 'Hello {{ recipient.name }}')] });
    for (let i = 0; i < 5; i++) {
      const id = `inl-new-${i}`;
      const { workflow_run_id } = await knock.workflows.trigger(key, { recipients: [{ id, name: `Name ${i}` }] });
      const [message] = await eventually(async () => {
        const rows = await t.sql('SELECT content FROM rm_messages WHERE workflow_run_id = $1', [workflow_run_id]);
        return rows.length ? rows : undefined;
      });
      expect(message.content.blocks[0].content).toBe(`Hello Name ${i}`);
      // Renamed, then triggered again: the new name, never the one before.
      await knock.users.update(id, { name: `Renamed ${i}` });
      const again = await knock.workflows.trigger(key, { recipients: [id] });
      const [second] = await eventually(async () => {
        const rows = await t.sql('SELECT content FROM rm_messages WHERE workflow_run_id = $1', [again.workflow_run_id]);
        return rows.length ? rows : undefined;
      });
      expect(second.content.blocks[0].content).toBe(`Hello Renamed ${i}`);
    }
  });
});
