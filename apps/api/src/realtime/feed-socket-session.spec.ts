import { feedFilterOf, feedQueryOf, FeedSignal, filterMatches } from './feed-filter';
import { FeedSocketSession, FeedSubscription, GuideJoin } from './feed-socket-session';
import { decodeFrame, parseFeedTopic } from './phoenix';

const CHANNEL = '11111111-1111-4111-8111-111111111111';

function session(tokenUser?: string) {
  const sent: unknown[][] = [];
  const subscriptions: FeedSubscription[] = [];
  let unsubscribed = 0;
  const s = new FeedSocketSession('dev', tokenUser, {
    send: (text) => sent.push(JSON.parse(text)),
    subscribe: (feed) => {
      subscriptions.push(feed);
      return () => unsubscribed++;
    },
  });
  const send = (...frame: unknown[]) => s.handle(JSON.stringify(frame));
  return { s, sent, subscriptions, send, unsubscribed: () => unsubscribed };
}

const signal = (over: Partial<FeedSignal> = {}): FeedSignal => ({
  environment: 'dev',
  userId: 'alice',
  channelId: CHANNEL,
  messageId: 'm1',
  tenant: null,
  workflowKey: 'welcome',
  categories: ['news'],
  ...over,
});

describe('Phoenix v2 frames', () => {
  it('decodes arrays of five and nothing else', () => {
    expect(decodeFrame('["1","2","feeds:a:b","phx_join",{"x":1}]')).toEqual({
      joinRef: '1',
      ref: '2',
      topic: 'feeds:a:b',
      event: 'phx_join',
      payload: { x: 1 },
    });
    expect(decodeFrame('[null,3,"phoenix","heartbeat",null]')).toEqual({
      joinRef: null,
      ref: '3',
      topic: 'phoenix',
      event: 'heartbeat',
      payload: {},
    });
    for (const bad of ['', 'nope', '{}', '[1,2,3]', '[null,null,1,"e",{}]']) expect(decodeFrame(bad)).toBeUndefined();
  });

  it('reads feed topics whose user ids contain colons', () => {
    expect(parseFeedTopic(`feeds:${CHANNEL}:org:42`)).toEqual({ channelId: CHANNEL, userId: 'org:42' });
    expect(parseFeedTopic('feeds:only-one')).toBeUndefined();
    expect(parseFeedTopic('rooms:a:b')).toBeUndefined();
  });
});

describe('feed socket session', () => {
  it('joins, answers heartbeats and leaves with a close', () => {
    const { sent, send, subscriptions, unsubscribed } = session();
    send(null, '1', 'phoenix', 'heartbeat', {});
    send('2', '2', `feeds:${CHANNEL}:alice`, 'phx_join', { c1: { archived: 'exclude' } });
    send('2', '3', `feeds:${CHANNEL}:alice`, 'phx_leave', {});
    expect(sent).toEqual([
      [null, '1', 'phoenix', 'phx_reply', { status: 'ok', response: {} }],
      ['2', '2', `feeds:${CHANNEL}:alice`, 'phx_reply', { status: 'ok', response: {} }],
      ['2', '3', `feeds:${CHANNEL}:alice`, 'phx_reply', { status: 'ok', response: {} }],
      ['2', '2', `feeds:${CHANNEL}:alice`, 'phx_close', {}],
    ]);
    expect(subscriptions).toEqual([{ environment: 'dev', channelId: CHANNEL, userId: 'alice' }]);
    expect(unsubscribed()).toBe(1);
  });

  it('refuses another user’s feed when a token proves who the connection is', () => {
    const { sent, send, subscriptions } = session('alice');
    send('1', '1', `feeds:${CHANNEL}:bob`, 'phx_join', {});
    send('2', '2', `feeds:${CHANNEL}:alice`, 'phx_join', {});
    expect(sent.map((f) => f[4])).toEqual([
      { status: 'error', response: { reason: 'unauthorized' } },
      { status: 'ok', response: {} },
    ]);
    expect(subscriptions.map((s) => s.userId)).toEqual(['alice']);
  });

  it('a rejoin replaces the topic’s clients and subscription', () => {
    const { s, send, unsubscribed } = session();
    send('1', '1', `feeds:${CHANNEL}:alice`, 'phx_join', { c1: {} });
    send('4', '4', `feeds:${CHANNEL}:alice`, 'phx_join', { c1: {}, c2: { tenant: 't' } });
    expect(unsubscribed()).toBe(1);
    expect(s.joinedTopics).toEqual([`feeds:${CHANNEL}:alice`]);
  });

  it('pushes new-message to the clients whose options show the message, counting once per distinct options', async () => {
    const { s, sent, send } = session();
    send('7', '7', `feeds:${CHANNEL}:alice`, 'phx_join', {
      all: { archived: 'exclude' },
      same: { archived: 'exclude' },
      acme: { tenant: 'acme' },
      archivedOnly: { archived: 'only' },
      news: { workflow_categories: ['news'] },
    });
    sent.length = 0;
    const counted: unknown[] = [];
    await s.deliver(signal(), async (_feed, params) => {
      counted.push(params);
      return { total_count: 3, unread_count: 2, unseen_count: 1 };
    });
    const metadata = { total_count: 3, unread_count: 2, unseen_count: 1 };
    expect(sent).toEqual([
      [
        '7',
        null,
        `feeds:${CHANNEL}:alice`,
        'new-message',
        {
          event: 'new-message',
          metadata,
          data: { all: { metadata }, same: { metadata }, news: { metadata } },
          attn: ['all', 'same', 'news'],
        },
      ],
    ]);
    expect(counted).toEqual([{ archived: 'exclude' }, { workflow_categories: ['news'] }]);

    sent.length = 0;
    await s.deliver(signal({ userId: 'bob' }), async () => metadata);
    await s.deliver(signal({ channelId: '22222222-2222-4222-8222-222222222222' }), async () => metadata);
    expect(sent).toEqual([]);
    await s.deliver(signal({ tenant: 'acme', categories: [] }), async () => metadata);
    expect(sent[0][4]).toMatchObject({ attn: ['all', 'same', 'acme'] });
  });

  it('reports a channel error when counting fails, and forgets the topic until the client rejoins', async () => {
    const { s, sent, send, unsubscribed } = session();
    send('1', '1', `feeds:${CHANNEL}:alice`, 'phx_join', { c: {} });
    sent.length = 0;
    await s.deliver(signal(), async () => {
      throw new Error('database down');
    });
    expect(sent).toEqual([['1', '1', `feeds:${CHANNEL}:alice`, 'phx_error', {}]]);
    expect(s.joinedTopics).toEqual([]);
    expect(unsubscribed()).toBe(1);
  });

  it('answers events on unjoined or foreign topics with errors and ignores frames it cannot read', () => {
    const { sent, send, s } = session();
    s.handle('not json');
    send('1', '1', 'rooms:lobby', 'phx_join', {});
    send('2', '2', `feeds:${CHANNEL}:alice`, 'phx_leave', {});
    send(null, '3', 'phoenix', 'shout', {});
    expect(sent.map((f) => f[4])).toEqual([
      { status: 'error', response: { reason: 'unmatched topic' } },
      { status: 'error', response: { reason: 'unmatched topic' } },
      { status: 'error', response: { reason: 'unmatched topic' } },
    ]);
  });

  describe('limits', () => {
    function limited(limits: { maxTopics: number; joinsPerWindow: number; windowMs: number }) {
      const sent: unknown[][] = [];
      let clock = 1_000;
      let subscribed = 0;
      const s = new FeedSocketSession(
        'dev',
        undefined,
        { send: (text) => sent.push(JSON.parse(text)), subscribe: () => (subscribed++, () => subscribed--) },
        limits,
        () => clock,
      );
      const join = (ref: string, user: string) => s.handle(JSON.stringify([ref, ref, `feeds:${CHANNEL}:${user}`, 'phx_join', {}]));
      // Replies only (a leave is also followed by a phx_close): the refusal's reason, or the status.
      const statuses = () =>
        sent
          .filter((f) => f[3] === 'phx_reply')
          .map((f) => (f[4] as { status: string; response: { reason?: string } }).response.reason ?? (f[4] as { status: string }).status);
      return { s, join, statuses, tick: (ms: number) => (clock += ms), subscribed: () => subscribed };
    }

    it('refuses joins beyond the window’s budget until the window has moved on', () => {
      const { join, statuses, tick, subscribed } = limited({ maxTopics: 100, joinsPerWindow: 3, windowMs: 10_000 });
      join('1', 'a');
      tick(1_000);
      join('2', 'b');
      join('3', 'c');
      join('4', 'd'); // fourth within 10 s
      tick(8_999);
      join('5', 'e'); // the first join is 9,999 ms old: still in the window
      tick(1);
      join('6', 'f'); // the first join left the window
      expect(statuses()).toEqual(['ok', 'ok', 'ok', 'rate limited', 'rate limited', 'ok']);
      expect(subscribed()).toBe(4);
    });

    it('holds at most maxTopics topics; rejoining a held topic and joining after a leave still work', () => {
      const { s, join, statuses, subscribed } = limited({ maxTopics: 2, joinsPerWindow: 100, windowMs: 10_000 });
      join('1', 'a');
      join('2', 'b');
      join('3', 'c'); // a third topic
      join('4', 'a'); // rejoin of a held topic
      s.handle(JSON.stringify(['2', '5', `feeds:${CHANNEL}:b`, 'phx_leave', {}]));
      join('6', 'c');
      expect(statuses()).toEqual(['ok', 'ok', 'too many topics', 'ok', 'ok', 'ok']);
      expect(s.joinedTopics).toEqual([`feeds:${CHANNEL}:a`, `feeds:${CHANNEL}:c`]);
      expect(subscribed()).toBe(2);
    });
  });
});

describe('feed client options', () => {
  it('read as the feed endpoint reads its query, dropping only options it would refuse', () => {
    expect(feedQueryOf({ archived: 'include', tenant: 'acme', page_size: 20, mode: 'compact', __loadingType: 1 })).toMatchObject({
      archived: 'include',
      tenant: 'acme',
      page_size: 20,
      mode: 'compact',
      status: 'all',
    });
    expect(feedQueryOf({ archived: 'sometimes', tenant: 'acme', status: 'unread' })).toMatchObject({
      archived: 'exclude',
      tenant: 'acme',
      status: 'unread',
    });
    expect(feedQueryOf({ has_tenant: true, workflow_categories: ['a'] })).toMatchObject({ has_tenant: true, workflow_categories: ['a'] });
    expect(feedQueryOf(null)).toMatchObject({ archived: 'exclude', status: 'all' });
  });

  it('decide which clients a new message concerns', () => {
    const s = signal({ tenant: 'acme', workflowKey: 'billing', categories: ['money'] });
    expect(filterMatches(feedFilterOf({}), s)).toBe(true);
    expect(filterMatches(feedFilterOf({ tenant: 'acme', has_tenant: 'true' }), s)).toBe(true);
    expect(filterMatches(feedFilterOf({ tenant: 'other' }), s)).toBe(false);
    expect(filterMatches(feedFilterOf({ has_tenant: false }), s)).toBe(false);
    expect(filterMatches(feedFilterOf({ source: 'welcome' }), s)).toBe(false);
    expect(filterMatches(feedFilterOf({ source: 'billing', workflow_categories: ['news', 'money'] }), s)).toBe(true);
    expect(filterMatches(feedFilterOf({ workflow_categories: ['news'] }), s)).toBe(false);
    expect(filterMatches(feedFilterOf({ archived: 'only' }), s)).toBe(false);
    expect(filterMatches(feedFilterOf({ archived: 'include' }), s)).toBe(true);
  });
});

describe('guides:<channel_id> topics', () => {
  function guideSession(tokenUser?: string, refuse?: string) {
    const sent: unknown[][] = [];
    const joins: GuideJoin[] = [];
    let unsubscribed = 0;
    const s = new FeedSocketSession('dev', tokenUser, {
      send: (text) => sent.push(JSON.parse(text)),
      subscribe: () => () => undefined,
      joinGuides: (join) => {
        joins.push(join);
        return refuse ? Promise.reject(new Error(refuse)) : Promise.resolve(() => void unsubscribed++);
      },
    });
    const send = (...frame: unknown[]) => s.handle(JSON.stringify(frame));
    const settled = () => new Promise((resolve) => setImmediate(resolve));
    return { s, sent, joins, send, settled, unsubscribed: () => unsubscribed };
  }

  it('joins with the user, tenant and data the guide client sends, and pushes as it reads them', async () => {
    const g = guideSession();
    g.send('1', '1', `guides:${CHANNEL}`, 'phx_join', { user_id: 'alice', tenant: 'acme', data: { page: 'home' } });
    await g.settled();
    expect(g.joins).toEqual([
      { environment: 'dev', topic: `guides:${CHANNEL}`, channelId: CHANNEL, userId: 'alice', tenant: 'acme', data: { page: 'home' } },
    ]);
    expect(g.sent).toEqual([['1', '1', `guides:${CHANNEL}`, 'phx_reply', { status: 'ok', response: {} }]]);
    g.s.pushGuide(`guides:${CHANNEL}`, 'guide.removed', { guide: { key: 'tour' } });
    expect(g.sent[1]).toEqual([
      '1',
      null,
      `guides:${CHANNEL}`,
      'guide.removed',
      { topic: `guides:${CHANNEL}`, event: 'guide.removed', data: { guide: { key: 'tour' } } },
    ]);
    g.send('1', '2', `guides:${CHANNEL}`, 'phx_leave', {});
    expect(g.unsubscribed()).toBe(1);
    expect(g.sent[2]).toEqual(['1', '2', `guides:${CHANNEL}`, 'phx_reply', { status: 'ok', response: {} }]);
  });

  it("refuses a join without a user, for another user than the token's, or that the service refuses", async () => {
    const g = guideSession('alice');
    g.send('1', '1', `guides:${CHANNEL}`, 'phx_join', {});
    g.send('2', '2', `guides:${CHANNEL}`, 'phx_join', { user_id: 'bob' });
    await g.settled();
    expect(g.joins.map((j) => j.userId)).toEqual(['alice']); // the token's user when none is named
    expect(g.sent[0][4]).toEqual({ status: 'error', response: { reason: 'unauthorized' } });
    const anonymous = guideSession();
    anonymous.send('1', '1', `guides:${CHANNEL}`, 'phx_join', {});
    expect(anonymous.sent[0][4]).toEqual({ status: 'error', response: { reason: 'user_id is required' } });
    const refused = guideSession(undefined, 'not an in_app_guide channel');
    refused.send('1', '1', 'guides:feed', 'phx_join', { user_id: 'alice' });
    await refused.settled();
    expect(refused.sent[0][4]).toEqual({ status: 'error', response: { reason: 'not an in_app_guide channel' } });
    refused.s.pushGuide('guides:feed', 'guide.added', {});
    expect(refused.sent).toHaveLength(1); // nothing is pushed to a topic not joined
  });
});
