import Knock from '@knocklabs/node';
import KnockMgmt from '@knocklabs/mgmt';
import { feed, settled, uniqueKey } from '../../../../../test/support/engine';
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

    await upsert(key, { name: 'Nobody', target_audience_key: 'no-such-audience', steps: [feed('feed', 'x')] });
    const missing = await rejection(mgmt.broadcasts.send(key, { environment }));
    expect(missing.status).toBe(422);
    expect(missing.error).toMatchObject({ code: 'invalid_params', errors: [expect.objectContaining({ field: 'target_audience_key' })] });
    expect((await get(key)).send_status).toBe('draft');
    expect(await rejection(mgmt.broadcasts.send('never-made', { environment }))).toMatchObject({ status: 404 });

    const validated = (await mgmt.broadcasts.validate(key, { environment, broadcast: { name: 'Renamed', steps: [] } } as never)) as any;
    expect(validated.broadcast).toMatchObject({ name: 'Renamed' });
    expect((await get(key)).name).toBe('Nobody');
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
