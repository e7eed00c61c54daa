import Knock from '@knocklabs/node';
import { configureChannel } from '../../../../test/support/channels';
import { activeWorkflow, eventually, feedStep } from '../../../../test/support/runs';
import { rebuildAndCompare } from '../../../../test/support/rebuild';
import { startTestApp, TestApp } from '../../../../test/support/test-app';

/** GET /v1/workflow_recipient_runs and /{id}: the runs read model through the official client. */
describe('workflow recipient runs', () => {
  let t: TestApp;
  let knock: Knock;
  let workflowRunId: string;
  let startedAt: string;

  beforeAll(async () => {
    t = await startTestApp();
    knock = t.knock();
    // A channel configured when the workflow was saved and removed from `development` since: its step fails there.
    const elsewhere = await configureChannel(t, { type: 'sms', provider: 'twilio', environments: ['development'] });
    await activeWorkflow(t, 'runs-history', {
      steps: [
        feedStep('feed_1'),
        feedStep('feed_never', { conditions: { all: [{ variable: 'data.never', operator: 'equal_to', argument: 'yes' }] } }),
        { type: 'channel', ref: 'sms_1', channel_key: elsewhere.key, template: { text_body: 'Hi' } },
      ],
    });
    await configureChannel(t, { key: elsewhere.key, type: 'sms', provider: 'twilio', environments: ['production'] });
    await activeWorkflow(t, 'runs-other', { steps: [feedStep('feed_1')] });
    await knock.users.update('boss', { name: 'Boss' });
    startedAt = new Date(Date.now() - 1000).toISOString();
    ({ workflow_run_id: workflowRunId } = await knock.workflows.trigger('runs-history', {
      recipients: [
        { id: 'ada', name: 'Ada' },
        { id: 'p1', collection: 'projects', name: 'Project 1' },
      ],
      actor: 'boss',
      tenant: 'acme',
      cancellation_key: 'ck-history',
    }));
    await knock.workflows.trigger('runs-other', { recipients: ['ada', { id: 'grace' }] });
    await eventually(async () => {
      const rows = await t.sql("SELECT count(*)::int AS c FROM rm_workflow_recipient_runs WHERE status = 'completed'");
      return rows[0].c === 4;
    });
  });
  afterAll(async () => t?.close());

  it('lists runs with the reference shape and shows one with every step outcome in its history', async () => {
    const page = await knock.workflowRecipientRuns.list({ workflow: 'runs-history' });
    expect(page.items).toHaveLength(2);
    const ada = page.items.find((r) => r.recipient === 'ada')!;
    expect(ada).toMatchObject({
      __typename: 'WorkflowRecipientRun',
      workflow: 'runs-history',
      workflow_run_id: workflowRunId,
      actor: 'boss',
      tenant: 'acme',
      status: 'completed',
      error_count: 1,
      trigger_source: { type: 'api', cancellation_key: 'ck-history' },
    });
    expect(page.items.find((r) => r.recipient !== 'ada')?.recipient).toEqual({ id: 'p1', collection: 'projects' });

    const detail = await knock.workflowRecipientRuns.get(ada.id);
    const [message] = await t.sql("SELECT id FROM rm_messages WHERE run_id = $1 AND step_ref = 'feed_1'", [ada.id]);
    expect(detail.events.map((e) => [e.event, e.status, e.step_ref])).toEqual([
      ['run_enqueued', 'ok', null],
      ['message_enqueued', 'ok', 'feed_1'],
      ['step_skipped', 'ok', 'feed_never'],
      ['step_failed', 'error', 'sms_1'],
      ['run_completed', 'ok', null],
    ]);
    expect(detail.events[1]).toMatchObject({
      __typename: 'WorkflowRecipientRunEvent',
      step_type: 'in_app_feed',
      attempt: 1,
      data: { channel_type: 'in_app_feed', message_id: message.id },
    });
    expect(detail.events[2].data).toMatchObject({ reason: 'step_conditions_not_met' });
    expect(detail.events[3].data).toMatchObject({ reason: expect.stringContaining('channel_not_configured') });
    expect(Date.parse(detail.updated_at)).toBeGreaterThanOrEqual(Date.parse(detail.inserted_at));
  });

  it('filters by status, recipient (user or object), tenant, workflow run, errors and time', async () => {
    const ids = async (query: Record<string, unknown>) =>
      (await knock.workflowRecipientRuns.list(query as never)).items.map((r) => r.recipient).sort();
    expect(await ids({ recipient: 'ada' })).toEqual(['ada', 'ada']);
    expect(await ids({ recipient: { id: 'p1', collection: 'projects' } })).toEqual([{ id: 'p1', collection: 'projects' }]);
    expect(await ids({ tenant: 'acme', workflow: 'runs-history', recipient: 'ada' })).toEqual(['ada']);
    expect(await ids({ has_errors: true })).toHaveLength(2);
    expect(await ids({ has_errors: false })).toEqual(['ada', 'grace']);
    expect(await ids({ status: ['completed'] })).toHaveLength(4);
    expect(await ids({ status: ['queued', 'paused'] })).toEqual([]);
    expect(await ids({ starting_at: startedAt })).toHaveLength(4);
    expect(await ids({ ending_at: startedAt })).toEqual([]);
    const raw = await t.http(
      'GET',
      `/v1/workflow_recipient_runs?workflow_run_id=${workflowRunId}&inserted_at.gte=${encodeURIComponent(startedAt)}`,
    );
    expect(raw.body.items).toHaveLength(2);
    const later = await t.http(
      'GET',
      `/v1/workflow_recipient_runs?inserted_at[gt]=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
    );
    expect(later.body.items).toEqual([]);
  });

  it('pages with after and before cursors, newest first', async () => {
    const first = await t.http('GET', '/v1/workflow_recipient_runs?page_size=3');
    expect(first.body.items).toHaveLength(3);
    expect(first.body.page_info).toMatchObject({ __typename: 'PageInfo', page_size: 3, before: null, after: expect.any(String) });
    const second = await t.http('GET', `/v1/workflow_recipient_runs?page_size=3&after=${first.body.page_info.after}`);
    expect(second.body.items).toHaveLength(1);
    expect(second.body.page_info.after).toBeNull();
    const back = await t.http('GET', `/v1/workflow_recipient_runs?page_size=3&before=${second.body.page_info.before}`);
    expect(back.body.items.map((r: { id: string }) => r.id)).toEqual(first.body.items.map((r: { id: string }) => r.id));
    const times = first.body.items.map((r: { inserted_at: string }) => Date.parse(r.inserted_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const all: string[] = [];
    for await (const run of knock.workflowRecipientRuns.list({ page_size: 1 } as never)) all.push(run.id);
    expect(new Set(all).size).toBe(4);
  });

  it('answers 404 for an unknown run or one of another environment, and 422 for bad filters', async () => {
    const [run] = (await knock.workflowRecipientRuns.list()).items;
    expect((await t.http('GET', '/v1/workflow_recipient_runs/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await t.http('GET', '/v1/workflow_recipient_runs/not-a-run')).body).toMatchObject({ code: 'resource_missing', status: 404 });
    const other = await t.newEnvironment();
    expect((await t.http('GET', `/v1/workflow_recipient_runs/${run.id}`, { key: other.secretKey })).status).toBe(404);
    expect((await t.http('GET', '/v1/workflow_recipient_runs', { key: other.secretKey })).body.items).toEqual([]);
    const bad = await t.http('GET', '/v1/workflow_recipient_runs?status=finished&starting_at=yesterday');
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['starting_at', 'status.0']);
  });

  it('rebuilds to exactly what the live projection wrote', async () => {
    const { live, rebuilt } = await rebuildAndCompare(t, ['workflow-runs']);
    expect(live.rm_workflow_recipient_run_events.length).toBeGreaterThan(10);
    expect(rebuilt).toEqual(live);
  });
});
