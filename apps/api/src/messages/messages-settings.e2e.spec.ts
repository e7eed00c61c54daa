import Knock from '@knocklabs/node';
import { messageDecider, messageStream } from '@notify/domain';
import { randomUUID } from 'node:crypto';
import { putWorkflow } from '../../../../test/support/delivery';
import { rejection } from '../../../../test/support/recipients';
import { eventually } from '../../../../test/support/runs';
import { startTestApp, TestApp } from '../../../../test/support/test-app';

const DAY = 86_400_000;

/** Settings around messages: link tracking, the retention window, the batch deduplication limit. */
describe('messages: link tracking, retention, batch deduplication', () => {
  let t: TestApp;
  let knock: Knock;

  /** Appends a message created `daysAgo` days ago straight to the log, as the engine would have. */
  const oldMessage = async (channelType: 'http' | 'in_app_feed', daysAgo: number) => {
    const id = randomUUID();
    const at = new Date(Date.now() - daysAgo * DAY).toISOString();
    const events = messageDecider.decide(
      {
        type: 'CreateMessage',
        delivery: 'now',
        now: at,
        message: {
          message_id: id,
          channel: { id: randomUUID(), key: channelType, type: channelType, provider: channelType === 'http' ? 'webhook' : 'knock-in-app' },
          recipient: { type: 'user', id: 'old-timer' },
          recipient_snapshot: null,
          workflow: { key: 'ancient', categories: [], version: null },
          workflow_run_id: randomUUID(),
          workflow_recipient_run_id: randomUUID(),
          step_ref: 's',
          tenant: null,
          actors: [],
          activities: [],
          total_activities: 1,
          total_actors: 0,
          data: null,
          content:
            channelType === 'http'
              ? { channel_type: 'http', url: 'https://x.example', method: 'POST', headers: {}, body: null }
              : { channel_type: 'in_app_feed', blocks: [{ type: 'markdown', name: 'body', content: 'old', rendered: '<p>old</p>' }] },
          metadata: null,
          sandbox: false,
          created_at: at,
        },
      },
      messageDecider.initialState(),
    );
    const append = await t.store.append(
      messageStream('development', id),
      events.map((e) => ({ id: randomUUID(), type: e.type, data: e.data, metadata: { environment: 'development', schema_version: 1 } })),
    );
    await t.runtime.waitFor(append.position, [{ type: 'MessageDelivered', streamId: append.streamId }], 60_000);
    return id;
  };

  beforeAll(async () => {
    t = await startTestApp({
      env: {
        LINK_TRACKING_ENABLED: 'true',
        PUBLIC_URL: 'https://links.notify.test',
        RATE_LIMIT_ENABLED: 'true',
        MESSAGE_RETENTION_DAYS: '30',
      },
    });
    knock = t.knock();
    await putWorkflow(t, 'tracked', [
      {
        type: 'channel',
        ref: 'feed',
        channel_key: 'in-app',
        template: {
          markdown_body: 'Read [the docs](https://docs.example/page?x=1&y=2) or mail [us](mailto:hi@example.com)',
          action_url: 'https://app.example/open?who={{ recipient.id }}',
          action_buttons: [
            { label: 'Go', action: 'https://app.example/go' },
            { label: 'Stay', action: '/inbox' },
          ],
        },
      },
    ]);
    await knock.users.update('ada', { name: 'Ada' });
    await knock.users.update('old-timer', {});
  });
  afterAll(async () => t?.close());

  it('rewrites links to signed tracked links; following one records link_clicked and redirects', async () => {
    const { workflow_run_id } = await knock.workflows.trigger('tracked', { recipients: ['ada'] });
    const row = await eventually(
      async () => (await t.sql('SELECT id, content FROM rm_messages WHERE workflow_run_id = $1', [workflow_run_id]))[0],
      60_000,
      'the message',
    );
    const rendered: string = row.content.blocks[0].rendered;
    const href = /href="(https:\/\/links\.notify\.test\/v1\/links\/[^"]+)"/.exec(rendered)?.[1];
    expect(href).toBeDefined();
    expect(rendered).toContain('href="mailto:hi@example.com"');
    expect(rendered).not.toContain('docs.example');

    const path = new URL(href!).pathname;
    const res = await fetch(`${t.url}${path}`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://docs.example/page?x=1&y=2');
    const message = await eventually(
      async () => {
        const m = await knock.messages.get(row.id);
        return m.link_clicked_at ? m : undefined;
      },
      10_000,
      'link_clicked',
    );
    expect(message.engagement_statuses).toEqual(['seen', 'read', 'link_clicked']);
    const events = (await knock.messages.listEvents(row.id)).items;
    expect(events[0]).toMatchObject({
      type: 'message.link_clicked',
      data: expect.objectContaining({ url: 'https://docs.example/page?x=1&y=2' }),
    });

    // The action URL and absolute button actions are tracked links too; a relative action is left alone.
    const tracked = (url: string) => url.startsWith('https://links.notify.test/v1/links/');
    expect(tracked(row.content.action_url)).toBe(true);
    expect(row.content.blocks[1].buttons.map((b: { action: string }) => (tracked(b.action) ? 'tracked' : b.action))).toEqual([
      'tracked',
      '/inbox',
    ]);
    const open = await fetch(`${t.url}${new URL(row.content.action_url).pathname}`, { redirect: 'manual' });
    expect(open.headers.get('location')).toBe('https://app.example/open?who=ada');
    const go = await fetch(`${t.url}${new URL(row.content.blocks[1].buttons[0].action).pathname}`, { redirect: 'manual' });
    expect(go.headers.get('location')).toBe('https://app.example/go');
    const clicked = async () =>
      (await knock.messages.listEvents(row.id)).items
        .filter((e) => e.type === 'message.link_clicked')
        .map((e) => (e.data as { url: string }).url);
    expect(
      (await eventually(async () => ((await clicked()).length === 3 ? clicked() : undefined), 60_000, 'three clicks'))!.sort(),
    ).toEqual(['https://app.example/go', 'https://app.example/open?who=ada', 'https://docs.example/page?x=1&y=2']);

    const token = path.split('/').pop()!;
    const [payload, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify(['development', row.id, 'https://evil.example'])).toString('base64url');
    for (const bad of [`${forged}.${signature}`, payload, 'garbage']) {
      const refused = await fetch(`${t.url}/v1/links/${bad}`, { redirect: 'manual' });
      expect(refused.status).toBe(404);
    }
  });

  it('leaves messages older than the retention window out, except in-app ones', async () => {
    const oldHook = await oldMessage('http', 40);
    const oldFeed = await oldMessage('in_app_feed', 40);
    const recentHook = await oldMessage('http', 10);
    const ids = (await knock.users.listMessages('old-timer')).items.map((m) => m.id);
    expect(ids).toEqual([recentHook, oldFeed]);
    expect((await knock.messages.list({ source: 'ancient' })).items.map((m) => m.id)).toEqual([recentHook, oldFeed]);
    expect((await rejection(knock.messages.get(oldHook))).status).toBe(404);
    expect((await knock.messages.get(oldFeed)).id).toBe(oldFeed);
    expect(await knock.messages.batch.getContent({ message_ids: [oldHook, oldFeed] })).toHaveLength(1);
  });

  it('keeps one update per message per second through batch endpoints and names the dropped ids in x-ratelimited-message_ids', async () => {
    const { workflow_run_id } = await knock.workflows.trigger('tracked', { recipients: ['ada', 'old-timer'] });
    const rows = await eventually(
      async () => {
        const r = await t.sql('SELECT id FROM rm_messages WHERE workflow_run_id = $1 ORDER BY recipient_id', [workflow_run_id]);
        return r.length === 2 ? r : undefined;
      },
      20_000,
      'two messages',
    );
    const [a, b] = rows.map((r: { id: string }) => r.id);
    const first = await t.http('POST', '/v1/messages/batch/seen', {
      body: { message_ids: [a] },
      headers: { origin: 'https://app.example' },
    });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimited-message_ids')).toBeNull();
    expect(first.headers.get('access-control-expose-headers')).toContain('x-ratelimited-message_ids');
    const second = await t.http('POST', '/v1/messages/batch/read', { body: { message_ids: [a, b] } });
    expect(second.status).toBe(200);
    expect(second.headers.get('x-ratelimited-message_ids')).toBe(a);
    expect(second.body.map((m: { id: string }) => m.id)).toEqual([b]);
    expect((await knock.messages.get(a)).read_at).toBeNull();
    expect((await knock.messages.get(b)).read_at).not.toBeNull();
    // A single-message call is not a batch: no limit.
    expect((await knock.messages.markAsRead(a)).read_at).not.toBeNull();
  });
});
