import KnockMgmt from '@knocklabs/mgmt';
import { workflowRunStream } from '@notify/domain';
import { activeWorkflow, eventually, feedStep } from '../../../../test/support/runs';
import { startTestApp, TestApp } from '../../../../test/support/test-app';

/** PUT /v1/workflows/{key}/run: test runs through @knocklabs/mgmt, executed by the engine like triggers. */
describe('test runs (management API)', () => {
  let t: TestApp;
  let mgmt: KnockMgmt;

  beforeAll(async () => {
    t = await startTestApp();
    mgmt = t.mgmt();
    await activeWorkflow(t, 'rehearse', {
      trigger_data_json_schema: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] },
      steps: [feedStep('feed', { template: { markdown_body: 'About {{ data.topic }} for {{ recipient.name }}' } })],
    });
  });
  afterAll(async () => t?.close());

  it('runs the workflow for inline and referenced recipients, recorded as a test run', async () => {
    await t.knock().users.update('grace', { name: 'Grace' });
    const { workflow_run_id } = await mgmt.workflows.run('rehearse', {
      environment: 'development',
      // The spec takes inline users; the client's types list only references.
      recipients: [{ id: 'ada', name: 'Ada', email: 'ada@example.com' } as never, 'grace'],
      data: { topic: 'tests' },
      tenant: 'acme',
    });
    expect(workflow_run_id).toMatch(/^[0-9a-f-]{36}$/);
    const messages = await eventually(async () => {
      const rows = await t.sql('SELECT recipient_id, content, tenant FROM rm_messages WHERE workflow_run_id = $1 ORDER BY recipient_id', [
        workflow_run_id,
      ]);
      return rows.length === 2 ? rows : undefined;
    });
    expect(messages.map((m: { recipient_id: string }) => m.recipient_id)).toEqual(['ada', 'grace']);
    expect(messages[0].content.blocks[0].content).toBe('About tests for Ada');
    expect(messages[0].tenant).toBe('acme');
    expect((await t.http('GET', '/v1/users/ada')).body).toMatchObject({ name: 'Ada', email: 'ada@example.com' });

    const [triggered] = await t.store.readStream(workflowRunStream('development', workflow_run_id));
    expect(triggered.data).toMatchObject({ trigger_source: { type: 'test' } });
    const runs = await eventually(async () => {
      const page = await t.knock().workflowRecipientRuns.list({ workflow: 'rehearse' });
      return page.items.length === 2 ? page.items : undefined;
    });
    expect(runs.map((r) => r.trigger_source.type)).toEqual(['rehearsal', 'rehearsal']);
  });

  it('test-runs a valid workflow that is not active (a trigger through the API is refused)', async () => {
    await activeWorkflow(t, 'draft', { steps: [feedStep('feed')] });
    await mgmt.workflows.activate('draft', { environment: 'development', status: false });
    const refused = await t.http('POST', '/v1/workflows/draft/trigger', { body: { recipients: ['ada'] } });
    expect(refused.body).toMatchObject({ code: 'workflow_inactive' });
    const { workflow_run_id } = await mgmt.workflows.run('draft', { environment: 'development', recipients: ['ada'] });
    await eventually(async () => (await t.sql('SELECT id FROM rm_messages WHERE workflow_run_id = $1', [workflow_run_id])).length === 1);
  });

  it('answers workflow_archived for a workflow archived in the branch only, and runs it where it is still served', async () => {
    const svc = (method: string, path: string, body?: unknown) => t.http(method, path, { key: t.serviceToken, body });
    const saved = await svc('PUT', '/v1/workflows/shelved?environment=development&commit=true', {
      workflow: { name: 'Shelved', steps: [feedStep('feed')] },
    });
    expect(saved.body.workflow).toMatchObject({ valid: true });
    expect((await svc('POST', '/v1/branches/shelve-it?environment=development')).status).toBe(201);
    expect((await svc('DELETE', '/v1/workflows/shelved?environment=development&branch=shelve-it')).status).toBe(200);

    const inBranch = await svc('PUT', '/v1/workflows/shelved/run?environment=development&branch=shelve-it', { recipients: ['ada'] });
    expect(inBranch.status).toBe(404);
    expect(inBranch.body).toMatchObject({ code: 'workflow_archived', status: 404, type: expect.any(String), message: expect.any(String) });
    const inEnvironment = await svc('PUT', '/v1/workflows/shelved/run?environment=development', { recipients: ['ada'] });
    expect([inEnvironment.status, inEnvironment.body.workflow_run_id]).toEqual([200, expect.any(String)]);

    // Archived in the environment too: the same answer there.
    expect((await svc('DELETE', '/v1/workflows/shelved?environment=development')).status).toBe(200);
    expect((await svc('PUT', '/v1/workflows/shelved/run?environment=development', { recipients: ['ada'] })).body).toMatchObject({
      code: 'workflow_archived',
      status: 404,
    });
  });

  it('refuses unknown workflows, bad data, missing environments and API keys, writing nothing', async () => {
    const count = async () => Number((await t.sql("SELECT count(*) AS c FROM es_events WHERE event_type = 'WorkflowTriggered'"))[0].c);
    // Saved with valid: false (its channel does not exist): a test run needs a valid workflow.
    await mgmt.workflows.upsert('broken', {
      environment: 'development',
      workflow: { name: 'broken', steps: [feedStep('feed', { channel_key: 'no-such-channel' })] } as never,
    });
    const before = await count();
    expect(
      (await t.http('PUT', '/v1/workflows/broken/run?environment=development', { key: t.serviceToken, body: { recipients: ['ada'] } }))
        .body,
    ).toMatchObject({ code: 'workflow_inactive' });
    const run = (path: string, body: unknown, key: string | null = t.serviceToken) => t.http('PUT', path, { key, body });
    expect((await run('/v1/workflows/nope/run?environment=development', { recipients: ['ada'] })).body).toMatchObject({
      code: 'workflow_missing',
      status: 404,
    });
    const bad = await run('/v1/workflows/rehearse/run?environment=development', { recipients: ['ada'], data: { topic: 7 } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([expect.objectContaining({ field: 'data.topic' })]);
    expect((await run('/v1/workflows/rehearse/run', { recipients: ['ada'], data: { topic: 'x' } })).body.errors).toEqual([
      expect.objectContaining({ field: 'environment' }),
    ]);
    expect((await run('/v1/workflows/rehearse/run?environment=development', { recipients: [] })).status).toBe(422);
    expect(
      (await run('/v1/workflows/rehearse/run?environment=development', { recipients: ['ada'], data: { topic: 'x' } }, t.env.secretKey))
        .status,
    ).toBe(403);
    await expect(mgmt.workflows.run('rehearse', { environment: 'nowhere', recipients: ['ada'] })).rejects.toMatchObject({ status: 404 });
    expect(await count()).toBe(before);
  });
});
