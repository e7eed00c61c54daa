import { activeWorkflow, bodyOf, feed, finishedRuns, messagesOf, settled, uniqueKey } from '../../../../test/support/engine';
import { countEvents } from '../../../../test/support/recipients';
import { startTestApp, TestApp } from '../../../../test/support/test-app';

/**
 * Sources over HTTP (ADR 0195). @knocklabs/mgmt has no sources resource, so the management
 * routes are called as the reference describes them, with the service token.
 */
const environment = 'development';

describe('sources: mappings, ingest, rehearse, logs', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  const mgmt = <T = any>(method: string, path: string, body?: unknown) =>
    t.http<T>(method, `${path}${path.includes('?') ? '&' : '?'}environment=${environment}`, { key: t.serviceToken, body });
  const ingest = (url: string, key: string | null, body: unknown) => t.http(`POST`, new URL(url).pathname, { key, body });

  const signupMapping = (workflow: string) => ({
    event_type: 'user.signed_up',
    action_type: 'workflows_trigger',
    action_parameters: {
      workflow,
      recipients: '{{ body.user.id }}',
      data: { plan: '$.body.plan', greeting: 'Welcome {{ body.user.name | upcase }}' },
    },
  });

  async function sourceWith(mappings: unknown[], settings: Record<string, unknown> = { idempotency_key_path: 'body.id' }) {
    const key = uniqueKey('src');
    const saved = await mgmt('PUT', `/v1/sources/${key}`, {
      source: { name: 'App events', environment_settings: { [environment]: { settings, mappings } } },
    });
    expect(saved.status).toBe(200);
    return { key, source: saved.body.source, env: saved.body.source.environment_settings[environment] };
  }

  it('maps an ingested event to a workflow run for the mapped recipient, records it, and reads it back', async () => {
    const workflow = uniqueKey('welcome');
    await activeWorkflow(t, workflow, { steps: [feed('feed', '{{ data.greeting }} on {{ data.plan }}')] });
    const user = uniqueKey('u');
    await t.knock().users.update(user, { name: 'Ada' });
    const { key, source, env } = await sourceWith([signupMapping(workflow)]);
    expect(source).toMatchObject({ key, name: 'App events', custom_image_url: null });
    expect(env.mappings).toEqual([expect.objectContaining({ event_type: 'user.signed_up', active: true, is_deleted: false })]);
    expect(env.settings.endpoint).toBe(`${t.url}/v1/ingest/${environment}/${key}`);
    expect(env.settings.ingest_key).toMatch(/^src_/);

    const event = { event: 'user.signed_up', id: uniqueKey('evt'), plan: 'pro', user: { id: user, name: 'Ada' } };
    const accepted = await ingest(env.settings.endpoint, env.settings.ingest_key, event);
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({ log_id: expect.any(String), status: 'accepted' });

    const logs = await mgmt('GET', `/v1/sources/${key}/logs`);
    expect(logs.status).toBe(200);
    expect(logs.body.entries).toHaveLength(1);
    const [log] = logs.body.entries;
    expect(log).toMatchObject({ id: accepted.body.log_id, event: 'user.signed_up', source: key, data: event });
    expect(log.actions).toEqual([
      expect.objectContaining({
        action_type: 'workflows_trigger',
        action_status: 'ok',
        action_payload: { workflow, recipients: [user], data: { plan: 'pro', greeting: 'Welcome ADA' } },
        action_result: { workflow_run_id: expect.any(String) },
      }),
    ]);
    const workflowRunId = log.actions[0].action_result.workflow_run_id;
    const [run] = await finishedRuns(t, workflowRunId);
    expect(run.recipient).toEqual({ type: 'user', id: user });
    const messages = await messagesOf(t, workflowRunId);
    expect(messages.map((m) => bodyOf(m))).toEqual(['Welcome ADA on pro']);
    const runs = await t.http('GET', `/v1/workflow_recipient_runs?workflow=${workflow}`);
    expect(runs.body.items[0].trigger_source).toMatchObject({ type: 'integration' });

    // The event is in the log as an audited domain event.
    const recorded = await t.sql(`SELECT event_type, metadata FROM es_events WHERE stream_id = $1 ORDER BY stream_revision`, [
      `source_log-${environment}-${accepted.body.log_id}`,
    ]);
    expect(recorded.map((r) => r.event_type)).toEqual(['SourceEventReceived', 'SourceActionsRan']);

    // The same idempotency key again: the same log, nothing run again.
    await settled(t);
    const before = await countEvents(t);
    const again = await ingest(env.settings.endpoint, env.settings.ingest_key, event);
    expect(again.body).toEqual({ log_id: accepted.body.log_id, status: 'duplicate' });
    await settled(t);
    expect(await countEvents(t)).toBe(before);

    const events = await mgmt('GET', `/v1/sources/${key}/events`);
    expect(events.body.entries).toEqual([{ event: 'user.signed_up', last_received_at: log.inserted_at }]);
    const status = await mgmt('GET', `/v1/sources/${key}/status`);
    expect(status.body).toEqual({
      events_count: 1,
      last_event_received: log.inserted_at,
      mappings_count: 1,
      mappings_requiring_commit: [],
    });
    expect((await mgmt('GET', `/v1/sources/${key}/logs?event=other`)).body.entries).toEqual([]);
    expect((await mgmt('GET', `/v1/sources/${key}/logs?id=${log.id}`)).body.entries).toHaveLength(1);
    const listed = await t.http('GET', `/v1/sources?include=environment_settings`, { key: t.serviceToken });
    expect(listed.body.entries).toContainEqual(
      expect.objectContaining({ key, name: 'App events', environment_settings: expect.any(Object) }),
    );
  });

  it("replays a recorded event through the source's current mappings as a new log; erased or unknown logs are refused (ADR 0246)", async () => {
    const workflow = uniqueKey('replayed');
    const user = uniqueKey('u');
    await t.knock().users.update(user, { name: 'Ada' });
    // The mapping names a workflow that does not exist yet: the event is recorded, its trigger fails.
    const { key, env } = await sourceWith([signupMapping(workflow)]);
    const event = { event: 'user.signed_up', id: uniqueKey('evt'), plan: 'team', user: { id: user, name: 'Ada' } };
    const first = await ingest(env.settings.endpoint, env.settings.ingest_key, event);
    expect(first.status).toBe(202);
    const [failed] = (await mgmt('GET', `/v1/sources/${key}/logs?id=${first.body.log_id}`)).body.entries;
    expect(failed.actions[0]).toMatchObject({ action_status: 'error' });

    // Fixed (the workflow made), the event is run again: a new log naming the first, one run, one message.
    await activeWorkflow(t, workflow, { steps: [feed('feed', '{{ data.greeting }} on {{ data.plan }}')] });
    const replayed = await mgmt('POST', `/v1/sources/${key}/logs/${first.body.log_id}/replay`);
    expect(replayed.status).toBe(202);
    expect(replayed.body).toEqual({ log_id: expect.any(String), status: 'accepted', replay_of: first.body.log_id });
    expect(replayed.body.log_id).not.toBe(first.body.log_id);
    const [log] = (await mgmt('GET', `/v1/sources/${key}/logs?id=${replayed.body.log_id}`)).body.entries;
    expect(log).toMatchObject({ event: 'user.signed_up', source: key, data: event });
    expect(log.actions).toEqual([expect.objectContaining({ action_status: 'ok', action_result: { workflow_run_id: expect.any(String) } })]);
    await finishedRuns(t, log.actions[0].action_result.workflow_run_id);
    const messages = await messagesOf(t, log.actions[0].action_result.workflow_run_id);
    expect(messages.map((m) => bodyOf(m))).toEqual(['Welcome ADA on team']);
    const [received] = await t.sql<{ data: { replay_of: string } }>(
      `SELECT data FROM es_events WHERE stream_id = $1 AND event_type = 'SourceEventReceived'`,
      [`source_log-${environment}-${replayed.body.log_id}`],
    );
    expect(received.data.replay_of).toBe(first.body.log_id);
    // The first log is left as it was.
    expect((await mgmt('GET', `/v1/sources/${key}/logs?id=${first.body.log_id}`)).body.entries[0].actions).toEqual(failed.actions);

    const missing = await mgmt('POST', `/v1/sources/${key}/logs/00000000-0000-4000-8000-000000000000/replay`);
    expect(missing.body).toMatchObject({ code: 'resource_missing', status: 404 });
    const other = await sourceWith([]);
    expect((await mgmt('POST', `/v1/sources/${other.key}/logs/${first.body.log_id}/replay`)).status).toBe(404);
    const malformed = await mgmt('POST', `/v1/sources/${key}/logs/not-a-log/replay`);
    expect([malformed.status, malformed.body.code]).toEqual([422, 'invalid_params']);
    expect(malformed.body.errors.map((e: { field: string }) => e.field)).toEqual(['log_id']);

    // Another user's event through the same source, which the erasure below must leave alone.
    const bystander = uniqueKey('u');
    const kept = await ingest(env.settings.endpoint, env.settings.ingest_key, { ...event, id: uniqueKey('evt'), user: { id: bystander } });
    expect(kept.status).toBe(202);

    // Once the user is deleted, their event's payload is erased and cannot be replayed.
    expect((await t.http('DELETE', `/v1/users/${user}`, { key: t.env.secretKey })).status).toBe(204);
    await settled(t);
    const before = await countEvents(t);
    const erased = await mgmt('POST', `/v1/sources/${key}/logs/${first.body.log_id}/replay`);
    expect(erased.body).toMatchObject({ code: 'source_event_erased', status: 409, type: expect.any(String) });
    await settled(t);
    expect(await countEvents(t)).toBe(before);

    // Their logs (the event and its replay) leave the read model, the bystander's stays; a rebuild
    // does not bring them back (ADR 0194).
    const logIds = async () => (await mgmt('GET', `/v1/sources/${key}/logs`)).body.entries.map((e: { id: string }) => e.id);
    expect(await logIds()).toEqual([kept.body.log_id]);
    const rows = async () =>
      (await t.sql<{ n: number }>(`SELECT count(*)::int AS n FROM rm_source_logs WHERE payload::text LIKE $1`, [`%${user}%`]))[0].n;
    expect(await rows()).toBe(0);
    await t.runtime.rebuild('sources');
    expect(await logIds()).toEqual([kept.body.log_id]);
    expect(await rows()).toBe(0);
  });

  it('refuses a wrong or missing ingest key with 401 and writes nothing', async () => {
    const { env } = await sourceWith([signupMapping('anything')]);
    await settled(t);
    const before = await countEvents(t);
    const wrong = await ingest(env.settings.endpoint, 'src_not-the-key', { event: 'user.signed_up', user: { id: 'x' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ code: 'source_key_invalid', status: 401, type: expect.any(String), message: expect.any(String) });
    expect((await ingest(env.settings.endpoint, null, { event: 'user.signed_up' })).status).toBe(401);
    // A key of another source does not open this one.
    const other = await sourceWith([]);
    expect((await ingest(env.settings.endpoint, other.env.settings.ingest_key, { event: 'user.signed_up' })).status).toBe(401);
    await settled(t);
    expect(await countEvents(t)).toBe(before + 1); // the other source's SourceUpserted only
  });

  it('refuses malformed mappings with 422 invalid_params naming the fields, and writes nothing', async () => {
    const key = uniqueKey('bad');
    const put = (mappings: unknown[]) =>
      mgmt('PUT', `/v1/sources/${key}`, { source: { name: 'Bad', environment_settings: { [environment]: { mappings } } } });
    const missing = await put([{ event_type: 'e', action_type: 'workflows_trigger', action_parameters: { data: {} } }]);
    expect(missing.status).toBe(422);
    expect(missing.body.code).toBe('invalid_params');
    expect(missing.body.errors.map((e: any) => e.field).sort()).toEqual([
      `source.environment_settings.${environment}.mappings.0.action_parameters.recipients`,
      `source.environment_settings.${environment}.mappings.0.action_parameters.workflow`,
    ]);
    const liquid = await put([
      { event_type: 'e', action_type: 'workflows_trigger', action_parameters: { workflow: 'w', recipients: '{{ body.id', data: {} } },
      {
        event_type: 'e',
        action_type: 'workflows_trigger',
        action_parameters: { workflow: 'w', recipients: ['u'], data: { a: '{% nope %}' } },
      },
    ]);
    expect(liquid.status).toBe(422);
    expect(liquid.body.errors.map((e: any) => e.field)).toEqual([
      `source.environment_settings.${environment}.mappings.0.action_parameters`,
      `source.environment_settings.${environment}.mappings.1.action_parameters`,
    ]);
    const unknownType = await put([{ event_type: 'e', action_type: 'sing_a_song' }]);
    expect(unknownType.status).toBe(422);
    const otherEnv = await mgmt('PUT', `/v1/sources/${key}`, {
      source: { name: 'Bad', environment_settings: { production: { mappings: [] } } },
    });
    expect(otherEnv.status).toBe(422);
    expect(otherEnv.body.errors[0].field).toBe('source.environment_settings.production');
    expect((await mgmt('GET', `/v1/sources/${key}`)).status).toBe(404);
  });

  it('rehearses a payload through the mappings without writing anything', async () => {
    const workflow = uniqueKey('rehearsed');
    await activeWorkflow(t, workflow, { steps: [feed('feed', 'Hi')] });
    const { key } = await sourceWith([signupMapping(workflow), signupMapping('no-such-workflow')]);
    await settled(t);
    const before = await countEvents(t);
    const rehearsal = await mgmt('POST', `/v1/sources/${key}/rehearse`, {
      payload: { body: { event: 'user.signed_up', plan: 'free', user: { id: 'u-1', name: 'Bo' } }, headers: {} },
    });
    expect(rehearsal.status).toBe(200);
    expect(rehearsal.body).toMatchObject({
      log_id: null,
      status: 'error',
      action_logs_count: 2,
      successful_action_logs_count: 1,
      failed_action_logs_count: 1,
      errors: [{ field: 'mappings.1.workflow', message: expect.stringContaining('no-such-workflow') }],
    });
    expect(rehearsal.body.actions[0].action_payload).toEqual({
      workflow,
      recipients: ['u-1'],
      data: { plan: 'free', greeting: 'Welcome BO' },
    });
    const none = await mgmt('POST', `/v1/sources/${key}/rehearse`, { payload: { body: { nothing: true } } });
    expect(none.body).toMatchObject({ status: 'error', action_logs_count: 0, errors: [{ field: 'body.event' }] });
    await settled(t);
    expect(await countEvents(t)).toBe(before);
  });

  it('offers the HTTP source provider', async () => {
    const list = await t.http('GET', '/v1/source_providers', { key: t.serviceToken });
    expect(list.body.entries).toEqual([{ key: 'http', version: '1', provider: { name: 'HTTP', description: expect.any(String) } }]);
    const one = await t.http('GET', '/v1/source_providers/http', { key: t.serviceToken });
    expect(one.body).toMatchObject({ key: 'http', default_settings: { event_type_path: 'body.event' } });
    expect((await t.http('GET', '/v1/source_providers/stripe', { key: t.serviceToken })).status).toBe(404);
  });
});
