import { activeWorkflow, feedStep } from '../../support/runs';
import { startTestApp, TestApp } from '../../support/test-app';

/** Idempotency-Key on the trigger and cancel endpoints (one interceptor, driven by the route contracts). */
describe('Idempotency-Key', () => {
  let t: TestApp;
  const triggers = async (runId?: string) =>
    Number(
      (
        await t.sql(
          "SELECT count(*)::int AS c FROM es_events WHERE event_type = 'WorkflowTriggered'" +
            (runId ? " AND data->>'workflow_run_id' = $1" : ''),
          runId ? [runId] : [],
        )
      )[0].c,
    );
  const idempotencyEvents = async () =>
    Number((await t.sql("SELECT count(*)::int AS c FROM es_events WHERE stream_id LIKE 'idempotency-%'"))[0].c);
  const trigger = (key: string | undefined, body: unknown, workflow = 'idem') =>
    t.http('POST', `/v1/workflows/${workflow}/trigger`, { body, headers: key === undefined ? {} : { 'idempotency-key': key } });

  beforeAll(async () => {
    t = await startTestApp();
    await activeWorkflow(t, 'idem', { steps: [feedStep('feed')] });
  });
  afterAll(async () => t?.close());

  it('answers a repeat with the original response, marked as replayed, and triggers once', async () => {
    const body = { recipients: ['ada'], data: { n: 1, nested: { a: 1, b: 2 } } };
    const first = await trigger('repeat-1', body);
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // The same parameters in another key order are the same request.
    const again = await trigger('repeat-1', { data: { nested: { b: 2, a: 1 }, n: 1 }, recipients: ['ada'] });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('original-x-request-id')).toBe(first.headers.get('x-request-id'));
    expect(again.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(await triggers(first.body.workflow_run_id)).toBe(1);
  });

  it('works with the official client’s idempotencyKey option', async () => {
    const knock = t.knock();
    const a = await knock.workflows.trigger('idem', { recipients: ['grace'] }, { idempotencyKey: 'sdk-1' });
    const b = await knock.workflows.trigger('idem', { recipients: ['grace'] }, { idempotencyKey: 'sdk-1' });
    expect(b.workflow_run_id).toBe(a.workflow_run_id);
    // Without an explicit key the client sends a new one per call: two triggers.
    const c = await knock.workflows.trigger('idem', { recipients: ['grace'] });
    expect(c.workflow_run_id).not.toBe(a.workflow_run_id);
  });

  it('refuses a repeat with other parameters (422 idempotency_key_reused), writing nothing', async () => {
    await trigger('reuse-1', { recipients: ['ada'] });
    const before = await triggers();
    const other = await trigger('reuse-1', { recipients: ['grace'] });
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ code: 'idempotency_key_reused', status: 422, type: 'invalid_request_error' });
    expect(await triggers()).toBe(before);
    // ... and the same key on another endpoint is another request too.
    const cancel = await t.http('POST', '/v1/workflows/idem/cancel', {
      body: { cancellation_key: 'x' },
      headers: { 'idempotency-key': 'reuse-1' },
    });
    expect(cancel.body).toMatchObject({ code: 'idempotency_key_reused' });
  });

  it('accepts keys of up to 255 characters and refuses longer ones with 422', async () => {
    expect((await trigger('k'.repeat(255), { recipients: ['ada'] })).status).toBe(200);
    const before = await idempotencyEvents();
    const long = await trigger('k'.repeat(256), { recipients: ['ada'] });
    expect(long.status).toBe(422);
    expect(long.body).toMatchObject({ code: 'invalid_params', errors: [expect.objectContaining({ field: 'Idempotency-Key' })] });
    expect(await idempotencyEvents()).toBe(before);
  });

  it('stores only 2xx responses: a failed request can be retried with the same key', async () => {
    const missing = await trigger('late-1', { recipients: ['ada'] }, 'idem-late');
    expect(missing.status).toBe(404);
    await activeWorkflow(t, 'idem-late', { steps: [feedStep('feed')] });
    const retried = await trigger('late-1', { recipients: ['ada'] }, 'idem-late');
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(await triggers(retried.body.workflow_run_id)).toBe(1);
  });

  it('records nothing for input the contract refuses', async () => {
    const before = await idempotencyEvents();
    const bad = await trigger('bad-1', { recipients: [] });
    expect(bad.status).toBe(422);
    expect(await idempotencyEvents()).toBe(before);
    expect((await trigger('bad-1', { recipients: ['ada'] })).status).toBe(200);
  });

  it('executes concurrent requests with one key once; the others wait and replay its response', async () => {
    const before = await triggers();
    const answers = await Promise.all(Array.from({ length: 6 }, () => trigger('race-1', { recipients: ['ada', 'grace', 'linus'] })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.body.workflow_run_id)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(5);
    expect(await triggers()).toBe(before + 1);
  });

  it('makes cancel idempotent too: a replay answers 204 and records one request', async () => {
    const cancel = () =>
      t.http('POST', '/v1/workflows/idem/cancel', { body: { cancellation_key: 'c-1' }, headers: { 'idempotency-key': 'cancel-1' } });
    const first = await cancel();
    const second = await cancel();
    expect([first.status, second.status]).toEqual([204, 204]);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect((await t.sql("SELECT count(*)::int AS c FROM es_events WHERE stream_id = 'cancellation-development-idem-c-1'"))[0].c).toBe(1);
  });

  it('keeps keys apart per environment', async () => {
    const other = await t.newEnvironment();
    const first = await trigger('env-1', { recipients: ['ada'] });
    const elsewhere = await t.http('POST', '/v1/workflows/idem/trigger', {
      key: other.secretKey,
      body: { recipients: ['ada'] },
      headers: { 'idempotency-key': 'env-1' },
    });
    // No workflow `idem` in the new environment: the request ran there (404), it was not a replay.
    expect(elsewhere.status).toBe(404);
    expect(first.status).toBe(200);
  });
});
