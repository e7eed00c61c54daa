import type KnockClient from '@knocklabs/client';
import type { Feed } from '@knocklabs/client';
import WebSocket from 'ws';
import {
  createSigningKey,
  feedSocket,
  inAppChannelId,
  joinChannel,
  setEnhancedSecurity,
  userToken,
} from '../../../../test/support/browser-access';
import { eventually } from '../../../../test/support/recipients';
import { startTestApp, TestApp } from '../../../../test/support/test-app';

/**
 * @knocklabs/client in Node, as a browser runs it: it opens its socket only where `window`
 * exists, and its phoenix client takes the global `WebSocket` (Node 20 has none: `ws` stands in).
 */
let Knock: typeof KnockClient;
const globals = globalThis as Record<string, unknown>;
beforeAll(async () => {
  globals.window = { WebSocket };
  globals.WebSocket = WebSocket;
  Knock = (await import('@knocklabs/client')).default;
});
afterAll(() => {
  delete globals.window;
  delete globals.WebSocket;
});

describe('@knocklabs/client feed over the websocket, with a user token', () => {
  let t: TestApp;
  let knock: KnockClient;
  let feed: Feed;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    feed?.teardown();
    knock?.teardown();
    await t?.close();
  });

  it('receives a new message in real time, updates its counts, and marks everything read in the service', async () => {
    const env = t.env;
    const secret = t.knock();
    await secret.users.update('nina', { name: 'Nina' });
    const { privateKey } = await createSigningKey(t, 'development');
    await setEnhancedSecurity(t, 'development', true);
    const channelId = await inAppChannelId(t);

    knock = new Knock(env.publishableKey, { host: t.url, disconnectOnPageHidden: false });
    knock.authenticate('nina', await userToken('nina', privateKey));
    feed = knock.feeds.initialize(channelId, { archived: 'exclude' });
    const realtime: { items: { id: string }[] }[] = [];
    feed.on('items.received.realtime', (payload: { items: { id: string }[] }) => void realtime.push(payload));
    feed.listenForUpdates();
    await feed.fetch();
    expect(feed.getState().metadata).toMatchObject({ unread_count: 0, total_count: 0 });
    const socket = knock.client().socket as unknown as { channels: { topic: string; state: string }[] };
    await eventually(
      async () => socket.channels.map((c) => `${c.topic}:${c.state}`),
      (s) => s.includes(`feeds:${channelId}:nina:joined`),
      60_000,
    );

    await secret.workflows.trigger('welcome', { recipients: ['nina'], data: { message: 'welcome aboard' } });
    await eventually(
      async () => realtime.length,
      (n) => n >= 1,
      60_000,
    );
    expect(feed.getState().metadata).toMatchObject({ unread_count: 1, unseen_count: 1, total_count: 1 });
    expect(feed.getState().items.map((i) => i.blocks[0])).toEqual([
      expect.objectContaining({ content: 'Hello **Nina**! welcome aboard', rendered: expect.stringContaining('<strong>Nina</strong>') }),
    ]);

    await feed.markAllAsRead();
    await eventually(
      () =>
        t.sql('SELECT count(*)::int AS c FROM rm_messages WHERE environment = $1 AND recipient_id = $2 AND read_at IS NULL', [
          'development',
          'nina',
        ]),
      (rows) => rows[0].c === 0,
      15_000,
    );
    expect(feed.getState().metadata.unread_count).toBe(0);
    await feed.fetch();
    expect(feed.getState().metadata).toMatchObject({ unread_count: 0, total_count: 1 });
  });
});

describe('feed websocket on the embedded database (one process, no LISTEN)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ backend: 'embedded' });
  });
  afterAll(async () => t?.close());

  it('pushes new-message from the process’s own tail of the log', async () => {
    const knock = t.knock();
    await knock.users.update('emb-ada', { name: 'Ada' });
    const channelId = await inAppChannelId(t);
    const socket = feedSocket(t, { api_key: t.env.publishableKey });
    socket.connect();
    try {
      const channel = socket.channel(`feeds:${channelId}:emb-ada`, { client_e: {} });
      const pushes: unknown[] = [];
      channel.on('new-message', (p) => void pushes.push(p));
      expect((await joinChannel(channel)).status).toBe('ok');
      await knock.workflows.trigger('welcome', { recipients: ['emb-ada'], data: { message: 'embedded' } });
      await eventually(
        async () => pushes.length,
        (n) => n >= 1,
        60_000,
      );
      expect(pushes[0]).toMatchObject({ metadata: { total_count: 1, unread_count: 1, unseen_count: 1 }, attn: ['client_e'] });
    } finally {
      socket.disconnect();
    }
  });
});
