import { startHttpPeer } from '@notify/testing/peers';
import { slackPosted } from '@notify/testing/provider-peers';
import { createHash } from 'node:crypto';
import { capturedCli, cliCommand } from '../../../../test/support/cli';
import { activeWorkflow, eventually, feed, finishedRuns, pausedRuns, uniqueKey } from '../../../../test/support/engine';
import { messageOf, messageWithStatus, putChannel } from '../../../../test/support/delivery';
import { startTestApp, TestApp } from '../../../../test/support/test-app';

/** The event log for auditors over the management API (ADR 0175), and `notify events` against it. */
describe('event log (management API and CLI)', () => {
  let t: TestApp;
  const workflow = uniqueKey('audit');
  const user = uniqueKey('audited');
  let workflowRunId: string;

  const get = (path: string, key?: string) => t.http('GET', path, { key: key ?? t.serviceToken });

  const cli = (signal?: AbortSignal) => capturedCli({ NOTIFY_URL: t.url, NOTIFY_SERVICE_TOKEN: t.serviceToken }, signal);

  beforeAll(async () => {
    t = await startTestApp();
    await activeWorkflow(t, workflow, { steps: [feed('feed')] });
    expect((await t.http('PUT', `/v1/users/${user}`, { body: { name: 'Ada', email: 'ada@example.com' } })).status).toBe(200);
    const triggered = await t.http('POST', `/v1/workflows/${workflow}/trigger`, { body: { recipients: [user], data: { n: 1 } } });
    workflowRunId = triggered.body.workflow_run_id;
    await finishedRuns(t, workflowRunId);
  });
  afterAll(async () => t?.close());

  it('reads one stream forwards and backwards, a page at a time, with correlation ids and metadata', async () => {
    await t.http('PUT', `/v1/users/${user}`, { body: { name: 'Ada L.' } });
    const stream = `user-development-${user}`;
    const first = await get(`/v1/events/streams/${stream}?limit=1`);
    expect(first.status).toBe(200);
    expect(first.body.entries).toEqual([
      expect.objectContaining({
        type: 'UserIdentified',
        stream,
        revision: 0,
        global_position: expect.stringMatching(/^\d+$/),
        position: expect.stringMatching(/^[0-9a-f]{32}$/),
        environment: 'development',
        correlation_id: expect.any(String),
        schema_version: expect.any(Number),
        metadata: expect.objectContaining({ environment: 'development' }),
        data: expect.objectContaining({ user_id: user, properties: expect.objectContaining({ name: 'Ada' }) }),
      }),
    ]);
    const second = await get(`/v1/events/streams/${stream}?limit=1&after=${first.body.page_info.after}`);
    expect(second.body.entries[0].revision).toBe(1);
    const backwards = await get(`/v1/events/streams/${stream}?direction=backwards&limit=5`);
    expect(backwards.body.entries.map((e: { revision: number }) => e.revision)).toEqual([1, 0]);
    expect(backwards.body.page_info.after).toBeNull();
    expect((await get(`/v1/events/streams/user-development-nobody-${user}`)).body).toEqual({
      entries: [],
      page_info: { after: null, page_size: 100 },
    });
  });

  it('reads $all filtered by type, stream prefix and environment, and goes on from the cursor', async () => {
    const page = await get(
      `/v1/events?types=RunEnqueued&types=RunCompleted&stream_prefix=run-development-&environment=development&limit=500`,
    );
    expect(page.status).toBe(200);
    const mine = page.body.entries.filter((e: { data: { workflow_run_id?: string } }) => e.data.workflow_run_id === workflowRunId);
    expect(mine.map((e: { type: string }) => e.type)).toEqual(['RunEnqueued']);
    expect(
      page.body.entries.every(
        (e: { type: string; stream: string }) =>
          ['RunEnqueued', 'RunCompleted'].includes(e.type) && e.stream.startsWith('run-development-'),
      ),
    ).toBe(true);
    const positions = page.body.entries.map((e: { position: string }) => e.position);
    expect([...positions].sort()).toEqual(positions);
    const rest = await get(`/v1/events?after=${page.body.page_info.after}&types=RunEnqueued&stream_prefix=run-development-`);
    expect(rest.body.entries.every((e: { position: string }) => e.position > positions[positions.length - 1])).toBe(true);
    // An event's position works as `after` too.
    const after = await get(`/v1/events?after=${positions[0]}&limit=1`);
    expect(after.body.entries[0].position > positions[0]).toBe(true);
    expect((await get('/v1/events?environment=production&types=UserIdentified')).body.entries).toEqual([]);
    // By time: the read starts where the range begins in commit order (ADR 0241), the first page holds its first event.
    const all = (await get('/v1/events?limit=500')).body.entries as { position: string; recorded_at: string }[];
    const pick = all[Math.floor(all.length / 2)];
    const since = await get(`/v1/events?since=${pick.recorded_at}&limit=1`);
    const first = all.find((e) => e.recorded_at >= pick.recorded_at)!;
    expect(since.body.entries.map((e: { position: string }) => e.position)).toEqual([first.position]);
    const until = await get(`/v1/events?since=${pick.recorded_at}&until=${pick.recorded_at}&limit=500`);
    expect(until.body.entries.every((e: { recorded_at: string }) => e.recorded_at === pick.recorded_at)).toBe(true);
    expect(until.body.entries.map((e: { position: string }) => e.position)).toContain(pick.position);
  });

  it('gives the history of one user: its stream, the trigger, the run and the message, in log order', async () => {
    const history = await get(`/v1/events/users/${user}?environment=development`);
    expect(history.status).toBe(200);
    const types = history.body.entries.map((e: { type: string }) => e.type);
    expect(types[0]).toBe('UserIdentified');
    expect(types).toEqual(expect.arrayContaining(['WorkflowTriggered', 'RunEnqueued', 'RunCompleted']));
    expect(history.body.entries.some((e: { stream: string }) => e.stream.startsWith('message-development-'))).toBe(true);
    const positions = history.body.entries.map((e: { position: string }) => e.position);
    expect([...positions].sort()).toEqual(positions);
    const paged = await get(`/v1/events/users/${user}?environment=development&limit=2`);
    const next = await get(`/v1/events/users/${user}?environment=development&limit=2&after=${paged.body.page_info.after}`);
    expect(next.body.entries.map((e: { id: string }) => e.id)).toEqual(history.body.entries.slice(2, 4).map((e: { id: string }) => e.id));
  });

  it("reads a user's properties as of an event's position, a global position and a time", async () => {
    const u = uniqueKey('asof');
    await t.http('PUT', `/v1/users/${u}`, { body: { name: 'First', plan: 'free' } });
    await t.http('PUT', `/v1/users/${u}`, { body: { name: 'Second' } });
    const [first, second] = (await get(`/v1/events/streams/user-development-${u}`)).body.entries;
    const at = (asOf: string) => get(`/v1/events/users/${u}/state?environment=development&as_of=${encodeURIComponent(asOf)}`);
    expect((await at(first.position)).body).toEqual({
      id: u,
      exists: true,
      properties: { name: 'First', plan: 'free' },
      preferences: {},
      as_of: first.position,
      revision: 0,
      global_position: first.global_position,
      position: first.position,
      recorded_at: first.recorded_at,
    });
    expect((await at(second.global_position)).body).toMatchObject({ properties: { name: 'Second', plan: 'free' }, revision: 1 });
    expect((await at(second.recorded_at)).body.revision).toBe(1);
    expect((await at('2000-01-01T00:00:00Z')).body).toMatchObject({ exists: false, properties: null, revision: null });
    expect((await at('soon')).body).toMatchObject({ code: 'invalid_params', errors: [expect.objectContaining({ field: 'as_of' })] });
  });

  it("reads objects, tenants and a recipient's preferences as of a point of the log", async () => {
    const id = uniqueKey('asof');
    await t.http('PUT', `/v1/objects/projects/${id}`, { body: { name: 'Draft' } });
    await t.http('PUT', `/v1/objects/projects/${id}/preferences/default`, { body: { channel_types: { email: false } } });
    await t.http('PUT', `/v1/objects/projects/${id}`, { body: { name: 'Final' } });
    const objectEvents = (await get(`/v1/events/streams/object-development-projects-${id}`)).body.entries;
    const objectAt = (asOf: string) =>
      get(`/v1/events/objects/projects/${id}/state?environment=development&as_of=${encodeURIComponent(asOf)}`);
    const before = (await objectAt(objectEvents[0].position)).body;
    expect(before).toMatchObject({ id, collection: 'projects', exists: true, properties: { name: 'Draft' }, preferences: {}, revision: 0 });
    const after = (await objectAt(objectEvents[objectEvents.length - 1].global_position)).body;
    expect(after).toMatchObject({ properties: { name: 'Final' }, revision: objectEvents.length - 1 });
    expect(after.preferences.default).toMatchObject({ channel_types: { email: false } });

    await t.http('PUT', `/v1/tenants/${id}`, { body: { name: 'Acme', settings: { branding: { primary_color: '#111111' } } } });
    await t.http('PUT', `/v1/tenants/${id}`, { body: { name: 'Acme Inc' } });
    const [set] = (await get(`/v1/events/streams/tenant-development-${id}`)).body.entries;
    const tenant = (await get(`/v1/events/tenants/${id}/state?environment=development&as_of=${set.position}`)).body;
    expect(tenant).toMatchObject({ id, exists: true, properties: { name: 'Acme' }, settings: { branding: { primary_color: '#111111' } } });
    const none = await get(`/v1/events/tenants/${id}/state?environment=development&as_of=2000-01-01T00:00:00Z`);
    expect(none.body).toMatchObject({ exists: false, properties: null, settings: null, revision: null });

    // The CLI reads the same states.
    const c = cli();
    expect(
      await c.run('events', 'state', '--object', `projects/${id}`, '--environment', 'development', '--as-of', objectEvents[0].position),
    ).toBe(0);
    expect(JSON.parse(c.out.join(''))).toEqual(before);
  });

  it('reads which version of a workflow the environment served, and whether it was active, as of a point', async () => {
    const key = uniqueKey('asof-wf');
    await activeWorkflow(t, key, { steps: [feed('feed', 'first')] });
    await t.mgmt().workflows.upsert(key, { environment: 'development', workflow: { name: key, steps: [feed('feed', 'second')] } as never });
    const [saved, activated, resaved] = (await get(`/v1/events/streams/workflow-development-${key}`)).body.entries;
    expect([saved.type, activated.type, resaved.type]).toEqual(['WorkflowUpserted', 'WorkflowActivated', 'WorkflowUpserted']);
    const at = async (asOf: string) => (await get(`/v1/events/workflows/${key}/state?environment=development&as_of=${asOf}`)).body;
    expect(await at(saved.position)).toMatchObject({ key, exists: true, active: false, version: { sha: saved.data.sha, source: 'saved' } });
    expect(await at(activated.global_position)).toMatchObject({
      active: true,
      version: { sha: saved.data.sha },
      position: activated.position,
    });
    const now = await at(resaved.position);
    expect(now).toMatchObject({ active: true, version: { sha: resaved.data.sha, valid: true }, committed: null });
    expect(JSON.stringify(now.version.content)).toContain('second');
    expect(await at('2000-01-01T00:00:00Z')).toMatchObject({ exists: false, version: null, active: false });

    const c = cli();
    expect(await c.run('events', 'state', '--workflow', key, '--environment', 'development', '--as-of', saved.position)).toBe(0);
    expect(JSON.parse(c.out.join('')).version.sha).toBe(saved.data.sha);
  });

  it("reads a message's status, engagement and events as of a point of the log, over HTTP and from the CLI", async () => {
    const [run] = await finishedRuns(t, workflowRunId);
    const messageId = (await t.http('GET', `/v1/workflow_recipient_runs/${run.runId}/explain`)).body.messages[0].message_id;
    const path = `/v1/events/messages/${messageId}/state?environment=development&as_of=`;
    const now = (await get(`${path}${encodeURIComponent(new Date().toISOString())}`)).body;
    expect(now).toMatchObject({ id: messageId, exists: true, recipient: { type: 'user', id: user }, data: { n: 1 }, read_at: null });
    const created = now.events[0];
    // The log's entries as written: an in-app message is delivered in the entry that creates it (ADR 0233).
    expect(now.events.map((e: { type: string }) => e.type)).toEqual(['MessageCreated']);
    expect(created.data.delivered_at).toEqual(expect.any(String));

    // Read it: the read shows now, and not as of the message's creation (by position, then by global position).
    expect((await t.http('PUT', `/v1/messages/${messageId}/read`)).status).toBe(200);
    // The log is read directly (no read model to wait for): the read is there once the PUT answered.
    const read = (await get(`${path}${encodeURIComponent(new Date().toISOString())}`)).body;
    expect(read.read_at).toEqual(expect.any(String));
    expect(read.events[read.events.length - 1]).toMatchObject({ type: 'MessageRead' });
    expect(read.global_position).toBe(read.events[read.events.length - 1].global_position);
    const then = (await get(`${path}${created.position}`)).body;
    expect(then).toMatchObject({ exists: true, status: 'delivered', read_at: null, position: created.position, revision: 0 });
    expect(then.events.map((e: { id: string }) => e.id)).toEqual([created.id]);
    expect((await get(`${path}${created.global_position}`)).body).toEqual({ ...then, as_of: created.global_position });
    const before = (await get(`${path}2000-01-01T00:00:00Z`)).body;
    expect(before).toMatchObject({ exists: false, status: null, events: [], global_position: null });

    const c = cli();
    expect(await c.run('events', 'state', '--message', messageId, '--environment', 'development', '--as-of', created.position)).toBe(0);
    expect(JSON.parse(c.out.join(''))).toEqual(then);
  });

  it('lists categories and event types', async () => {
    expect((await get('/v1/events/categories')).body.entries).toContainEqual(
      expect.objectContaining({ category: 'run', pattern: 'run-{environment}-{run_id}' }),
    );
    expect((await get('/v1/events/types')).body.entries).toContainEqual({ type: 'UserIdentified', schema_version: expect.any(Number) });
  });

  it('answers errors in the API shape: bad cursors and filters, an API key instead of a service token, no environment for a history', async () => {
    const bad = await get('/v1/events?after=nonsense');
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({
      code: 'invalid_params',
      status: 422,
      type: expect.any(String),
      errors: [expect.objectContaining({ field: 'after' })],
    });
    expect((await get('/v1/events?since=yesterday')).body).toMatchObject({
      code: 'invalid_params',
      errors: [expect.objectContaining({ field: 'since' })],
    });
    expect((await get('/v1/events?limit=0')).status).toBe(422);
    // A type the service never writes, or a time window that ends before it starts, would answer an empty page: refused instead.
    const unknownType = await get('/v1/events?types=UserIdentified&types=NoSuchEvent');
    expect(unknownType.status).toBe(422);
    expect(unknownType.body).toMatchObject({
      code: 'invalid_params',
      errors: [{ field: 'types', message: expect.stringContaining('"NoSuchEvent" is not an event type') }],
    });
    expect((await get('/v1/events/tail?types=NoSuchEvent')).body).toMatchObject({ status: 422, errors: [{ field: 'types' }] });
    const backwards = await get('/v1/events?since=2026-11-02T00:00:00Z&until=2026-11-01T00:00:00Z');
    expect(backwards.status).toBe(422);
    expect(backwards.body).toMatchObject({ code: 'invalid_params', errors: [{ field: 'until', message: 'must not be before since' }] });
    expect((await get('/v1/events?since=2026-11-01T00:00:00Z&until=2026-11-01T00:00:00Z')).status).toBe(200);
    const streamCursor = (await get(`/v1/events/streams/user-development-${user}?limit=1`)).body.page_info.after;
    expect((await get(`/v1/events?after=${streamCursor}`)).status).toBe(422);
    expect((await get(`/v1/events/users/${user}?environment=development&after=${streamCursor}`)).status).toBe(422);
    expect((await get(`/v1/events/users/${user}`)).body).toMatchObject({
      code: 'invalid_params',
      errors: [expect.objectContaining({ field: 'environment' })],
    });
    expect((await get('/v1/events', t.env.secretKey)).status).toBe(403);
    expect((await get('/v1/events', 'svc_nope')).status).toBe(401);
    expect((await get('/v1/events?environment=nowhere')).status).toBe(404);
  });

  it('erases a user over the management API with the reason recorded on UserErased, and from the CLI with --http', async () => {
    const erasable = uniqueKey('erasable');
    const email = `${erasable}@example.org`;
    expect((await t.http('PUT', `/v1/users/${erasable}`, { body: { name: 'Eve', email } })).status).toBe(200);
    const erase = (id: string, body: unknown, key?: string) =>
      t.http('POST', `/v1/events/users/${id}/erase?environment=development`, { key: key ?? t.serviceToken, body });

    // No reason, an empty one, or not a string: 422 naming it; nothing erased.
    for (const body of [{}, { reason: '  ' }, { reason: 7 }]) {
      const refused = await erase(erasable, body);
      expect(refused.status).toBe(422);
      expect(refused.body).toMatchObject({ code: 'invalid_params', status: 422, errors: [expect.objectContaining({ field: 'reason' })] });
    }
    const bodiless = await t.http('POST', `/v1/events/users/${erasable}/erase?environment=development`, { key: t.serviceToken });
    expect(bodiless.body).toMatchObject({ code: 'invalid_params', status: 422, errors: [expect.objectContaining({ field: 'reason' })] });
    expect((await erase(erasable, { reason: 'x' }, t.env.secretKey)).status).toBe(403);
    const unknown = await erase(uniqueKey('never'), { reason: 'request #1' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'resource_missing', status: 404, type: expect.any(String), message: expect.any(String) });
    expect((await t.http('GET', `/v1/users/${erasable}`)).status).toBe(200);

    const erased = await erase(erasable, { reason: 'GDPR request #4712' });
    expect(erased.status).toBe(200);
    expect(erased.body).toMatchObject({
      user_id: erasable,
      environment: 'development',
      reason: 'GDPR request #4712',
      deleted: true,
      events: ['UserDeleted', 'UserErased'],
      global_position: expect.stringMatching(/^\d+$/),
    });
    expect((await t.http('GET', `/v1/users/${erasable}`)).status).toBe(404);
    // The erasure is in the log with its reason and who asked; the user's personal fields read as erased.
    const stream = (await get(`/v1/events/streams/user-development-${erasable}`)).body.entries;
    const record = stream.find((e: { type: string }) => e.type === 'UserErased');
    expect(record).toMatchObject({
      data: { user_id: erasable, reason: 'GDPR request #4712' },
      actor: expect.stringMatching(/^service/),
      position: erased.body.position,
      global_position: erased.body.global_position,
    });
    expect(stream[0].data.properties).toEqual({ $erased: true });
    expect(await t.sql(`SELECT 1 FROM es_events WHERE data::text LIKE '%' || $1 || '%'`, [email])).toEqual([]);
    // Nothing recorded since: nothing to erase again.
    expect((await erase(erasable, { reason: 'again' })).status).toBe(404);

    const byCli = uniqueKey('cli-erasable');
    await t.http('PUT', `/v1/users/${byCli}`, { body: { name: 'Carl', email: `${byCli}@example.org` } });
    const cmd = cli();
    expect(await cmd.run('recipients', 'erase', byCli, '--environment', 'development', '--reason', 'ticket 9', '--http')).toBe(0);
    expect(cmd.out.join('')).toMatch(new RegExp(`^erased user ${byCli} in development \\(UserDeleted, UserErased\\) at #\\d+\\n$`));
    const again = cli();
    expect(await again.run('recipients', 'erase', byCli, '--environment', 'development', '--reason', 'ticket 9', '--http')).toBe(1);
    expect(again.err.join('')).toContain('404');
    const cliRecord = (await t.store.readStream(`user-development-${byCli}`)).find((e) => e.type === 'UserErased')!;
    expect(cliRecord.data).toMatchObject({ reason: 'ticket 9' });
  });

  it('prints types, a stream and a history from the CLI', async () => {
    const types = cli();
    expect(await types.run('events', 'types')).toBe(0);
    expect(types.out.join('')).toMatch(/^UserIdentified {2}v\d+$/m);

    const read = cli();
    expect(await read.run('events', 'read', `user-development-${user}`, '--limit', '1')).toBe(0);
    expect(read.out.join('')).toMatch(new RegExp(`^#\\d+ \\S+ user-development-${user}@0 UserIdentified corr=`));
    expect(read.err.join('')).toMatch(/^next: --after \S+/);

    const all = cli();
    expect(await all.run('events', 'read', `user-development-${user}`, '--all', '--limit', '1', '--json')).toBe(0);
    expect(all.out.map((l) => JSON.parse(l).revision)).toEqual([0, 1]);

    const history = cli();
    expect(await history.run('events', 'history', '--user', user, '--environment', 'development')).toBe(0);
    expect(history.out.join('')).toContain('RunCompleted');

    const usage = cli();
    expect(await usage.run('events', 'history', '--user', user)).toBe(2);
    const refused = cli();
    expect(await refused.run('events', 'read', '$all', '--after', 'nonsense')).toBe(1);
    expect(refused.err.join('')).toContain('422');
  });

  it('tails the log live from its head and stops cleanly when interrupted', async () => {
    const stop = new AbortController();
    const tail = cli(stop.signal);
    const running = tail.run('events', 'tail', '--type', 'UserIdentified', '--json');
    const marker = uniqueKey('tailed');
    // The tail starts at the head it reads first; keep writing until it has printed the marker.
    await eventually(
      async () => {
        await t.http('PUT', `/v1/users/${marker}`, { body: { name: 'T' } });
        return tail.out.join('');
      },
      (text) => text.includes(`user-development-${marker}`),
      20_000,
    );
    stop.abort();
    expect(await running).toBe(0);
    for (const line of tail.out) expect(JSON.parse(line).type).toBe('UserIdentified');
  });
  it('explains a run and its message from the log, as JSON and as a timeline, over HTTP and from the CLI', async () => {
    const [run] = await finishedRuns(t, workflowRunId);
    const byRun = await t.http('GET', `/v1/workflow_recipient_runs/${run.runId}/explain`);
    expect(byRun.status).toBe(200);
    expect(byRun.body).toMatchObject({
      run_id: run.runId,
      workflow_run_id: workflowRunId,
      workflow,
      recipient: { type: 'user', id: user },
      verdict: 'sent',
      trigger: { source: { type: 'api' }, data: { n: 1 }, correlation_id: expect.any(String) },
      steps: [{ step_ref: 'feed', step_type: 'in_app_feed', status: 'ok' }],
      messages: [{ message_id: expect.any(String), status: expect.stringMatching(/^(sent|delivered)$/) }],
    });
    expect(byRun.body.text.split('\n')[0]).toBe(`${workflow} run ${run.runId} for user ${user}: sent`);
    const messageId = byRun.body.messages[0].message_id;
    const byMessage = await t.http('GET', `/v1/messages/${messageId}/explain`);
    expect(byMessage.body).toEqual(byRun.body);
    const missing = await t.http('GET', '/v1/messages/00000000-0000-4000-8000-000000000000/explain');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'resource_missing', status: 404 });
    expect((await t.http('GET', `/v1/workflow_recipient_runs/${run.runId}/explain`, { key: t.serviceToken })).status).toBe(401);

    const withKey = { NOTIFY_URL: t.url, NOTIFY_API_KEY: t.env.secretKey };
    const text = await cliCommand(withKey, 'explain', run.runId);
    expect(text.code).toBe(0);
    expect(text.out).toContain('step feed (in_app_feed) ok');
    const json = await cliCommand(withKey, 'explain', messageId, '--json');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out).run_id).toBe(run.runId);
    expect((await cliCommand(withKey, 'explain', '00000000-0000-4000-8000-000000000000')).code).toBe(1);
  });

  it("explains a step's inputs: a failing condition's values and the preference layer that opted out, sealed in the log, erased with the user", async () => {
    const key = uniqueKey('inputs');
    const who = uniqueKey('inputs-user');
    const plan = uniqueKey('plan-free');
    await activeWorkflow(t, key, {
      steps: [
        feed('vip', 'for pros', { conditions: { all: [{ variable: 'data.plan', operator: 'equal_to', argument: 'pro' }] } }),
        feed('feed', 'for everyone'),
      ],
    });
    expect((await t.http('PUT', `/v1/users/${who}`, { body: { name: 'Grace' } })).status).toBe(200);
    const prefs = await t.http('PUT', `/v1/users/${who}/preferences/default`, { body: { channel_types: { in_app_feed: false } } });
    expect(prefs.status).toBe(200);
    const triggered = await t.http('POST', `/v1/workflows/${key}/trigger`, { body: { recipients: [who], data: { plan } } });
    const [run] = await finishedRuns(t, triggered.body.workflow_run_id);

    const explained = await t.http('GET', `/v1/workflow_recipient_runs/${run.runId}/explain`);
    expect(explained.status).toBe(200);
    expect(explained.body.verdict).toBe('not_sent');
    const [vip, feedStep] = explained.body.steps;
    expect(vip).toMatchObject({
      step_ref: 'vip',
      status: 'skipped',
      reason: 'step_conditions_not_met',
      inputs: {
        user_id: who,
        conditions: {
          holds: false,
          mode: 'all',
          conditions: [{ variable: 'data.plan', operator: 'equal_to', argument: 'pro', value: plan, compared_to: 'pro', result: false }],
        },
      },
    });
    expect(feedStep).toMatchObject({
      step_ref: 'feed',
      status: 'skipped',
      reason: 'preference:channel_type_opted_out',
      inputs: {
        preferences: {
          channel_type: 'in_app_feed',
          decided_by: { setting: 'channel_types.in_app_feed', layer: 'recipient_default', value: false, result: 'opted_out' },
        },
      },
    });
    expect(explained.body.text).toContain(`data.plan equal_to "pro": data.plan was "${plan}" -> false`);
    expect(explained.body.text).toContain("blocked by channel_types.in_app_feed = false from the user's own set (recipient_default)");

    const withKey = { NOTIFY_URL: t.url, NOTIFY_API_KEY: t.env.secretKey };
    const explainedByCli = await cliCommand(withKey, 'explain', run.runId);
    expect(explainedByCli.code).toBe(0);
    expect(explainedByCli.out).toContain(`data.plan equal_to "pro": data.plan was "${plan}" -> false`);
    expect(explainedByCli.out).toContain('blocked by channel_types.in_app_feed = false');
    const viaEvents = await cliCommand(withKey, 'events', 'explain', run.runId);
    expect(viaEvents.code).toBe(0);
    expect(viaEvents.out).toContain(`data.plan equal_to "pro": data.plan was "${plan}" -> false`);

    // The inputs are the user's: sealed in the log (the value compared appears nowhere in clear), erased with them.
    const sealed = await t.sql<{ inputs: { $sealed?: string } }>(
      // The last step's inputs are on the RunCompleted that carries it (ADR 0233).
      `SELECT coalesce(data->'step'->'inputs', data->'inputs') AS inputs FROM es_events
       WHERE stream_id = $1 AND (event_type = 'StepCompleted' OR (event_type = 'RunCompleted' AND data ? 'step')) ORDER BY stream_revision`,
      [`run-development-${run.runId}`],
    );
    expect(sealed.map((r) => r.inputs.$sealed)).toEqual(['aes-256-gcm/v1', 'aes-256-gcm/v1']);
    expect((await t.sql<{ c: string }>('SELECT count(*) AS c FROM es_events WHERE data::text LIKE $1', [`%${plan}%`]))[0].c).toBe('0');
    expect((await t.http('DELETE', `/v1/users/${who}`)).status).toBe(204);
    const erased = await t.http('GET', `/v1/workflow_recipient_runs/${run.runId}/explain`);
    expect(erased.body.steps.map((s: { inputs: unknown }) => s.inputs)).toEqual([{ $erased: true }, { $erased: true }]);
    expect(erased.body.text).toContain('inputs erased (the recipient was erased)');
    expect(erased.body.text).not.toContain(plan);
  });

  it('explains the throttle window a run counted, the chat connection it used (as a reference), the provider answer, and what paused it', async () => {
    const slack = await startHttpPeer(slackPosted);
    try {
      const key = uniqueKey('inputs-more');
      const who = uniqueKey('inputs-chat');
      const connection = uniqueKey('C');
      const channelKey = uniqueKey('chat');
      const channelId = await putChannel(t, channelKey, { type: 'chat', provider: 'slack', provider_settings: { base_url: slack.url } });
      const later = new Date(Date.now() + 7 * 86_400_000).toISOString();
      await activeWorkflow(t, key, {
        steps: [
          { type: 'throttle', ref: 'gate', settings: { throttle_limit: 1, throttle_window: { unit: 'hours', value: 1 } } },
          { type: 'channel', ref: 'chat', channel_key: channelKey, template: { markdown_body: 'Hi' } },
          { type: 'delay', ref: 'wait', settings: { delay_until_field_path: 'data.later' } },
        ],
      });
      expect((await t.http('PUT', `/v1/users/${who}`, { body: { name: 'Lin' } })).status).toBe(200);
      const data = await t.http('PUT', `/v1/users/${who}/channel_data/${channelId}`, {
        body: { data: { connections: [{ channel_id: connection, access_token: 'xoxb-e2e-token' }] } },
      });
      expect(data.status).toBe(200);

      const first = await t.http('POST', `/v1/workflows/${key}/trigger`, { body: { recipients: [who], data: { later } } });
      const [paused] = await pausedRuns(t, first.body.workflow_run_id);
      await messageWithStatus(t, (await messageOf(t, first.body.workflow_run_id, 'chat')).id, ['sent']);
      const second = await t.http('POST', `/v1/workflows/${key}/trigger`, { body: { recipients: [who], data: { later } } });
      const [limited] = await finishedRuns(t, second.body.workflow_run_id);

      const explained = await t.http('GET', `/v1/workflow_recipient_runs/${paused.runId}/explain`);
      expect(explained.status).toBe(200);
      const [gate, chat] = explained.body.steps;
      expect(gate.inputs.throttle).toMatchObject({ key: 'default', limit: 1, window_ms: 3_600_000, passes_in_window: 0, result: 'passed' });
      const ref = `channel_id:sha256:${createHash('sha256').update(connection).digest('hex').slice(0, 12)}`;
      expect(chat.inputs.channel_data).toEqual({
        channel_id: channelId,
        kind: 'connections',
        present: true,
        source: 'channel_data',
        count: 1,
        refs: [ref],
      });
      expect(JSON.stringify(explained.body.steps)).not.toContain(connection);
      expect(explained.body.pauses).toEqual([
        {
          step_ref: 'wait',
          reason: 'delay',
          resume_at: later,
          at: expect.any(String),
          inputs: expect.objectContaining({
            pause: {
              reason: 'delay',
              resume_at: later,
              delay: { delay_for: null, delay_until_field_path: 'data.later', field_value: later },
            },
          }),
        },
      ]);
      // The attempt's provider answer: Slack's 200 and its message ts, as the delivery recorded them.
      const [attempt] = explained.body.messages[0].attempts;
      expect(attempt).toMatchObject({ outcome: 'sent', provider: 'slack', provider_message_id: expect.any(String) });
      expect(attempt.responses).toEqual([{ status: 200, error: null, duration_ms: expect.any(Number) }]);
      expect(explained.body.text).toContain('throttle "default": 0 of 1 passed');
      expect(explained.body.text).toContain(`1 connections from channel data: ${ref}`);
      expect(explained.body.text).toContain('provider answered HTTP 200');
      expect(explained.body.text).toContain(`paused until ${later} by the delay: data.later was "${later}"`);

      const second_ = await t.http('GET', `/v1/workflow_recipient_runs/${limited.runId}/explain`);
      expect(second_.body).toMatchObject({ verdict: 'not_sent', reason: 'throttled' });
      expect(second_.body.steps[0].inputs.throttle).toMatchObject({ passes_in_window: 1, result: 'limited' });
    } finally {
      await slack.close();
    }
  });

  // Last: it tampers with the log of this file's service.
  it('verifies the hash chain, then names a row edited and a row deleted by SQL, over HTTP and from the CLI', async () => {
    const clean = await t.http('POST', '/v1/events/verify', { key: t.serviceToken });
    expect(clean.status).toBe(200);
    expect(clean.body).toMatchObject({
      ok: true,
      findings: [],
      unchained_events: 0,
      checkpointed: true,
      root: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const ok = cli();
    expect(await ok.run('events', 'verify', '--no-checkpoint')).toBe(0);
    expect(ok.out.join('')).toMatch(/^ok: \d+ events in \d+ streams checked/);

    const victim = uniqueKey('tampered');
    for (const name of ['A', 'B', 'C']) await t.http('PUT', `/v1/users/${victim}`, { body: { name } });
    const stream = `user-development-${victim}`;
    const [edited] = await t.sql<{ global_position: string }>(
      'SELECT global_position::text AS global_position FROM es_events WHERE stream_id = $1 AND stream_revision = 0',
      [stream],
    );
    await t.sql(
      `UPDATE es_events SET data = jsonb_set(data, '{properties,name}', '"Mallory"') WHERE stream_id = $1 AND stream_revision = 0`,
      [stream],
    );
    await t.sql('DELETE FROM es_events WHERE stream_id = $1 AND stream_revision = 1', [stream]);
    const found = await t.http('POST', '/v1/events/verify', { key: t.serviceToken });
    expect(found.body.ok).toBe(false);
    expect(found.body.checkpointed).toBe(false);
    expect(found.body.findings).toEqual([
      { kind: 'edited', stream, revision: 0, global_position: edited.global_position, detail: expect.any(String) },
      { kind: 'missing', stream, revision: 1, global_position: null, detail: 'revision 1 is missing (deleted)' },
    ]);
    const tampered = cli();
    expect(await tampered.run('events', 'verify')).toBe(1);
    expect(tampered.out.join('')).toContain(`edited       ${stream}@0 (#${edited.global_position})`);
    expect(tampered.out.join('')).toContain(`missing      ${stream}@1: revision 1 is missing (deleted)`);
    expect((await t.http('POST', '/v1/events/verify?checkpoint=maybe', { key: t.serviceToken })).status).toBe(422);
  });
});
