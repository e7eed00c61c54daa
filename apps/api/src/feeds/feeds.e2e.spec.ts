import Knock from '@knocklabs/node';
import { messageDecider, fold, MessageEvent } from '@notify/domain';
import { putWorkflow } from '../../../../test/support/delivery';
import { rebuildAndCompare } from '../../../../test/support/rebuild';
import { countEvents, rejection } from '../../../../test/support/recipients';
import { eventually } from '../../../../test/support/runs';
import { startTestApp, TestApp } from '../../../../test/support/test-app';

const step = (body: string, over: Record<string, unknown> = {}) => ({
  type: 'channel',
  ref: 'feed',
  channel_key: 'in-app',
  template: { markdown_body: body, ...over },
});

/** In-app feeds through the official client: entries, filters, exact counts (also under concurrent engagement), pagination. */
describe('feeds', () => {
  let t: TestApp;
  let knock: Knock;
  let channelId: string;
  /** carol's messages, oldest first: news n=1 (actor boss), news n=2 (tenant acme), ops n=3. */
  const carol: string[] = [];
  let startedAt: string;

  const feed = async (userId: string, query = '') => {
    const res = await t.http('GET', `/v1/users/${userId}/feeds/${channelId}${query ? `?${query}` : ''}`);
    if (res.status !== 200) throw new Error(`feed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const messageOfRun = async (runId: string) =>
    await eventually(
      async () => (await t.sql('SELECT id, channel_id FROM rm_messages WHERE workflow_run_id = $1', [runId]))[0],
      60_000,
      'the message',
    );

  beforeAll(async () => {
    t = await startTestApp();
    knock = t.knock();
    await putWorkflow(
      t,
      'feed-news',
      [
        step('**Hi** {{ recipient.name }}, news {{ data.n }}', {
          action_buttons: [{ label: 'Open', action: 'https://example.com/n/{{ data.n }}' }],
        }),
      ],
      { categories: ['news'] },
    );
    await putWorkflow(t, 'feed-ops', [step('Ops {{ data.n }}')], { categories: ['ops'] });
    expect(
      (await t.http('PUT', '/v1/variables/app_name', { key: t.serviceToken, body: { variable: { value: 'Acme App', type: 'public' } } }))
        .status,
    ).toBe(200);
    expect(
      (
        await t.http('PUT', '/v1/variables/api_secret', {
          key: t.serviceToken,
          body: { variable: { value: 'sekret-value-123', type: 'secret' } },
        })
      ).status,
    ).toBe(200);
    await knock.users.update('carol', { name: 'Carol' });
    await knock.users.update('boss', { name: 'Boss', email: 'boss@example.com' });
    startedAt = new Date(Date.now() - 1000).toISOString();
    const triggers: [string, Record<string, unknown>][] = [
      [
        'feed-news',
        {
          actor: 'boss',
          data: { n: 1, nested: { deep: true }, attachments: [{ name: 'a.pdf', content_type: 'application/pdf', content: 'QQ==' }] },
        },
      ],
      ['feed-news', { data: { n: 2 }, tenant: 'acme' }],
      ['feed-ops', { data: { n: 3 } }],
    ];
    for (const [workflow, extra] of triggers) {
      const { workflow_run_id } = await knock.workflows.trigger(workflow, { recipients: ['carol'], ...extra } as never);
      const message = await messageOfRun(workflow_run_id);
      carol.push(message.id);
      channelId = message.channel_id;
    }
  });
  afterAll(async () => t?.close());

  it('renders entries again in the asked locale, from the template the run was triggered with', async () => {
    const translation = (locale: string, content: Record<string, string>) =>
      t.http('PUT', `/v1/translations/${locale}?environment=development`, {
        key: t.serviceToken,
        body: { translation: { format: 'json', content: JSON.stringify(content) } },
      });
    expect((await translation('en', { greet: 'Hello' })).status).toBe(200);
    expect((await translation('fr', { greet: 'Bonjour' })).status).toBe(200);
    await putWorkflow(t, 'feed-i18n', [step('{{ "greet" | t }} {{ recipient.name }}, [n{{ data.n }}](https://example.com/{{ data.n }})')]);
    await knock.users.update('erin', { name: 'Erin', locale: 'en' });
    const { workflow_run_id } = await knock.workflows.trigger('feed-i18n', { recipients: ['erin'], data: { n: 7 } } as never);
    const { id } = await messageOfRun(workflow_run_id);
    const body = async (query = '') =>
      (await feed('erin', query)).entries.find((e: { id: string }) => e.id === id).blocks[0] as { content: string; rendered: string };

    const english = await body();
    expect(english.content).toBe('Hello Erin, [n7](https://example.com/7)');
    const french = await body('locale=fr');
    expect(french.content).toBe('Bonjour Erin, [n7](https://example.com/7)');
    expect(french.rendered).toBe(english.rendered.replace('Hello', 'Bonjour'));
    // A later version of the workflow does not change what the message was.
    await putWorkflow(t, 'feed-i18n', [step('CHANGED {{ "greet" | t }}')]);
    expect((await body('locale=fr-CA')).content).toBe('Bonjour Erin, [n7](https://example.com/7)');
    // Without locale: as rendered at creation; the stored message is untouched.
    expect((await body()).content).toBe('Hello Erin, [n7](https://example.com/7)');
    expect((await t.sql('SELECT content FROM rm_messages WHERE id = $1', [id]))[0].content.blocks[0].content).toBe(
      'Hello Erin, [n7](https://example.com/7)',
    );
    // Counts, pagination and the rest of the answer are the same in any locale.
    const [plain, localized] = [await feed('erin'), await feed('erin', 'locale=fr')];
    expect(localized.meta).toEqual(plain.meta);
    expect(localized.page_info).toEqual(plain.page_info);
    expect({ ...localized.entries[0], blocks: undefined }).toEqual({ ...plain.entries[0], blocks: undefined });
  });

  it('answers entries newest first with cursors, rendered blocks, activities, actors, data without attachments, exact meta and public vars', async () => {
    const body = await feed('carol');
    expect(body.entries.map((e: { id: string }) => e.id)).toEqual([...carol].reverse());
    expect(body.meta).toEqual({ __typename: 'FeedMetadata', total_count: 3, unread_count: 3, unseen_count: 3 });
    expect(body.vars).toEqual({ app_name: 'Acme App' });
    expect(JSON.stringify(body)).not.toContain('sekret-value-123');
    const first = body.entries[2];
    expect(first).toMatchObject({
      __typename: 'FeedItem',
      __cursor: expect.any(String),
      channel_id: channelId,
      total_activities: 1,
      total_actors: 1,
      tenant: null,
      source: { __typename: 'NotificationSource', key: 'feed-news', categories: ['news'] },
      data: { n: 1, nested: { deep: true } },
      read_at: null,
      seen_at: null,
      archived_at: null,
    });
    expect(first.data.attachments).toBeUndefined();
    expect(first.activities[0].data.attachments).toBeUndefined();
    expect(first.blocks[0]).toMatchObject({
      type: 'markdown',
      content: '**Hi** Carol, news 1',
      rendered: expect.stringContaining('<strong>Hi</strong>'),
    });
    expect(first.blocks[1]).toEqual({
      type: 'button_set',
      name: 'actions',
      buttons: [{ name: 'primary', label: 'Open', action: 'https://example.com/n/1' }],
    });
    expect(first.actors).toEqual([expect.objectContaining({ __typename: 'User', id: 'boss', name: 'Boss', email: 'boss@example.com' })]);
    expect(first.activities).toEqual([
      expect.objectContaining({
        __typename: 'Activity',
        actor: expect.objectContaining({ id: 'boss', name: 'Boss' }),
        recipient: expect.objectContaining({ id: 'carol' }),
        data: { n: 1, nested: { deep: true } },
      }),
    ]);

    // The page is cached under the feed's version; actors are current on every read.
    await knock.users.update('boss', { name: 'Big Boss' });
    const again = await feed('carol');
    expect(again.entries[2].actors[0]).toMatchObject({ id: 'boss', name: 'Big Boss' });
    expect(again.entries[2].activities[0].actor).toMatchObject({ id: 'boss', name: 'Big Boss' });
    await knock.users.update('boss', { name: 'Boss' });
    expect(
      (await t.http('PUT', '/v1/variables/app_name', { key: t.serviceToken, body: { variable: { value: 'Acme App 2', type: 'public' } } }))
        .status,
    ).toBe(200);
    expect((await feed('carol')).vars).toEqual({ app_name: 'Acme App 2' });
    expect((await feed('nobody-here')).vars).toEqual({ app_name: 'Acme App 2' });

    // The official client reads the same entries.
    const page = await knock.users.feeds.listItems('carol', channelId);
    expect(page.entries.map((e) => e.id)).toEqual([...carol].reverse());
    expect(await knock.users.feeds.getSettings('carol', channelId)).toEqual({ features: { branding_required: false } });
  });

  it('pages with before and after, and the entry cursors are the page cursors', async () => {
    const one = await feed('carol', 'page_size=1');
    expect(one.entries.map((e: { id: string }) => e.id)).toEqual([carol[2]]);
    expect(one.page_info.after).toBe(one.entries[0].__cursor);
    const two = await feed('carol', `page_size=1&after=${one.page_info.after}`);
    expect(two.entries.map((e: { id: string }) => e.id)).toEqual([carol[1]]);
    const three = await feed('carol', `page_size=5&after=${two.entries[0].__cursor}`);
    expect(three.entries.map((e: { id: string }) => e.id)).toEqual([carol[0]]);
    expect(three.page_info.after).toBeNull();
    const back = await feed('carol', `page_size=5&before=${three.entries[0].__cursor}`);
    expect(back.entries.map((e: { id: string }) => e.id)).toEqual([carol[2], carol[1]]);
    const sdkPages: string[] = [];
    for await (const entry of knock.users.feeds.listItems('carol', channelId, { page_size: 1 })) sdkPages.push(entry.id);
    expect(sdkPages).toEqual([...carol].reverse());
  });

  it('filters by status, archived, source, tenant, has_tenant, categories, trigger data and time, with counts to match', async () => {
    await knock.messages.markAsRead(carol[0]);
    await knock.messages.markAsSeen(carol[1]);
    const ids = (body: { entries: { id: string }[] }) => body.entries.map((e) => e.id);
    const unread = await feed('carol', 'status=unread');
    expect(ids(unread)).toEqual([carol[2], carol[1]]);
    expect(unread.meta).toMatchObject({ total_count: 2, unread_count: 2, unseen_count: 1 });
    expect(ids(await feed('carol', 'status=read'))).toEqual([carol[0]]);
    expect(ids(await feed('carol', 'status=unseen'))).toEqual([carol[2]]);
    expect((await feed('carol', 'status=seen')).meta.total_count).toBe(2);

    await knock.messages.archive(carol[2]);
    const visible = await feed('carol');
    expect(ids(visible)).toEqual([carol[1], carol[0]]);
    expect(visible.meta).toEqual({ __typename: 'FeedMetadata', total_count: 2, unread_count: 1, unseen_count: 0 });
    const only = await feed('carol', 'archived=only');
    expect(ids(only)).toEqual([carol[2]]);
    expect(only.meta).toMatchObject({ total_count: 1, unread_count: 1, unseen_count: 1 });
    expect((await feed('carol', 'archived=include')).meta).toMatchObject({ total_count: 3, unread_count: 2, unseen_count: 1 });
    await knock.messages.unarchive(carol[2]);

    expect(ids(await feed('carol', 'source=feed-ops'))).toEqual([carol[2]]);
    const acme = await feed('carol', 'tenant=acme');
    expect(ids(acme)).toEqual([carol[1]]);
    expect(acme.meta).toMatchObject({ total_count: 1, unread_count: 1, unseen_count: 0 });
    expect(ids(await feed('carol', 'has_tenant=true'))).toEqual([carol[1]]);
    expect((await feed('carol', 'has_tenant=false')).meta).toMatchObject({ total_count: 2, unread_count: 1, unseen_count: 1 });
    const news = await feed('carol', 'workflow_categories[]=news');
    expect(ids(news)).toEqual([carol[1], carol[0]]);
    expect(news.meta).toMatchObject({ total_count: 2, unread_count: 1, unseen_count: 0 });
    expect(ids(await feed('carol', `trigger_data=${encodeURIComponent('{"n":3}')}`))).toEqual([carol[2]]);
    expect(
      ids(
        await feed(
          'carol',
          `inserted_at.gte=${encodeURIComponent(startedAt)}&inserted_at.lt=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
        ),
      ),
    ).toHaveLength(3);
    expect((await feed('carol', `inserted_at.lt=${encodeURIComponent(startedAt)}`)).meta.total_count).toBe(0);
    const sdk = await knock.users.feeds.listItems('carol', channelId, { status: 'unread', source: 'feed-news' });
    expect(sdk.entries.map((e) => e.id)).toEqual([carol[1]]);
  });

  it('shapes the answer: exclude, compact mode, locale; refuses bad parameters; an unidentified user has an empty feed', async () => {
    const trimmed = await feed('carol', 'exclude=entries.archived_at,entries.source.categories,vars');
    expect(trimmed.vars).toBeUndefined();
    expect(trimmed.entries[0].archived_at).toBeUndefined();
    expect(trimmed.entries[0].source).toEqual({ __typename: 'NotificationSource', key: 'feed-ops', version_id: expect.anything() });
    const compact = await feed('carol', 'mode=compact');
    const oldest = compact.entries[2];
    expect(oldest.activities).toBeUndefined();
    expect(oldest.total_activities).toBeUndefined();
    expect(oldest.data).toEqual({ n: 1 });
    expect(oldest.actors).toHaveLength(1);
    expect((await feed('carol', 'locale=de-DE')).entries).toHaveLength(3);

    const before = await countEvents(t);
    for (const query of [
      'status=maybe',
      'archived=never',
      'mode=full',
      'locale=!!',
      'has_tenant=perhaps',
      'exclude=a.b.c.d',
      'trigger_data=[1]',
      'page_size=500',
      'after=garbage',
    ]) {
      const res = await t.http('GET', `/v1/users/carol/feeds/${channelId}?${query}`);
      expect([query, res.status, res.body.code]).toEqual([query, 422, 'invalid_params']);
    }
    expect((await t.http('GET', '/v1/users/carol/feeds/not-a-channel')).status).toBe(422);
    expect(await countEvents(t)).toBe(before);

    const ghost = await feed('ghost');
    expect(ghost).toMatchObject({
      entries: [],
      meta: { total_count: 0, unread_count: 0, unseen_count: 0 },
      page_info: { after: null, before: null },
    });
    expect((await knock.users.feeds.listItems('ghost', channelId)).entries).toEqual([]);
  });

  it('keeps the counts exact under 1,000 concurrent engagement updates (compared with a recount and with the log)', async () => {
    await knock.users.update('dave', { name: 'Dave' });
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const { workflow_run_id } = await knock.workflows.trigger(i % 2 ? 'feed-news' : 'feed-ops', {
        recipients: ['dave'],
        data: { n: i },
        ...(i % 3 === 0 ? { tenant: 'acme' } : {}),
      } as never);
      ids.push((await messageOfRun(workflow_run_id)).id);
    }
    const routes: [string, string][] = [
      ['PUT', 'seen'],
      ['DELETE', 'seen'],
      ['PUT', 'read'],
      ['DELETE', 'read'],
      ['PUT', 'archived'],
      ['DELETE', 'archived'],
      ['PUT', 'interacted'],
    ];
    // A fixed pseudo-random sequence: several writers on each message at once.
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const updates = Array.from({ length: 1000 }, () => ({ id: ids[next() % ids.length], route: routes[next() % routes.length] }));
    // 64 requests in flight at all times (about three per message): the writers race on every
    // message, without a thousand connections opened at once (which a loaded machine resets).
    const results: Awaited<ReturnType<typeof t.http>>[] = [];
    let taken = 0;
    await Promise.all(
      Array.from({ length: 64 }, async () => {
        while (taken < updates.length) {
          const i = taken++;
          const {
            id,
            route: [method, action],
          } = updates[i];
          results[i] = await t.http(method, `/v1/messages/${id}/${action}`);
        }
      }),
    );
    expect(results.filter((r) => r.status !== 200).map((r) => [r.status, r.body])).toEqual([]);

    const recount = async () =>
      await t.sql(
        `SELECT coalesce(tenant, '') AS tenant,
             count(*) FILTER (WHERE archived_at IS NULL)::int AS total, count(*) FILTER (WHERE archived_at IS NULL AND read_at IS NULL)::int AS unread,
             count(*) FILTER (WHERE archived_at IS NULL AND seen_at IS NULL)::int AS unseen, count(*) FILTER (WHERE archived_at IS NOT NULL)::int AS archived_total,
             count(*) FILTER (WHERE archived_at IS NOT NULL AND read_at IS NULL)::int AS archived_unread, count(*) FILTER (WHERE archived_at IS NOT NULL AND seen_at IS NULL)::int AS archived_unseen
           FROM rm_messages WHERE environment = 'development' AND recipient_id = 'dave' AND channel_id = $1 GROUP BY 1 ORDER BY 1`,
        [channelId],
      );
    const counters = await t.sql(
      `SELECT tenant, total, unread, unseen, archived_total, archived_unread, archived_unseen FROM rm_feed_counts
       WHERE environment = 'development' AND user_id = 'dave' AND channel_id = $1 ORDER BY tenant`,
      [channelId],
    );
    const byTenant = (rows: { tenant: string }[]) => [...rows].sort((a, b) => a.tenant.localeCompare(b.tenant));
    const expected = await recount();
    expect(byTenant(counters)).toEqual(byTenant(expected));
    expect(expected.length).toBe(2);
    // The read model agrees with the log: each message's stream folded through the decider.
    const states = await Promise.all(
      ids.map(async (id) =>
        fold(
          messageDecider,
          (await t.store.readStream(`message-development-${id}`)).map((e) => ({ type: e.type, data: e.data }) as MessageEvent),
        ),
      ),
    );
    // Every message row shows what its stream says, timestamps and engagement_statuses alike.
    const rows = await t.sql('SELECT id, seen_at, read_at, archived_at, interacted_at FROM rm_messages WHERE id = ANY($1::uuid[])', [ids]);
    const byId = new Map(rows.map((r: { id: string }) => [r.id, r]));
    const apiMessages = new Map((await knock.messages.list({ message_ids: ids })).items.map((m) => [m.id, m]));
    ids.forEach((id, i) => {
      const row = byId.get(id) as unknown as Record<string, Date | null>;
      const state = states[i];
      expect([id, !!row.seen_at, !!row.read_at, !!row.archived_at, !!row.interacted_at]).toEqual([
        id,
        !!state.seen_at,
        !!state.read_at,
        !!state.archived_at,
        !!state.interacted_at,
      ]);
      const expected = [
        state.seen_at && 'seen',
        state.read_at && 'read',
        state.interacted_at && 'interacted',
        state.archived_at && 'archived',
      ].filter(Boolean);
      expect([id, apiMessages.get(id)!.engagement_statuses]).toEqual([id, expected]);
    });
    const fromLog = states.filter((s) => !s.archived_at);
    const meta = (await feed('dave')).meta;
    expect(meta).toEqual({
      __typename: 'FeedMetadata',
      total_count: fromLog.length,
      unread_count: fromLog.filter((s) => !s.read_at).length,
      unseen_count: fromLog.filter((s) => !s.seen_at).length,
    });
    expect(meta.total_count).toBe(expected.reduce((sum: number, r: { total: number }) => sum + r.total, 0));
    // Something actually changed, in more than one direction.
    expect(new Set(states.map((s) => `${!!s.seen_at}${!!s.read_at}${!!s.archived_at}`)).size).toBeGreaterThan(1);

    const { live, rebuilt } = await rebuildAndCompare(t, ['messages']);
    const sorted = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).sort();
    expect(sorted(rebuilt.rm_feed_counts)).toEqual(sorted(live.rm_feed_counts));
    expect(rebuilt.rm_messages).toEqual(live.rm_messages);
    expect(await rejection(knock.messages.markAsRead('00000000-0000-4000-8000-000000000000'))).toMatchObject({ status: 404 });
  });
});
