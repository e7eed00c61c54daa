import { activeWorkflow } from '../../../../../test/support/engine';
import { eventually } from '../../../../../test/support/runs';
import { startTestApp, TestApp } from '../../../../../test/support/test-app';

/** `/v1/notify` and `/v1/notify/cancel`: the workflow key in the body, the same trigger and cancel behind them. */
describe('POST /v1/notify and /v1/notify/cancel', () => {
  let t: TestApp;
  const pub = (method: string, path: string, body?: unknown) => t.http(method, path, { key: t.env.secretKey, body });
  const runsOf = (workflowRunId: string) =>
    t.sql<{ id: string; status: string }>('SELECT id, status FROM rm_workflow_recipient_runs WHERE workflow_run_id = $1', [workflowRunId]);

  beforeAll(async () => {
    t = await startTestApp();
    await activeWorkflow(t, 'notify-later', {
      steps: [
        { type: 'delay', ref: 'wait', settings: { delay_for: { unit: 'hours', value: 1 } } },
        { type: 'channel', ref: 'feed', channel_key: 'in-app', template: { markdown_body: 'Hi {{ data.n }}' } },
      ],
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('triggers the workflow named in the body and answers result_id, the workflow run id; cancel stops its runs', async () => {
    const res = await pub('POST', '/v1/notify', {
      name: 'notify-later',
      actor: { id: 'notify-actor', name: 'Actor' },
      recipients: ['notify-ada', { id: 'notify-bob', name: 'Bob' }],
      data: { n: 1 },
      cancellation_key: 'notify-ck',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const runs = await eventually(
      async () => {
        const rows = await runsOf(res.body.result_id);
        return rows.length === 2 && rows.every((r) => r.status === 'paused') ? rows : undefined;
      },
      20_000,
      'both runs paused at the delay',
    );
    expect(runs).toHaveLength(2);

    const cancel = await pub('POST', '/v1/notify/cancel', {
      name: 'notify-later',
      cancellation_key: 'notify-ck',
      recipients: ['notify-ada'],
    });
    expect(cancel.status).toBe(204);
    const after = await eventually(
      async () => {
        const rows = await runsOf(res.body.result_id);
        return rows.some((r) => r.status === 'cancelled') ? rows : undefined;
      },
      20_000,
      'a cancelled run',
    );
    expect(after.map((r) => r.status).sort()).toEqual(['cancelled', 'paused']);
  });

  it('refuses a body without name, and an unknown workflow, as the trigger route does', async () => {
    const noName = await pub('POST', '/v1/notify', { recipients: ['notify-ada'] });
    expect(noName.status).toBe(422);
    expect(noName.body.errors.map((e: { field: string }) => e.field)).toContain('name');
    const unknown = await pub('POST', '/v1/notify', { name: 'no-such-workflow', recipients: ['notify-ada'] });
    expect(unknown.status).toBe((await pub('POST', '/v1/workflows/no-such-workflow/trigger', { recipients: ['notify-ada'] })).status);
  });
});
