import Knock from '@knocklabs/node';
import { workflowRunStream } from '@notify/domain';
import { activeWorkflow, eventually, feedStep, messagesOf, runsOf } from '../../support/runs';
import { settled } from '../../support/engine';
import { startTestApp, TestApp } from '../../support/test-app';

/** trigger_frequency (enforced by the fan-out) and workflow conditions (by the executor), per recipient. */
describe('trigger frequency and workflow conditions', () => {
  let t: TestApp;
  let knock: Knock;

  /** Triggers and waits until the fan-out has handled the trigger and every run it made has ended. */
  async function triggered(workflow: string, body: Parameters<Knock['workflows']['trigger']>[1]): Promise<string> {
    const { workflow_run_id } = await knock.workflows.trigger(workflow, body);
    const [recorded] = await t.store.readStream(workflowRunStream('development', workflow_run_id));
    await eventually(
      async () => (await t.sql("SELECT position FROM reactor_checkpoints WHERE name = 'engine-fanout'"))[0]?.position >= recorded.position,
      60_000,
      'the fan-out',
    );
    // Every run the fan-out appended is in the runs read model once it reaches the head of the log.
    await t.runtime.waitFor(await t.store.newestPosition(), [{ type: 'RunEnqueued', streamId: 'run-' }], 60_000);
    await eventually(async () => (await runsOf(t, workflow_run_id)).every((r) => r.status === 'completed'), 60_000, 'the runs to end');
    await t.runtime.waitFor(await t.store.newestPosition(), [{ type: 'MessageCreated', streamId: 'message-' }], 60_000);
    return workflow_run_id;
  }
  const recipientsOf = async (workflowRunId: string) => (await runsOf(t, workflowRunId)).map((r) => r.recipient_id);

  beforeAll(async () => {
    t = await startTestApp();
    knock = t.knock();
    await activeWorkflow(t, 'once', { trigger_frequency: 'once_per_recipient', steps: [feedStep('feed')] });
    await activeWorkflow(t, 'once-per-tenant', { trigger_frequency: 'once_per_recipient_per_tenant', steps: [feedStep('feed')] });
    await activeWorkflow(t, 'pro-only', {
      conditions: {
        all: [
          { variable: 'recipient.plan', operator: 'equal_to', argument: 'pro' },
          { variable: 'data.enabled', operator: 'equal_to', argument: 'true' },
        ],
      },
      steps: [feedStep('feed')],
    });
    for (const [id, plan] of [
      ['ada', 'pro'],
      ['grace', 'free'],
      ['linus', 'pro'],
    ])
      await knock.users.update(id, { name: id, plan } as never);
  });
  afterAll(async () => t?.close());

  it('once_per_recipient: a second trigger for the same recipient creates no run and no message', async () => {
    const first = await triggered('once', { recipients: ['ada'] });
    expect(await recipientsOf(first)).toEqual(['ada']);
    const second = await triggered('once', { recipients: ['ada', 'grace'] });
    expect(await recipientsOf(second)).toEqual(['grace']);
    expect((await messagesOf(t, second)).map((m) => m.recipient_id)).toEqual(['grace']);
    // ... whatever the tenant
    const third = await triggered('once', { recipients: ['ada'], tenant: 'acme' });
    expect(await recipientsOf(third)).toEqual([]);
    expect((await t.sql("SELECT count(*)::int AS c FROM rm_messages WHERE workflow_key = 'once' AND recipient_id = 'ada'"))[0].c).toBe(1);
  });

  it('once_per_recipient: concurrent triggers for one recipient still make one run', async () => {
    const ids = await Promise.all(Array.from({ length: 5 }, () => knock.workflows.trigger('once', { recipients: ['linus'] })));
    await eventually(
      async () =>
        (await t.sql("SELECT count(*)::int AS c FROM rm_messages WHERE workflow_key = 'once' AND recipient_id = 'linus'"))[0].c === 1,
      60_000,
      'linus’s message',
    );
    await settled(t);
    const runs = await t.sql(
      "SELECT count(*)::int AS c FROM rm_workflow_recipient_runs WHERE workflow = 'once' AND recipient_id = 'linus' AND workflow_run_id = ANY($1)",
      [ids.map((i) => i.workflow_run_id)],
    );
    expect(runs[0].c).toBe(1);
    expect((await t.sql("SELECT count(*)::int AS c FROM rm_messages WHERE workflow_key = 'once' AND recipient_id = 'linus'"))[0].c).toBe(1);
  });

  it('once_per_recipient_per_tenant: once per recipient in each tenant (and once without one)', async () => {
    expect(await recipientsOf(await triggered('once-per-tenant', { recipients: ['ada'], tenant: 'acme' }))).toEqual(['ada']);
    expect(await recipientsOf(await triggered('once-per-tenant', { recipients: ['ada'], tenant: 'acme' }))).toEqual([]);
    const globex = await triggered('once-per-tenant', { recipients: ['ada'], tenant: 'globex' });
    expect(await recipientsOf(globex)).toEqual(['ada']);
    expect((await messagesOf(t, globex)).map((m) => m.recipient_id)).toEqual(['ada']);
    expect(await recipientsOf(await triggered('once-per-tenant', { recipients: ['ada'] }))).toEqual(['ada']);
    expect(await recipientsOf(await triggered('once-per-tenant', { recipients: ['ada'] }))).toEqual([]);
    const tenants = await t.sql(
      "SELECT tenant FROM rm_messages WHERE workflow_key = 'once-per-tenant' AND recipient_id = 'ada' ORDER BY tenant NULLS LAST",
    );
    expect(tenants.map((r: { tenant: string | null }) => r.tenant)).toEqual(['acme', 'globex', null]);
  });

  it('workflow conditions are evaluated per recipient: a recipient who fails them gets a halted run and no message', async () => {
    const run = await triggered('pro-only', { recipients: ['ada', 'grace'], data: { enabled: true } });
    expect((await messagesOf(t, run)).map((m) => m.recipient_id)).toEqual(['ada']);
    const runs = (await knock.workflowRecipientRuns.list({ workflow: 'pro-only' })).items;
    const grace = await knock.workflowRecipientRuns.get(runs.find((r) => r.recipient === 'grace')!.id);
    expect(grace.status).toBe('completed');
    expect(grace.events.map((e) => e.event)).toEqual(['run_enqueued', 'run_halted']);
    expect(grace.events[1].data).toEqual({ reason: 'workflow_conditions_not_met' });
    // The trigger's data is part of the conditions too.
    const disabled = await triggered('pro-only', { recipients: ['ada'], data: { enabled: false } });
    expect(await messagesOf(t, disabled)).toEqual([]);
    expect(await recipientsOf(disabled)).toEqual(['ada']);
  });
});
