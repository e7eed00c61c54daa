import { startTestApp, TestApp } from '../../support/test-app';

async function eventually<T>(probe: () => Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('triggering a workflow', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('runs the example workflow for a recipient and delivers a rendered in-app message', async () => {
    const knock = t.knock();
    await knock.users.update('ada', { name: 'Ada' });
    const { workflow_run_id } = await knock.workflows.trigger('welcome', {
      recipients: ['ada'],
      data: { message: 'Your report is ready.', url: 'https://example.com/r/1' },
    });
    expect(workflow_run_id).toMatch(/^[0-9a-f-]{36}$/);
    const [message] = await eventually(async () => {
      const rows = await t.sql("SELECT * FROM rm_messages WHERE environment = 'development' AND recipient_id = 'ada'");
      return rows.length ? rows : undefined;
    });
    expect(message).toMatchObject({ status: 'delivered', workflow_key: 'welcome', channel_type: 'in_app_feed', workflow_run_id });
    expect(message.content.blocks[0]).toMatchObject({
      type: 'markdown',
      content: 'Hello **Ada**! Your report is ready.',
      rendered: expect.stringContaining('<strong>Ada</strong>'),
    });
    expect(message.content.action_url).toBe('https://example.com/r/1');
    // The run's one step is recorded in its RunCompleted, the message's delivery in its MessageCreated (ADR 0233).
    const runEvents = await t.sql(
      "SELECT event_type, data FROM es_events WHERE stream_id LIKE 'run-development-%' ORDER BY global_position",
    );
    expect(runEvents.map((e: { event_type: string }) => e.event_type)).toEqual(['RunEnqueued', 'RunCompleted']);
    expect(runEvents[1].data).toMatchObject({
      outcome: 'ended',
      step: { status: 'ok', next_path: null, output: { message_id: message.id } },
    });
    const messageEvents = await t.sql('SELECT event_type, data FROM es_events WHERE stream_id = $1', [`message-development-${message.id}`]);
    expect(messageEvents).toEqual([{ event_type: 'MessageCreated', data: expect.objectContaining({ delivered_at: expect.any(String) }) }]);
  });

  it('inline-identifies recipients, actor and tenant, and answers before the runs execute', async () => {
    const knock = t.knock();
    const { workflow_run_id } = await knock.workflows.trigger('welcome', {
      actor: { id: 'boss', name: 'The Boss' },
      recipients: [{ id: 'grace', name: 'Grace', email: 'grace@example.com' }, { id: 'linus' }],
      tenant: { id: 'acme', name: 'Acme' },
      data: {},
    });
    expect((await t.http('GET', '/v1/users/grace')).body).toMatchObject({ name: 'Grace', email: 'grace@example.com' });
    expect((await t.http('GET', '/v1/users/boss')).body).toMatchObject({ name: 'The Boss' });
    expect((await t.http('GET', '/v1/tenants/acme')).body).toMatchObject({ id: 'acme', name: 'Acme' });
    const messages = await eventually(async () => {
      const rows = await t.sql('SELECT recipient_id, tenant, actors FROM rm_messages WHERE workflow_run_id = $1 ORDER BY recipient_id', [
        workflow_run_id,
      ]);
      return rows.length === 2 ? rows : undefined;
    });
    expect(messages.map((m: { recipient_id: string }) => m.recipient_id)).toEqual(['grace', 'linus']);
    expect(messages[0]).toMatchObject({ tenant: 'acme', actors: [{ type: 'user', id: 'boss' }] });
  });

  it('refuses an unknown workflow, an unknown actor and bad input, writing nothing', async () => {
    const count = async () => Number((await t.sql("SELECT count(*) AS c FROM es_events WHERE event_type = 'WorkflowTriggered'"))[0].c);
    const before = await count();
    const missing = await t.http('POST', '/v1/workflows/nope/trigger', { body: { recipients: ['ada'] } });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'workflow_missing' });
    const actor = await t.http('POST', '/v1/workflows/welcome/trigger', { body: { recipients: ['ada'], actor: 'ghost' } });
    expect(actor.body).toMatchObject({ code: 'actor_missing' });
    const tooMany = await t.http('POST', '/v1/workflows/welcome/trigger', {
      body: { recipients: Array.from({ length: 1001 }, (_, i) => `u${i}`) },
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors).toEqual([expect.objectContaining({ field: 'recipients' })]);
    const none = await t.http('POST', '/v1/workflows/welcome/trigger', { body: { recipients: [] } });
    expect(none.status).toBe(422);
    expect(await count()).toBe(before);
  });
});
