import { activeWorkflow, bodyOf, feed, finishedRuns, messagesOf, uniqueKey } from '../../support/engine';
import { startTestApp, type TestApp } from '../../support/test-app';

/**
 * Issue 15, "Template CPU": `{% assign a = (1..5000000) | where: "x", 1 %}` held the event loop
 * for 9-12 s, and three such recipients made 20 unrelated runs wait. Now the engine refuses that
 * input at once, and a template that still keeps the CPU busy within the bounds holds one worker
 * thread until the hard time limit (short here, through its setting) stops it. Either way the
 * runaway run ends with a clear template error and the 20 normal runs all complete.
 */
describe('runaway templates next to normal runs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { TEMPLATE_WORKER_THREADS: '2', TEMPLATE_HARD_TIMEOUT_MS: '300' } });
  });
  afterAll(async () => t?.close());

  it('fails the runaways with a template error and completes the 20 normal runs', async () => {
    const [issue, busy, normal] = [uniqueKey('tpl-issue'), uniqueKey('tpl-busy'), uniqueKey('tpl-normal')];
    await activeWorkflow(t, issue, { steps: [feed('feed', '{% assign a = (1..5000000) | where: "x", 1 %}{{ a | size }}')] });
    // Within every bound (10,000 items per filter, 1,000 loop iterations) but seconds of work:
    // the render time limit (1 s) is later than the hard limit (300 ms), which stops it.
    await activeWorkflow(t, busy, {
      steps: [feed('feed', '{% for n in (1..1000) %}{% assign a = data.items | where_exp: "i", "i.x == 1" %}{% endfor %}done')],
    });
    await activeWorkflow(t, normal, { steps: [feed('feed', 'Hello {{ recipient.id }}')] });
    const knock = t.knock();
    const items = Array.from({ length: 10_000 }, (_, i) => ({ x: i % 3 }));

    const runaways = [
      await knock.workflows.trigger(issue, { recipients: [{ id: 'cpu-issue' }] }),
      ...(await Promise.all(
        ['cpu-1', 'cpu-2', 'cpu-3'].map((id) => knock.workflows.trigger(busy, { recipients: [{ id }], data: { items } })),
      )),
    ];
    const normals = await Promise.all(
      Array.from({ length: 20 }, (_, i) => knock.workflows.trigger(normal, { recipients: [{ id: `calm-${i}` }] })),
    );

    for (const [i, { workflow_run_id }] of normals.entries()) {
      const [run] = await finishedRuns(t, workflow_run_id);
      expect(run.steps.feed).toMatchObject({ status: 'ok' });
      const [message] = await messagesOf(t, workflow_run_id);
      expect(bodyOf(message)).toBe(`Hello calm-${i}`);
    }

    const [issueRun] = await finishedRuns(t, runaways[0].workflow_run_id);
    expect(issueRun.steps.feed).toMatchObject({
      status: 'error',
      reason: 'template_render_error: markdown_body: memory limit exceeded (a range, array or string in the template is too large)',
    });
    for (const { workflow_run_id } of runaways.slice(1)) {
      const [run] = await finishedRuns(t, workflow_run_id);
      expect(run.steps.feed).toMatchObject({
        status: 'error',
        reason:
          'template_render_error: markdown_body: the render was stopped after 300 ms (hard time limit): the template keeps the CPU busy too long',
      });
      expect(await messagesOf(t, workflow_run_id)).toEqual([]);
    }
  });
});
