import KnockMgmt from '@knocklabs/mgmt';
import { workflowStream } from '@notify/domain';
import { configureChannel } from '../../../../test/support/channels';
import { startTestApp, TestApp } from '../../../../test/support/test-app';

const feedStep = (ref = 'feed', over: Record<string, unknown> = {}) => ({
  type: 'channel' as const,
  ref,
  channel_key: 'in-app',
  template: { markdown_body: 'Hi **{{ recipient.name }}**', action_url: '{{ vars.app_url }}' },
  ...over,
});

/** Workflows through the official management client and over raw HTTP. */
describe('workflows (management API)', () => {
  let t: TestApp;
  let mgmt: KnockMgmt;
  const env = { environment: 'development' };
  const countEvents = async () => Number((await t.sql<{ c: string }>('SELECT count(*) AS c FROM es_events'))[0].c);
  const svc = (method: string, path: string, body?: unknown) => t.http(method, path, { key: t.serviceToken, body });

  beforeAll(async () => {
    t = await startTestApp();
    mgmt = t.mgmt();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('serves the first-run example workflow, active, on the bootstrap in-app channel', async () => {
    const welcome = await mgmt.workflows.retrieve('welcome', env);
    expect(welcome).toMatchObject({
      key: 'welcome',
      active: true,
      valid: true,
      environment: 'development',
      steps: [expect.objectContaining({ channel_key: 'in-app', channel_type: 'in_app_feed' })],
    });
    expect(welcome.steps[0]).toMatchObject({ template: { markdown_body: expect.stringContaining('recipient.name') } });
  });

  it('upserts, validates, activates and reads back a workflow with the official client', async () => {
    const { workflow } = await mgmt.workflows.upsert('new-comment', {
      ...env,
      workflow: {
        name: 'New comment',
        description: 'Someone commented',
        categories: ['collaboration'],
        tags: ['team-a'],
        settings: { is_commercial: false, override_preferences: true },
        trigger_frequency: 'every_trigger',
        trigger_data_json_schema: { type: 'object', properties: { comment_id: { type: 'string' } }, required: ['comment_id'] },
        conditions: { all: [{ variable: 'recipient.muted', operator: 'not_equal_to', argument: 'true' }] },
        steps: [feedStep(), { type: 'delay', ref: 'wait', settings: { delay_for: { unit: 'minutes', value: 5 } } }],
      } as never,
    });
    expect(workflow).toMatchObject({
      key: 'new-comment',
      name: 'New comment',
      active: false,
      valid: true,
      environment: 'development',
      sha: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(workflow.created_at).toBeTruthy();

    const validated = await mgmt.workflows.validate('new-comment', {
      ...env,
      workflow: { name: 'New comment v2', steps: [feedStep()] } as never,
    });
    expect(validated.workflow).toMatchObject({ name: 'New comment v2', valid: true });
    expect((await mgmt.workflows.retrieve('new-comment', env)).name).toBe('New comment');

    const activated = await mgmt.workflows.activate('new-comment', { ...env, status: true });
    expect(activated.workflow.active).toBe(true);
    const read = await mgmt.workflows.retrieve('new-comment', env);
    expect(read).toMatchObject({
      active: true,
      valid: true,
      sha: workflow.sha,
      settings: { override_preferences: true, is_commercial: false },
      categories: ['collaboration'],
      tags: ['team-a'],
    });
    expect(read.steps).toEqual([
      expect.objectContaining({ ref: 'feed', channel_type: 'in_app_feed' }),
      expect.objectContaining({ ref: 'wait', type: 'delay' }),
    ]);

    const keys: string[] = [];
    for await (const w of mgmt.workflows.list(env)) keys.push(w.key);
    expect(keys).toEqual(expect.arrayContaining(['new-comment', 'welcome']));

    const deactivated = await t.http('PUT', '/v1/workflows/new-comment/activate?environment=development&status=false', {
      key: t.serviceToken,
      body: {},
    });
    expect(deactivated.body.workflow.active).toBe(false);
  });

  it('keeps the same sha for the same data and records no event for a repeat upsert', async () => {
    const body = { workflow: { name: 'Same', steps: [feedStep()] } };
    const first = await svc('PUT', '/v1/workflows/same-data?environment=development', body);
    const before = await countEvents();
    const again = await svc('PUT', '/v1/workflows/same-data?environment=development', { workflow: { steps: [feedStep()], name: 'Same' } });
    expect(again.body.workflow.sha).toBe(first.body.workflow.sha);
    expect(await countEvents()).toBe(before);
  });

  it('saves a workflow whose references do not resolve with valid: false and its errors, and refuses to activate it', async () => {
    const saved = await svc('PUT', '/v1/workflows/broken-ref?environment=development', {
      workflow: { name: 'Broken', steps: [feedStep('feed', { channel_key: 'no-such-channel' })] },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.workflow).toMatchObject({
      valid: false,
      errors: [{ field: 'steps.0.channel_key', message: expect.stringContaining('no-such-channel'), type: 'reference' }],
    });
    const activate = await svc('PUT', '/v1/workflows/broken-ref/activate?environment=development', { status: true });
    expect(activate.status).toBe(422);
    expect(activate.body).toMatchObject({ code: 'workflow_invalid', errors: [expect.objectContaining({ field: 'steps.0.channel_key' })] });
    const validate = await svc('PUT', '/v1/workflows/broken-ref/validate?environment=development', {
      workflow: { name: 'Broken', steps: [feedStep('feed', { channel_key: 'no-such-channel' })] },
    });
    expect(validate.status).toBe(422);
    expect(validate.body.errors).toEqual([expect.objectContaining({ field: 'workflow.steps.0.channel_key' })]);
  });

  it('saves an email step without template settings invalid, naming settings, and refuses activation with the error shape', async () => {
    const email = await configureChannel(t, { type: 'email', provider: 'postmark', environments: ['development'] });
    const step = { type: 'channel', ref: 'mail', channel_key: email.key, template: { subject: 'Hi', html_body: '<p>Hi</p>' } };
    const saved = await svc('PUT', '/v1/workflows/mail-no-settings?environment=development', { workflow: { name: 'Mail', steps: [step] } });
    expect(saved.status).toBe(200);
    expect(saved.body.workflow).toMatchObject({
      valid: false,
      errors: [
        expect.objectContaining({
          field: 'steps.0.template.settings',
          message: expect.stringContaining('is required'),
          type: 'template_shape',
        }),
      ],
    });
    const activate = await svc('PUT', '/v1/workflows/mail-no-settings/activate?environment=development', { status: true });
    expect(activate.status).toBe(422);
    expect(activate.body).toMatchObject({
      code: 'workflow_invalid',
      message: expect.stringContaining('invalid'),
      status: 422,
      type: 'invalid_request_error',
      errors: [expect.objectContaining({ field: 'steps.0.template.settings' })],
    });
    const byClient = await t
      .mgmt()
      .workflows.activate('mail-no-settings', { ...env, status: true })
      .then(
        () => undefined,
        (e: { status: number; error: unknown }) => e,
      );
    expect(byClient?.status).toBe(422);
    expect(byClient?.error).toMatchObject({
      code: 'workflow_invalid',
      errors: [expect.objectContaining({ field: 'steps.0.template.settings' })],
    });
    const byQuery = await t.http('PUT', '/v1/workflows/mail-no-settings/activate?environment=development&status=true', {
      key: t.serviceToken,
    });
    expect(byQuery.status).toBe(422);
    expect(byQuery.body).toMatchObject({ code: 'workflow_invalid', message: expect.any(String), errors: [expect.any(Object)] });
    const declared = await svc('PUT', '/v1/workflows/mail-declared?environment=development', {
      workflow: { name: 'Mail', steps: [{ ...step, channel_type: 'email' }] },
    });
    expect(declared.status).toBe(422);
    expect(declared.body.errors).toEqual([expect.objectContaining({ field: 'workflow.steps.0.template.settings' })]);
  });

  it('rejects malformed workflows with 422 naming each field, writing nothing', async () => {
    const before = await countEvents();
    const cases: [unknown, string][] = [
      [{ name: 'x'.repeat(256), steps: [] }, 'workflow.name'],
      [{ name: 'W', description: 'd'.repeat(281), steps: [] }, 'workflow.description'],
      [{ name: 'W', steps: [feedStep('a'), feedStep('a')] }, 'workflow.steps.1.ref'],
      [{ name: 'W', steps: [feedStep('a', { channel_group_key: 'g' })] }, 'workflow.steps.0.channel_key'],
      [
        {
          name: 'W',
          steps: [{ type: 'batch', ref: 'b', settings: { batch_window: { unit: 'hours', value: 1 }, batch_items_max_limit: 5000 } }],
        },
        'workflow.steps.0.settings.batch_items_max_limit',
      ],
      [
        { name: 'W', steps: [{ type: 'random_cohort', ref: 'r', cohort_branches: [{ percentage: 30 }, { percentage: 30 }] }] },
        'workflow.steps.0.cohort_branches',
      ],
      [{ name: 'W', steps: [], trigger_data_json_schema: { type: 'not-a-type' } }, 'workflow.trigger_data_json_schema'],
      [{ name: 'W', steps: [], active: true, surprise: 1 }, 'workflow.surprise'],
    ];
    for (const [workflow, field] of cases) {
      const res = await svc('PUT', '/v1/workflows/bad-input?environment=development', { workflow });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'invalid_params', type: 'invalid_request_error' });
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    const badKey = await svc('PUT', '/v1/workflows/No_Caps?environment=development', { workflow: { name: 'W', steps: [] } });
    expect(badKey.status).toBe(422);
    expect(badKey.body.errors).toEqual([expect.objectContaining({ field: 'workflow_key' })]);
    expect(await countEvents()).toBe(before);
    expect((await svc('GET', '/v1/workflows/bad-input?environment=development')).status).toBe(404);
  });

  it('requires a service token and an existing environment', async () => {
    expect((await t.http('GET', '/v1/workflows?environment=development')).status).toBe(403);
    expect((await svc('GET', '/v1/workflows')).body).toMatchObject({
      status: 422,
      errors: [expect.objectContaining({ field: 'environment' })],
    });
    expect((await svc('GET', '/v1/workflows?environment=nowhere')).status).toBe(404);
    // A branch that does not exist (branches: ADR 0156).
    const noBranch = await svc('GET', '/v1/workflows?environment=development&branch=feature');
    expect([noBranch.status, noBranch.body.code]).toEqual([404, 'branch_not_found']);
  });

  it('annotates workflows for the CLI', async () => {
    const res = await svc('GET', '/v1/workflows/welcome?environment=development&annotate=true');
    expect(res.body.__annotation).toEqual({
      extractable_fields: {},
      readonly_fields: expect.arrayContaining(['key', 'active', 'valid', 'environment', 'sha', 'created_at', 'updated_at']),
    });
    expect(res.body.steps[0].template.__annotation).toEqual({
      extractable_fields: { markdown_body: { default: true, file_ext: 'md' } },
      readonly_fields: [],
    });
    expect((await svc('GET', '/v1/workflows/welcome?environment=development')).body.__annotation).toBeUndefined();
  });

  it('keeps the history of a workflow in its stream: every upsert and activation, and who made it', async () => {
    const key = 'audited';
    await svc('PUT', `/v1/workflows/${key}?environment=development`, { workflow: { name: 'v1', steps: [feedStep()] } });
    await svc('PUT', `/v1/workflows/${key}/activate?environment=development`, { status: true });
    await svc('PUT', `/v1/workflows/${key}?environment=development`, { workflow: { name: 'v2', steps: [feedStep()] } });
    await svc('PUT', `/v1/workflows/${key}/activate?environment=development`, { status: false });
    const history = await t.store.readStream(workflowStream('development', key));
    expect(history.map((e) => e.type)).toEqual(['WorkflowUpserted', 'WorkflowActivated', 'WorkflowUpserted', 'WorkflowDeactivated']);
    expect(history.map((e) => (e.data as { content?: { name: string } }).content?.name)).toEqual(['v1', undefined, 'v2', undefined]);
    const [token] = await t.sql<{ token_id: string }>('SELECT token_id FROM rm_service_tokens');
    for (const e of history)
      expect(e.metadata).toMatchObject({ environment: 'development', actor: `service:${token.token_id}`, request_id: expect.any(String) });
  });
});
