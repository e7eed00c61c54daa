import { activeWorkflow, feed, finishedRuns, uniqueKey } from '../../../../test/support/engine';
import { eventually } from '../../../../test/support/recipients';
import { startTestApp, TestApp } from '../../../../test/support/test-app';

/**
 * Goals over HTTP (ADR 0196). @knocklabs/mgmt has no goals resource, so the routes are called
 * as the reference describes them, with the service token; workflows go through @knocklabs/mgmt.
 */
const environment = 'development';

describe('goals: CRUD, attachments on workflows, conversions from source events', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  const mgmt = <T = any>(method: string, path: string, body?: unknown, env = environment) =>
    t.http<T>(method, `${path}${path.includes('?') ? '&' : '?'}environment=${env}`, { key: t.serviceToken, body });
  const goalOn = (source: string, event: string) => ({
    name: 'Paid',
    condition: { event: { event_type: 'integration_source', integration_source_key: source, event_key: event } },
  });

  it('creates, lists, validates, clones and archives goals', async () => {
    const key = uniqueKey('goal');
    const saved = await mgmt('PUT', `/v1/goals/${key}`, { goal: goalOn('billing', 'invoice.paid') });
    expect(saved.status).toBe(200);
    expect(saved.body.goal).toMatchObject({ key, name: 'Paid', environment, sha: expect.any(String) });
    expect((await mgmt('GET', `/v1/goals/${key}`)).body).toEqual(saved.body.goal);
    expect((await mgmt('GET', '/v1/goals')).body.entries.map((g: any) => g.key)).toContain(key);

    const checked = await mgmt('PUT', `/v1/goals/${key}/validate`, { goal: { ...goalOn('billing', 'invoice.paid'), name: 'Renamed' } });
    expect(checked.body.goal).toMatchObject({ key, name: 'Renamed' });
    expect((await mgmt('GET', `/v1/goals/${key}`)).body.name).toBe('Paid');

    const bad = await mgmt('PUT', `/v1/goals/${key}`, { goal: { name: 'x', condition: { event: { event_type: 'integration_source' } } } });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('invalid_params');
    const unsupported = await mgmt('PUT', `/v1/goals/${key}`, {
      goal: {
        ...goalOn('billing', 'x'),
        condition: {
          ...goalOn('billing', 'x').condition,
          match_conditions: [{ all: [{ variable: 'recipient.plan', operator: 'equal_to', argument: 'pro' }] }],
        },
      },
    });
    expect(unsupported.status).toBe(422);
    expect(unsupported.body.errors[0].field).toBe('goal.condition.match_conditions');

    const copy = uniqueKey('copy');
    const cloned = await mgmt('POST', `/v1/goals/${key}/clone`, { clone: { key: copy, name: 'Paid (prod)', environment: 'production' } });
    expect(cloned.status).toBe(200);
    expect(cloned.body.goal).toMatchObject({
      key: copy,
      name: 'Paid (prod)',
      environment: 'production',
      condition: saved.body.goal.condition,
    });
    expect((await mgmt('GET', `/v1/goals/${copy}`, undefined, 'production')).status).toBe(200);

    expect((await mgmt('DELETE', `/v1/goals/${key}`)).body).toEqual({ result: 'success' });
    expect((await mgmt('GET', `/v1/goals/${key}`)).status).toBe(404);
    expect((await mgmt('GET', '/v1/goals')).body.entries.map((g: any) => g.key)).not.toContain(key);
  });

  it('accepts goal_attachment on a workflow, and saves one naming a missing goal as invalid', async () => {
    const goal = uniqueKey('goal');
    await mgmt('PUT', `/v1/goals/${goal}`, { goal: goalOn('billing', 'invoice.paid') });
    const workflow = uniqueKey('wf');
    const client = t.mgmt();
    const { workflow: saved } = await client.workflows.upsert(workflow, {
      environment,
      workflow: {
        name: 'Dunning',
        steps: [feed('feed', 'Pay up')],
        goal_attachment: { goal_key: goal, attribution_window_days: 3 },
      } as never,
    });
    expect(saved.valid).toBe(true);
    expect((saved as any).goal_attachment).toEqual({ goal_key: goal, attribution_window_days: 3 });
    const { workflow: dangling } = await client.workflows.upsert(uniqueKey('wf'), {
      environment,
      workflow: { name: 'Dangling', steps: [feed('feed', 'x')], goal_attachment: { goal_key: 'no-such-goal' } } as never,
    });
    expect(dangling.valid).toBe(false);
    expect((dangling as any).errors).toEqual([expect.objectContaining({ field: 'goal_attachment.goal_key', type: 'reference' })]);
    const outOfRange = await mgmt('PUT', `/v1/workflows/${uniqueKey('wf')}`, {
      workflow: { name: 'x', steps: [], goal_attachment: { goal_key: goal, attribution_window_days: 31 } },
    });
    expect(outOfRange.status).toBe(422);
  });

  it('a source event meeting the goal marks the recipient runs of the attached workflow converted, once, and counts them', async () => {
    const source = uniqueKey('billing');
    const goal = uniqueKey('goal');
    await mgmt('PUT', `/v1/goals/${goal}`, { goal: goalOn(source, 'invoice.paid') });
    const attached = uniqueKey('dunning');
    const other = uniqueKey('plain');
    await activeWorkflow(t, attached, { steps: [feed('feed', 'Pay up')], goal_attachment: { goal_key: goal } });
    await activeWorkflow(t, other, { steps: [feed('feed', 'Hello')] });
    const [payer, stranger] = [uniqueKey('payer'), uniqueKey('stranger')];
    const knock = t.knock();
    for (const user of [payer, stranger]) await knock.users.update(user, { name: user });
    const runIds: string[] = [];
    for (const [wf, user] of [
      [attached, payer],
      [attached, payer],
      [other, payer],
      [attached, stranger],
    ])
      runIds.push((await knock.workflows.trigger(wf, { recipients: [user] })).workflow_run_id!);
    for (const id of runIds) await finishedRuns(t, id);
    await eventually(
      () => t.sql('SELECT count(*)::int AS c FROM rm_workflow_recipient_runs WHERE workflow_run_id = ANY($1::uuid[])', [runIds]),
      (rows) => rows[0].c === runIds.length,
    );

    const saved = await mgmt('PUT', `/v1/sources/${source}`, {
      source: { name: 'Billing', environment_settings: { [environment]: { settings: { idempotency_key_path: 'body.id' } } } },
    });
    const { endpoint, ingest_key } = saved.body.source.environment_settings[environment].settings;
    const post = (id: string) =>
      t.http('POST', new URL(endpoint).pathname, { key: ingest_key, body: { event: 'invoice.paid', id, user_id: payer } });
    expect((await post('evt-1')).status).toBe(202);

    const conversions = await mgmt('GET', `/v1/goals/${goal}/conversions`);
    expect(conversions.body.entries).toEqual([{ workflow_key: attached, conversions: 2, last_converted_at: expect.any(String) }]);
    const recorded = await t.sql(`SELECT data FROM es_events WHERE event_type = 'RunConverted' AND data->>'goal_key' = $1`, [goal]);
    expect(recorded.map((r) => r.data.recipient)).toEqual([
      { type: 'user', id: payer },
      { type: 'user', id: payer },
    ]);
    expect(new Set(recorded.map((r) => r.data.workflow_run_id))).toEqual(new Set(runIds.slice(0, 2)));

    // Another event meeting the goal converts nothing twice.
    expect((await post('evt-2')).status).toBe(202);
    expect((await mgmt('GET', `/v1/goals/${goal}/conversions`)).body.entries[0].conversions).toBe(2);
    expect(await t.sql(`SELECT 1 FROM es_events WHERE event_type = 'RunConverted' AND data->>'goal_key' = $1`, [goal])).toHaveLength(2);
  });

  it("a user update meeting a recipient goal and its match conditions converts that user's runs of the attached workflow (ADR 0247)", async () => {
    const goal = uniqueKey('upgraded');
    const saved = await mgmt('PUT', `/v1/goals/${goal}`, {
      goal: {
        name: 'Upgraded',
        condition: {
          event: { event_type: 'recipient', event_key: 'updated' },
          match_conditions: [{ all: [{ variable: 'recipient.plan', operator: 'equal_to', argument: 'paid' }] }],
        },
      },
    });
    expect(saved.status).toBe(200);
    const attached = uniqueKey('trial-nudge');
    await activeWorkflow(t, attached, { steps: [feed('feed', 'Upgrade?')], goal_attachment: { goal_key: goal } });
    const [payer, browser, later] = [uniqueKey('payer'), uniqueKey('browser'), uniqueKey('later')];
    const knock = t.knock();
    for (const user of [payer, browser, later]) await knock.users.update(user, { name: user, plan: 'trial' } as never);
    const runIds: string[] = [];
    for (const user of [payer, browser, later])
      runIds.push((await knock.workflows.trigger(attached, { recipients: [user] })).workflow_run_id!);
    for (const id of runIds) await finishedRuns(t, id);
    const counts = () => mgmt('GET', `/v1/goals/${goal}/conversions`).then((r) => r.body.entries);

    await knock.users.update(payer, { plan: 'paid' } as never);
    expect(await eventually(counts, (e) => e.length > 0)).toEqual([
      { workflow_key: attached, conversions: 1, last_converted_at: expect.any(String) },
    ]);
    // Updates that leave the conditions unmet convert nothing; the reactor takes updates in log
    // order, so once the last user's conversion is in, the browser's updates were decided.
    await knock.users.update(browser, { name: 'Renamed' } as never);
    await knock.users.update(browser, { plan: 'free' } as never);
    await knock.users.update(later, { plan: 'paid' } as never);
    await eventually(counts, (e) => e[0]?.conversions === 2);
    const recorded = await t.sql(`SELECT data FROM es_events WHERE event_type = 'RunConverted' AND data->>'goal_key' = $1`, [goal]);
    expect(recorded.map((r) => [r.data.recipient.id, r.data.cause.type]).sort()).toEqual(
      [
        [payer, 'recipient_event'],
        [later, 'recipient_event'],
      ].sort(),
    );
    // The goal met again converts nothing twice.
    await knock.users.update(payer, { plan: 'paid', seats: 3 } as never);
    await knock.users.update(browser, { plan: 'paid' } as never);
    await eventually(counts, (e) => e[0]?.conversions === 3);
    expect(await t.sql(`SELECT 1 FROM es_events WHERE event_type = 'RunConverted' AND data->>'goal_key' = $1`, [goal])).toHaveLength(3);
  });

  it('users entering or exiting a static audience meet its audience goals (ADR 0247)', async () => {
    const audience = uniqueKey('vip');
    const [entered, exited] = [uniqueKey('enter'), uniqueKey('exit')];
    for (const [goal, event] of [
      [entered, 'enter'],
      [exited, 'exit'],
    ])
      expect(
        (
          await mgmt('PUT', `/v1/goals/${goal}`, {
            goal: { name: goal, condition: { event: { event_type: 'audience', audience_key: audience, event_key: event } } },
          })
        ).status,
      ).toBe(200);
    const [onEnter, onExit] = [uniqueKey('wf-enter'), uniqueKey('wf-exit')];
    await activeWorkflow(t, onEnter, { steps: [feed('feed', 'Join?')], goal_attachment: { goal_key: entered } });
    await activeWorkflow(t, onExit, { steps: [feed('feed', 'Stay?')], goal_attachment: { goal_key: exited } });
    const [ada, bob] = [uniqueKey('ada'), uniqueKey('bob')];
    const knock = t.knock();
    for (const user of [ada, bob]) await knock.users.update(user, { name: user });
    const runIds: string[] = [];
    for (const wf of [onEnter, onExit])
      for (const user of [ada, bob]) runIds.push((await knock.workflows.trigger(wf, { recipients: [user] })).workflow_run_id!);
    for (const id of runIds) await finishedRuns(t, id);
    const conversions = (goal: string) =>
      t.sql<{ id: string; cause: string }>(
        `SELECT data->'recipient'->>'id' AS id, data->'cause'->>'type' AS cause FROM es_events WHERE event_type = 'RunConverted' AND data->>'goal_key' = $1`,
        [goal],
      );

    await knock.audiences.addMembers(audience, { members: [{ user: { id: ada } }] }, { query: { create_audience: true } } as never);
    expect(
      await eventually(
        () => conversions(entered),
        (rows) => rows.length > 0,
      ),
    ).toEqual([{ id: ada, cause: 'audience_event' }]);
    await knock.audiences.removeMembers(audience, { members: [{ user: { id: ada } }] });
    expect(
      await eventually(
        () => conversions(exited),
        (rows) => rows.length > 0,
      ),
    ).toEqual([{ id: ada, cause: 'audience_event' }]);
    // Entering is not exiting: Ada converted once on each goal, Bob (never a member) on none.
    expect(await conversions(entered)).toEqual([{ id: ada, cause: 'audience_event' }]);
    // The conversions read model follows the log (the RunConverted above was appended by the worker).
    expect(
      await eventually(
        async () => (await mgmt('GET', `/v1/goals/${exited}/conversions`)).body.entries as unknown[],
        (entries) => entries.length > 0,
      ),
    ).toEqual([{ workflow_key: onExit, conversions: 1, last_converted_at: expect.any(String) }]);
  });
});
