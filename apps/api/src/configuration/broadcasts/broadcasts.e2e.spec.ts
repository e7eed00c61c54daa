import Knock from '@knocklabs/node';
import KnockMgmt from '@knocklabs/mgmt';
import { feed, messagesOf, pausedRuns, settled, uniqueKey } from '../../../../../test/support/engine';
import { eventually, rejection } from '../../../../../test/support/recipients';
import { startTestApp, TestApp } from '../../../../../test/support/test-app';
import { BroadcastSendingService } from '../../../../worker/src/broadcasts/broadcast-sending.service';

const environment = 'development';

describe('broadcasts through @knocklabs/mgmt', () => {
  let t: TestApp;
  let knock: Knock;
  let mgmt: KnockMgmt;

  beforeAll(async () => {
    t = await startTestApp();
    knock = t.knock();
    mgmt = t.mgmt();
  });
  afterAll(async () => t?.close());

  const upsert = (key: string, broadcast: Record<string, unknown>) => mgmt.broadcasts.upsert(key, { environment, broadcast } as never);
  const get = (key: string) => mgmt.broadcasts.retrieve(key, { environment }) as Promise<any>;

  it('sends now to a static audience: one run per member with trigger source broadcast, messages in feeds, counts', async () => {
    const audience = uniqueKey('aud');
    const key = uniqueKey('launch');
    const ids = [uniqueKey('m'), uniqueKey('m'), uniqueKey('m')];
    await knock.audiences.addMembers(
      audience,
      {
        members: [
          { user: { id: ids[0], name: 'A' } },
          { user: { id: ids[1], name: 'B' } },
          { user: { id: ids[2], name: 'C' }, tenant: 'acme' },
        ],
      },
      { query: { create_audience: true } },
    );
    const saved = (await upsert(key, {
      name: 'Launch',
      target_audience_key: audience,
      categories: ['announcements'],
      steps: [feed('feed', 'Launching, {{ recipient.name }}')],
    })) as any;
    expect(saved.broadcast).toMatchObject({ key, name: 'Launch', status: 'draft', send_status: 'draft', valid: true, environment });
    expect((await mgmt.broadcasts.list({ environment })).entries.map((b: any) => b.key)).toContain(key);

    const sent = (await mgmt.broadcasts.send(key, { environment })) as any;
    expect(['sending', 'sent']).toContain(sent.broadcast.send_status);
    const done = await eventually(
      () => get(key),
      (b) => b.send_status === 'sent' && b.counts.messages === 3,
    );
    expect(done).toMatchObject({ status: 'sent', counts: { recipients: 3, messages: 3, skips: 0 } });
    expect(done.sent_at).not.toBeNull();
    // Sent when asked, never scheduled.
    expect(done.scheduled_at).toBeNull();
    // The counts come from the runs read model; the messages read model may still be catching up.
    await settled(t);

    const rows = await t.sql<{ recipient_id: string; tenant: string | null }>(
      'SELECT recipient_id, tenant FROM rm_messages WHERE environment = $1 AND workflow_key = $2 ORDER BY recipient_id',
      [environment, key],
    );
    expect(rows.map((r) => `${r.recipient_id}/${r.tenant ?? '-'}`).sort()).toEqual([`${ids[0]}/-`, `${ids[1]}/-`, `${ids[2]}/acme`].sort());
    const feedOf = await knock.users.feeds.listItems(
      ids[0],
      (await t.sql<{ id: string }>(`SELECT id FROM rm_channels WHERE key = 'in-app'`))[0].id,
    );
    expect(feedOf.entries.some((e: any) => JSON.stringify(e.blocks).includes('Launching, A'))).toBe(true);

    const runs = await t.http<{ items: any[] }>('GET', `/v1/workflow_recipient_runs?workflow=${key}`);
    expect(runs.status).toBe(200);
    expect(runs.body.items).toHaveLength(3);
    for (const run of runs.body.items)
      expect(run.trigger_source).toMatchObject({ type: 'broadcast', broadcast_key: key, audience_key: audience });

    // Sent once: sending again or editing is refused.
    expect(await rejection(mgmt.broadcasts.send(key, { environment }))).toMatchObject({ status: 400 });
    expect(await rejection(upsert(key, { name: 'Again', steps: [] }))).toMatchObject({ status: 400 });
  });

  it('sends to a dynamic audience: the users its segments hold when the send runs', async () => {
    const audience = uniqueKey('dyn');
    const key = uniqueKey('dynlaunch');
    const plan = uniqueKey('plan');
    const [pro, other] = [uniqueKey('pro'), uniqueKey('other')];
    await mgmt.audiences.upsert(audience, {
      environment,
      audience: {
        type: 'dynamic',
        name: audience,
        segments: [{ conditions: [{ property: 'recipient.plan', operator: 'equal_to', argument: plan }] }],
      },
    } as never);
    await knock.users.update(pro, { name: 'Pro', plan } as never);
    await knock.users.update(other, { name: 'Other', plan: 'free' } as never);
    await settled(t);
    await upsert(key, { name: 'Dynamic launch', target_audience_key: audience, steps: [feed('feed', 'Hello {{ recipient.name }}')] });
    await mgmt.broadcasts.send(key, { environment });
    const done = await eventually(
      () => get(key),
      (b) => b.send_status === 'sent' && b.counts.messages + b.counts.skips === 1,
    );
    expect(done.counts).toEqual({ recipients: 1, messages: 1, skips: 0 });
    await settled(t);
    const rows = await t.sql<{ recipient_id: string }>(
      'SELECT recipient_id FROM rm_messages WHERE environment = $1 AND workflow_key = $2',
      [environment, key],
    );
    expect(rows.map((r) => r.recipient_id)).toEqual([pro]);
  });

  it('skips a member who opted out of the broadcast category', async () => {
    const audience = uniqueKey('aud');
    const key = uniqueKey('optout');
    const [stays, leaves] = [uniqueKey('stay'), uniqueKey('leave')];
    await knock.audiences.addMembers(
      audience,
      { members: [{ user: { id: stays } }, { user: { id: leaves } }] },
      { query: { create_audience: true } },
    );
    await knock.users.setPreferences(leaves, 'default', { categories: { newsletter: false } });
    await upsert(key, { name: 'News', target_audience_key: audience, categories: ['newsletter'], steps: [feed('feed', 'News')] });
    await mgmt.broadcasts.send(key, { environment });
    await eventually(
      () => get(key),
      (b) => b.send_status === 'sent' && b.counts.messages + b.counts.skips === 2,
    );
    // The counts come from the runs read model alone; the messages read model may still be catching up.
    await settled(t);
    const done = await get(key);
    expect(done.counts).toEqual({ recipients: 2, messages: 1, skips: 1 });
    const rows = await t.sql<{ recipient_id: string }>(
      'SELECT recipient_id FROM rm_messages WHERE environment = $1 AND workflow_key = $2',
      [environment, key],
    );
    expect(rows.map((r) => r.recipient_id)).toEqual([stays]);
  });

  it('schedules a send for send_at, which the worker starts when due; a scheduled send canceled goes back to draft', async () => {
    const audience = uniqueKey('aud');
    await knock.audiences.addMembers(audience, { members: [{ user: { id: uniqueKey('s') } }] }, { query: { create_audience: true } });
    const later = uniqueKey('later');
    await upsert(later, { name: 'Later', target_audience_key: audience, steps: [feed('feed', 'Later')] });
    const farOff = '2999-01-01T00:00:00Z';
    const scheduled = (await mgmt.broadcasts.send(later, { environment, send_at: farOff })) as any;
    expect(scheduled.broadcast).toMatchObject({ status: 'scheduled', send_status: 'scheduled', scheduled_at: '2999-01-01T00:00:00.000Z' });
    const canceled = (await mgmt.broadcasts.cancel(later, { environment })) as any;
    expect(canceled.broadcast).toMatchObject({ status: 'draft', send_status: 'draft', scheduled_at: null });
    expect(await rejection(mgmt.broadcasts.cancel(later, { environment }))).toMatchObject({ status: 400 });

    // Due soon: the worker's sender starts it once due (waiting for the state, not for a time).
    const soon = uniqueKey('soon');
    await upsert(soon, { name: 'Soon', target_audience_key: audience, steps: [feed('feed', 'Soon')] });
    await mgmt.broadcasts.send(soon, { environment, send_at: new Date(Date.now() + 1500).toISOString() });
    const done = await eventually(
      () => get(soon),
      (b) => b.send_status === 'sent',
    );
    expect(done.counts.recipients).toBe(1);
  });

  /** The run a one-member broadcast started (its WorkflowTriggered). */
  const runOf = async (key: string) =>
    (
      await eventually(
        () =>
          t.sql<{ id: string }>(
            `SELECT data->>'workflow_run_id' AS id FROM es_events WHERE event_type = 'WorkflowTriggered' AND data->'trigger_source'->>'broadcast_key' = $1`,
            [key],
          ),
        (rows) => rows.length === 1,
      )
    )[0].id;
  const oneMember = async () => {
    const audience = uniqueKey('aud');
    const user = uniqueKey('u');
    await knock.audiences.addMembers(audience, { members: [{ user: { id: user, name: user } }] }, { query: { create_audience: true } });
    return { audience, user };
  };

  it("honours its channel steps' send windows like a workflow run: outside the window the run waits for it", async () => {
    const { audience } = await oneMember();
    const key = uniqueKey('window');
    const days = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
    const now = new Date();
    // Closed today and tomorrow (UTC: the member has no time zone), open the other days.
    const closed = [days[now.getUTCDay()], days[(now.getUTCDay() + 1) % 7]];
    const windows = days.map((day) => ({ day, type: closed.includes(day) ? 'do_not_send' : 'send' }));
    await upsert(key, { name: 'Window', target_audience_key: audience, steps: [feed('feed', 'Later', { send_windows: windows })] });
    await mgmt.broadcasts.send(key, { environment });
    const runId = await runOf(key);
    const [paused] = await pausedRuns(t, runId);
    const pause = paused.events.find((e) => e.type === 'RunPaused')!.data;
    expect(pause).toMatchObject({ reason: 'send_window', step_ref: 'feed' });
    expect(Date.parse(pause.resume_at)).toBeGreaterThan(now.getTime() + 20 * 3600_000);
    expect(await messagesOf(t, runId)).toEqual([]);
  });

  it('evaluates branch steps with the same engine: each member takes the branch its properties select', async () => {
    const audience = uniqueKey('aud');
    const [pro, basic] = [uniqueKey('pro'), uniqueKey('basic')];
    await knock.audiences.addMembers(
      audience,
      { members: [{ user: { id: pro, plan: 'pro' } as never }, { user: { id: basic, plan: 'free' } as never }] },
      { query: { create_audience: true } },
    );
    const key = uniqueKey('branchy');
    await upsert(key, {
      name: 'Branchy',
      target_audience_key: audience,
      steps: [
        {
          type: 'branch',
          ref: 'route',
          branches: [
            {
              name: 'pro',
              conditions: { all: [{ variable: 'recipient.plan', operator: 'equal_to', argument: 'pro' }] },
              steps: [feed('pro_feed', 'PRO')],
            },
            { name: 'default', steps: [feed('basic_feed', 'BASIC')] },
          ],
        },
      ],
    });
    await mgmt.broadcasts.send(key, { environment });
    await eventually(
      () => get(key),
      (b) => b.send_status === 'sent' && b.counts.messages === 2,
    );
    await settled(t);
    const rows = await t.sql<{ recipient_id: string; step_ref: string }>(
      `SELECT recipient_id, step_ref FROM rm_messages WHERE environment = $1 AND workflow_key = $2`,
      [environment, key],
    );
    expect(Object.fromEntries(rows.map((r) => [r.recipient_id, r.step_ref]))).toEqual({ [pro]: 'pro_feed', [basic]: 'basic_feed' });
  });

  it('scheduled_at on upsert schedules the send (a durable timer, like send_at); a past time is a 422 writing nothing', async () => {
    const { audience } = await oneMember();
    const far = uniqueKey('far');
    const saved = (await upsert(far, {
      name: 'Far',
      target_audience_key: audience,
      steps: [feed('feed', 'Far')],
      scheduled_at: '2999-01-01T00:00:00Z',
    })) as any;
    expect(saved.broadcast).toMatchObject({ status: 'scheduled', send_status: 'scheduled', scheduled_at: '2999-01-01T00:00:00.000Z' });
    expect((await mgmt.broadcasts.cancel(far, { environment })) as any).toMatchObject({ broadcast: { send_status: 'draft' } });

    const past = uniqueKey('past');
    const refused = await rejection(
      upsert(past, { name: 'Past', target_audience_key: audience, steps: [], scheduled_at: '2001-01-01T00:00:00Z' }),
    );
    expect(refused.status).toBe(422);
    expect(refused.error).toMatchObject({ code: 'invalid_params', errors: [expect.objectContaining({ field: 'broadcast.scheduled_at' })] });
    expect(await rejection(get(past))).toMatchObject({ status: 404 });
    const malformed = await rejection(upsert(past, { name: 'Past', steps: [], scheduled_at: 'tomorrow' }));
    expect(malformed.status).toBe(422);

    const soon = uniqueKey('soon');
    const soonAt = new Date(Date.now() + 1500).toISOString();
    await upsert(soon, { name: 'Soon', target_audience_key: audience, steps: [feed('feed', 'Soon')], scheduled_at: soonAt });
    const done = await eventually(
      () => get(soon),
      (b) => b.send_status === 'sent' && b.counts.messages === 1,
    );
    expect(done.counts.recipients).toBe(1);
    // Sent as scheduled: the time it was scheduled for stays on it (ADR 0275).
    expect(done.scheduled_at).toBe(soonAt);
    expect(done.sent_at).not.toBeNull();
  });

  it('goal_attachment: a goal event converts the runs the broadcast started; a missing goal saves it invalid', async () => {
    const svc = <T = any>(method: string, path: string, body?: unknown) =>
      t.http<T>(method, `${path}${path.includes('?') ? '&' : '?'}environment=${environment}`, { key: t.serviceToken, body });
    const missing = (await upsert(uniqueKey('nogoal'), { name: 'x', steps: [], goal_attachment: { goal_key: 'no-such-goal' } })) as any;
    expect(missing.broadcast).toMatchObject({ valid: false, errors: [expect.objectContaining({ field: 'goal_attachment.goal_key' })] });

    const source = uniqueKey('billing');
    const goal = uniqueKey('goal');
    const event = { event_type: 'integration_source', integration_source_key: source, event_key: 'invoice.paid' };
    expect((await svc('PUT', `/v1/goals/${goal}`, { goal: { name: 'Paid', condition: { event } } })).status).toBe(200);
    const { audience, user } = await oneMember();
    const key = uniqueKey('goaly');
    const saved = (await upsert(key, {
      name: 'Goaly',
      target_audience_key: audience,
      steps: [feed('feed', 'Pay')],
      goal_attachment: { goal_key: goal, attribution_window_days: 3 },
    })) as any;
    expect(saved.broadcast).toMatchObject({ valid: true, goal_attachment: { goal_key: goal, attribution_window_days: 3 } });
    await mgmt.broadcasts.send(key, { environment });
    await eventually(
      () => get(key),
      (b) => b.send_status === 'sent' && b.counts.messages === 1,
    );
    const src = await svc('PUT', `/v1/sources/${source}`, {
      source: { name: 'Billing', environment_settings: { [environment]: { settings: { idempotency_key_path: 'body.id' } } } },
    });
    const { endpoint, ingest_key } = src.body.source.environment_settings[environment].settings;
    const posted = await t.http('POST', new URL(endpoint).pathname, {
      key: ingest_key,
      body: { event: 'invoice.paid', id: 'e1', user_id: user },
    });
    expect(posted.status).toBe(202);
    const conversions = await svc('GET', `/v1/goals/${goal}/conversions`);
    expect(conversions.body.entries).toEqual([{ workflow_key: key, conversions: 1, last_converted_at: expect.any(String) }]);
  });

  it('refuses steps a broadcast may not hold, a missing audience, and bad input, writing nothing', async () => {
    const key = uniqueKey('bad');
    const refused = await rejection(
      upsert(key, { name: 'Bad', steps: [{ type: 'batch', ref: 'b', settings: { batch_window: { unit: 'seconds', value: 30 } } }] }),
    );
    expect(refused.status).toBe(422);
    expect(refused.error).toMatchObject({ code: 'invalid_params', errors: [expect.objectContaining({ field: 'broadcast.steps.0.type' })] });
    expect(await rejection(get(key))).toMatchObject({ status: 404 });
    const noName = await rejection(upsert(key, { steps: [] }));
    expect(noName.status).toBe(422);

    // Step refs are unique, as in workflows.
    const twice = await rejection(upsert(key, { name: 'Twice', steps: [feed('feed', 'x'), feed('feed', 'y')] }));
    expect(twice.status).toBe(422);
    expect(twice.error).toMatchObject({ code: 'invalid_params', errors: [expect.objectContaining({ field: 'broadcast.steps.1.ref' })] });
    expect(await rejection(get(key))).toMatchObject({ status: 404 });

    // A target audience that does not exist is a broken reference: saved invalid, refused on send and on validate.
    const saved = (await upsert(key, { name: 'Nobody', target_audience_key: 'no-such-audience', steps: [feed('feed', 'x')] })) as any;
    expect(saved.broadcast).toMatchObject({ valid: false, errors: [expect.objectContaining({ field: 'target_audience_key' })] });
    const missing = await rejection(mgmt.broadcasts.send(key, { environment }));
    expect(missing.status).toBe(422);
    expect(missing.error).toMatchObject({ code: 'broadcast_invalid', errors: [expect.objectContaining({ field: 'target_audience_key' })] });
    expect((await get(key)).send_status).toBe('draft');
    const unchecked = await rejection(
      mgmt.broadcasts.validate(key, {
        environment,
        broadcast: { name: 'Nobody', target_audience_key: 'no-such-audience', steps: [] },
      } as never),
    );
    expect(unchecked.status).toBe(422);
    expect(unchecked.error).toMatchObject({ errors: [expect.objectContaining({ field: 'broadcast.target_audience_key' })] });

    // The audience archived after a valid save: the send is refused for it.
    const audience = uniqueKey('gone');
    await knock.audiences.addMembers(audience, { members: [{ user: { id: uniqueKey('g') } }] }, { query: { create_audience: true } });
    await upsert(key, { name: 'Soon gone', target_audience_key: audience, steps: [feed('feed', 'x')] });
    expect((await get(key)).valid).toBe(true);
    await mgmt.audiences.archive(audience, { environment });
    const archived = await rejection(mgmt.broadcasts.send(key, { environment }));
    expect(archived.status).toBe(422);
    expect(archived.error).toMatchObject({ code: 'invalid_params', errors: [expect.objectContaining({ field: 'target_audience_key' })] });

    // A send_at already past is refused (leaving it out sends now); nothing is sent.
    await upsert(key, { name: 'Everyone', steps: [feed('feed', 'x')] });
    const past = await rejection(mgmt.broadcasts.send(key, { environment, send_at: '2020-01-01T00:00:00Z' } as never));
    expect(past.status).toBe(422);
    expect(past.error).toMatchObject({ code: 'invalid_params', errors: [expect.objectContaining({ field: 'send_at' })] });
    expect((await get(key)).send_status).toBe('draft');
    expect(await rejection(mgmt.broadcasts.send('never-made', { environment }))).toMatchObject({ status: 404 });

    const validated = (await mgmt.broadcasts.validate(key, { environment, broadcast: { name: 'Renamed', steps: [] } } as never)) as any;
    expect(validated.broadcast).toMatchObject({ name: 'Renamed' });
    expect((await get(key)).name).toBe('Everyone');
  });

  it('refuses to archive an audience a broadcast is scheduled to, until the send is canceled', async () => {
    const key = uniqueKey('held');
    const audience = uniqueKey('held-aud');
    await knock.audiences.addMembers(audience, { members: [{ user: { id: uniqueKey('h') } }] }, { query: { create_audience: true } });
    await upsert(key, { name: 'Held', target_audience_key: audience, steps: [feed('feed', 'x')] });
    await mgmt.broadcasts.send(key, { environment, send_at: new Date(Date.now() + 3_600_000).toISOString() } as never);
    expect((await get(key)).send_status).toBe('scheduled');
    const held = await rejection(mgmt.audiences.archive(audience, { environment }));
    expect(held.status).toBe(400);
    expect(held.error).toMatchObject({ code: 'audience_in_use', message: expect.stringContaining(key) });
    // Nothing archived: members can still be added.
    await knock.audiences.addMembers(audience, { members: [{ user: { id: uniqueKey('h') } }] });
    await mgmt.broadcasts.cancel(key, { environment });
    expect(await mgmt.audiences.archive(audience, { environment })).toMatchObject({ result: 'success' });
  });
});

describe('broadcasts: cancel while sending, over HTTP', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { BROADCASTS_PAGE_SIZE: '2' } });
  });
  afterAll(async () => t?.close());

  it("stops after the page in progress: the worker's sender is held after its first page until the cancel is recorded", async () => {
    const knock = t.knock();
    const mgmt = t.mgmt();
    const audience = uniqueKey('aud');
    const key = uniqueKey('cancel');
    await knock.audiences.addMembers(
      audience,
      { members: Array.from({ length: 6 }, (_, i) => ({ user: { id: `${key}-u${i}` } })) },
      { query: { create_audience: true } },
    );
    await mgmt.broadcasts.upsert(key, {
      environment,
      broadcast: { name: 'Cancel', target_audience_key: audience, steps: [feed('feed', 'Hi')] },
    } as never);

    const sender = t.app.get(BroadcastSendingService).sender;
    let reached!: () => void;
    const firstPage = new Promise<void>((resolve) => (reached = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    sender.onPageTriggered(async (page) => {
      if (page.key !== key) return;
      reached();
      await released;
    });
    try {
      await mgmt.broadcasts.send(key, { environment });
      await firstPage;
      const canceled = (await mgmt.broadcasts.cancel(key, { environment })) as any;
      expect(canceled.broadcast).toMatchObject({ send_status: 'canceled', status: 'sent' });
    } finally {
      release();
      sender.onPageTriggered(undefined);
    }
    // The page in progress is recorded; nothing after it is triggered.
    const done = await eventually(
      () => mgmt.broadcasts.retrieve(key, { environment }) as Promise<any>,
      (b) => b.counts.recipients === 2 && b.counts.messages === 2,
    );
    expect(done.send_status).toBe('canceled');
    const runs = await t.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM es_events WHERE event_type = 'WorkflowTriggered' AND data->'trigger_source'->>'broadcast_key' = $1`,
      [key],
    );
    expect(runs[0].n).toBe(1);
    expect(await rejection(mgmt.broadcasts.cancel(key, { environment }))).toMatchObject({ status: 400 });
  });
});
