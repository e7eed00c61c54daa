import { eventually } from '../support/runs';
import { startTestApp, TestApp } from '../support/test-app';

/** The value of the one sample of `name` whose labels include every one of `labels`; undefined when there is none. */
function sample(exposition: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of exposition.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => present[k] === v)) return Number(match[3]);
  }
  return undefined;
}

describe('/metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('counts requests by route template, and reports runs, steps and messages once a workflow ran', async () => {
    const knock = t.knock();
    await knock.users.update('metrics-ada', { name: 'Ada' });
    const { workflow_run_id } = await knock.workflows.trigger('welcome', { recipients: ['metrics-ada'], data: { message: 'Counted.' } });
    await eventually(
      async () => (await t.sql(`SELECT 1 FROM rm_messages WHERE workflow_run_id = $1 AND status = 'delivered'`, [workflow_run_id]))[0],
      30_000,
      'the message',
    );
    await eventually(
      async () =>
        (await t.sql(`SELECT 1 FROM rm_workflow_recipient_runs WHERE workflow_run_id = $1 AND status = 'completed'`, [workflow_run_id]))[0],
      30_000,
      'the run',
    );

    const res = await t.http('GET', '/metrics', { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const body = res.body as string;

    // Route templates, never raw ids, as label values.
    expect(
      sample(body, 'notify_http_requests_total', { method: 'PUT', route: '/v1/users/:user_id', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
    expect(body).not.toContain('route="/v1/users/metrics-ada"');
    expect(
      sample(body, 'notify_http_request_duration_seconds_count', {
        method: 'POST',
        route: '/v1/workflows/:key/trigger',
        status_class: '2xx',
      }),
    ).toBeGreaterThanOrEqual(1);

    expect(sample(body, 'notify_runs', { environment: 'development', status: 'completed' })).toBeGreaterThanOrEqual(1);
    expect(
      sample(body, 'notify_messages', { environment: 'development', channel_type: 'in_app_feed', status: 'delivered' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(body, 'notify_step_events', { environment: 'development', step_type: 'in_app_feed', status: 'ok' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(body, 'notify_projection_lag_events', {})).toBeGreaterThanOrEqual(0);
    expect(sample(body, 'notify_process_resident_memory_bytes', {})).toBeGreaterThan(0);
  });

  it('labels requests no route matched as unmatched', async () => {
    expect((await t.http('GET', '/v1/no-such-thing', { key: null })).status).toBe(404);
    const body = (await t.http('GET', '/metrics', { key: null })).body as string;
    expect(sample(body, 'notify_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
  });
});
