import { Socket } from 'phoenix';
import WebSocket from 'ws';
import {
  createSigningKey,
  feedSocket,
  inAppChannelId,
  joinChannel,
  refusedUpgrade,
  setEnhancedSecurity,
  userToken,
} from '../../../../test/support/browser-access';
import { eventually } from '../../../../test/support/recipients';
import { FeedSignals } from './feed-signals';
import { startTestApp, TestApp } from '../../../../test/support/test-app';
import { itWith } from '@notify/testing';

/** LISTEN exists on a Postgres server only: the embedded database's api follows its own log's tail instead. */
const itOnServer = itWith('postgres');

/** The feed websocket with the real `phoenix` client that @knocklabs/client uses. */
describe('feed websocket (Phoenix channels v2)', () => {
  let t: TestApp;
  let channelId: string;
  const sockets: Socket[] = [];
  const open = (params: Record<string, string | undefined>) => {
    const socket = feedSocket(t, params);
    sockets.push(socket);
    socket.connect();
    return socket;
  };

  beforeAll(async () => {
    t = await startTestApp();
    channelId = await inAppChannelId(t);
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.disconnect();
  });
  afterAll(async () => t?.close());

  it('pushes new-message with the counts and the clients that joined when a workflow creates an in-app message', async () => {
    const knock = t.knock();
    await knock.users.update('ws-ada', { name: 'Ada' });
    const socket = open({ api_key: t.env.publishableKey });
    const channel = socket.channel(`feeds:${channelId}:ws-ada`, {
      client_a: { archived: 'exclude', page_size: 20 },
      client_b: { tenant: 'other-tenant' },
    });
    const pushes: any[] = [];
    channel.on('new-message', (payload) => void pushes.push(payload));
    expect(await joinChannel(channel)).toEqual({ status: 'ok', response: {} });

    await knock.workflows.trigger('welcome', { recipients: ['ws-ada'], data: { message: 'one' } });
    await eventually(
      async () => pushes.length,
      (n) => n >= 1,
      60_000,
    );
    expect(pushes[0]).toEqual({
      event: 'new-message',
      metadata: { total_count: 1, unread_count: 1, unseen_count: 1 },
      data: { client_a: { metadata: { total_count: 1, unread_count: 1, unseen_count: 1 } } },
      attn: ['client_a'], // client_b shows another tenant's feed only
    });

    await knock.workflows.trigger('welcome', { recipients: ['ws-ada'], data: { message: 'two' } });
    await eventually(
      async () => pushes.length,
      (n) => n >= 2,
      60_000,
    );
    expect(pushes[1].data.client_a.metadata).toEqual({ total_count: 2, unread_count: 2, unseen_count: 2 });
    // The read model agrees with what was pushed.
    const [row] = await t.sql(
      "SELECT count(*)::int AS c FROM rm_messages WHERE recipient_id = 'ws-ada' AND channel_id = $1 AND read_at IS NULL",
      [channelId],
    );
    expect(row.c).toBe(2);
  });

  itOnServer('pushes a message made while the api had lost its LISTEN connection, once it is back (from the log)', async () => {
    const knock = t.knock();
    await knock.users.update('ws-lost', { name: 'Lost' });
    const socket = open({ api_key: t.env.publishableKey });
    const channel = socket.channel(`feeds:${channelId}:ws-lost`, { client_l: {} });
    const pushes: any[] = [];
    channel.on('new-message', (payload) => void pushes.push(payload));
    expect((await joinChannel(channel)).status).toBe('ok');
    const listeners = async () =>
      (
        await t.sql(
          "SELECT count(*)::int AS c FROM pg_stat_activity WHERE application_name = 'notify-feed-signals' AND datname = current_database()",
        )
      )[0].c as number;
    expect(await listeners()).toBe(1);

    // Cut the listener and hold its reconnect back; make a message and see it projected while
    // nobody listens (its NOTIFY is lost); then let the api listen again.
    const signals = t.app.get(FeedSignals);
    signals.reconnectDelayMs = 3_600_000;
    const made = 1;
    try {
      await t.sql(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'notify-feed-signals' AND datname = current_database()",
      );
      await eventually(listeners, (n) => n === 0, 60_000);
      await eventually(
        async () => signals.listening,
        (listening) => !listening,
        60_000,
      );
      await knock.workflows.trigger('welcome', { recipients: ['ws-lost'], data: {} });
      await eventually(
        () => t.sql("SELECT count(*)::int AS c FROM rm_messages WHERE recipient_id = 'ws-lost'"),
        (rows) => rows[0].c === made,
        60_000,
      );
      expect(await listeners()).toBe(0);
      expect(pushes).toEqual([]);
    } finally {
      signals.reconnectDelayMs = 1000;
      signals.reconnectNow();
    }
    await eventually(
      async () => pushes.length,
      (n) => n >= made,
      60_000,
    );
    expect(pushes[made - 1].data.client_l.metadata).toEqual({ total_count: made, unread_count: made, unseen_count: made });
    expect(await listeners()).toBe(1);
  });

  it('does not push another user’s messages, and stops pushing after leave', async () => {
    const knock = t.knock();
    const socket = open({ api_key: t.env.publishableKey });
    const mine = socket.channel(`feeds:${channelId}:ws-grace`, { client_g: {} });
    const pushes: any[] = [];
    mine.on('new-message', (p) => void pushes.push(p));
    expect((await joinChannel(mine)).status).toBe('ok');
    await knock.workflows.trigger('welcome', { recipients: [{ id: 'ws-linus' }], data: {} });
    await knock.workflows.trigger('welcome', { recipients: [{ id: 'ws-grace' }], data: {} });
    await eventually(
      async () => pushes.length,
      (n) => n >= 1,
      60_000,
    ).catch(async (error) => {
      // What the service did with grace's message, to tell a lost push from a message never made.
      const rows = await t.sql(
        "SELECT recipient_id, inserted_at, updated_at, status FROM rm_messages WHERE recipient_id IN ('ws-grace', 'ws-linus')",
      );
      const runs = await t.sql(
        `SELECT event_type, stream_id, data, created_at FROM es_events WHERE stream_id IN (SELECT stream_id FROM es_events WHERE event_type = 'RunEnqueued' AND data::text LIKE '%ws-grace%') ORDER BY global_position`,
      );
      throw new Error(`${error.message}; messages ${JSON.stringify(rows)}; grace's run ${JSON.stringify(runs)}; socket ${mine.state}`);
    });
    await new Promise((r) => setTimeout(r, 500));
    expect(pushes).toHaveLength(1); // linus's message went nowhere near grace's socket

    await new Promise<void>((resolve) => mine.leave().receive('ok', () => resolve()));
    await knock.workflows.trigger('welcome', { recipients: [{ id: 'ws-grace' }], data: {} });
    await eventually(
      () => t.sql("SELECT count(*)::int AS c FROM rm_messages WHERE recipient_id = 'ws-grace'"),
      (rows) => rows[0].c === 2,
      60_000,
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(pushes).toHaveLength(1);
  });

  it('answers heartbeats, refuses unknown topics and events, and speaks the raw v2 frames', async () => {
    const ws = new WebSocket(`${t.url.replace('http', 'ws')}/ws/v1/websocket?api_key=${t.env.publishableKey}&vsn=2.0.0`);
    const frames: unknown[][] = [];
    ws.on('message', (d) => frames.push(JSON.parse(d.toString())));
    await new Promise((r) => ws.once('open', r));
    const send = (frame: unknown[]) => ws.send(JSON.stringify(frame));
    send([null, '1', 'phoenix', 'heartbeat', {}]);
    send(['2', '2', 'rooms:lobby', 'phx_join', {}]);
    send(['3', '3', `feeds:${channelId}:raw-user`, 'phx_join', { client_r: {} }]);
    send(['3', '4', `feeds:${channelId}:raw-user`, 'shout', {}]);
    send(['5', '5', `feeds:${channelId}:not-joined`, 'shout', {}]);
    send(['3', '6', `feeds:${channelId}:raw-user`, 'phx_leave', {}]);
    await eventually(
      async () => frames.length,
      (n) => n >= 7,
      60_000,
    );
    ws.close();
    expect(frames).toEqual([
      [null, '1', 'phoenix', 'phx_reply', { status: 'ok', response: {} }],
      ['2', '2', 'rooms:lobby', 'phx_reply', { status: 'error', response: { reason: 'unmatched topic' } }],
      ['3', '3', `feeds:${channelId}:raw-user`, 'phx_reply', { status: 'ok', response: {} }],
      ['3', '4', `feeds:${channelId}:raw-user`, 'phx_reply', { status: 'error', response: { reason: 'unknown event' } }],
      ['5', '5', `feeds:${channelId}:not-joined`, 'phx_reply', { status: 'error', response: { reason: 'unmatched topic' } }],
      ['3', '6', `feeds:${channelId}:raw-user`, 'phx_reply', { status: 'ok', response: {} }],
      ['3', '3', `feeds:${channelId}:raw-user`, 'phx_close', {}],
    ]);
  });

  it('refuses the upgrade without a valid key or on another path, in the API error shape', async () => {
    const base = t.url.replace('http', 'ws');
    expect(await refusedUpgrade(`${base}/ws/v1/websocket?vsn=2.0.0`)).toEqual({
      status: 401,
      body: expect.objectContaining({ code: 'api_key_missing', status: 401, type: 'authentication_error' }),
    });
    expect(await refusedUpgrade(`${base}/ws/v1/websocket?api_key=pk_nope&vsn=2.0.0`)).toMatchObject({
      status: 401,
      body: { code: 'api_key_missing' },
    });
    expect(await refusedUpgrade(`${base}/ws/v2/other?api_key=${t.env.publishableKey}`)).toMatchObject({
      status: 404,
      body: { code: 'not_found' },
    });
    expect(await refusedUpgrade(`${base}/ws/v1/websocket?api_key=${t.env.publishableKey}&vsn=1.0.0`)).toMatchObject({
      status: 400,
      body: { code: 'unsupported_protocol_version' },
    });
  });

  describe('with enhanced security mode', () => {
    let env: Awaited<ReturnType<TestApp['newEnvironment']>>;
    let privateKey: string;
    beforeAll(async () => {
      env = await t.newEnvironment();
      privateKey = (await createSigningKey(t, env.slug)).privateKey;
      await setEnhancedSecurity(t, env.slug, true);
    });

    it('refuses an upgrade without a user token or with a bad one', async () => {
      const base = `${t.url.replace('http', 'ws')}/ws/v1/websocket?vsn=2.0.0&api_key=${env.publishableKey}`;
      expect(
        await eventually(
          () => refusedUpgrade(base),
          (r) => r !== 'opened',
          60_000,
        ),
      ).toMatchObject({ status: 401, body: { code: 'missing_user_token' } });
      const expired = await userToken('alice', privateKey, -60);
      expect(await refusedUpgrade(`${base}&user_token=${expired}`)).toMatchObject({ status: 401, body: { code: 'invalid_user_token' } });
      expect(await refusedUpgrade(`${base}&user_token=${env.secretKey}`)).toMatchObject({
        status: 401,
        body: { code: 'incorrect_token_type' },
      });
    });

    it('closes a connection when its user token expires', async () => {
      // Valid for a few seconds (whole seconds: JWT expiry), enough to connect on a busy machine.
      const token = await userToken('alice', privateKey, 5);
      const ws = new WebSocket(
        `${t.url.replace('http', 'ws')}/ws/v1/websocket?vsn=2.0.0&api_key=${env.publishableKey}&user_token=${token}`,
      );
      let opened = false;
      ws.on('open', () => (opened = true));
      const closed = await new Promise<{ code: number; reason: string; opened: boolean }>((resolve, reject) => {
        ws.on('close', (code, reason) => resolve({ code, reason: reason.toString(), opened }));
        ws.on('error', reject);
      });
      // Accepted while the token was valid, then closed by the server when it expired.
      expect(closed).toEqual({ code: 4001, reason: 'user token expired', opened: true });
    });

    it('lets a token join only its own user’s feed', async () => {
      const token = await userToken('alice', privateKey);
      const socket = open({ api_key: env.publishableKey, user_token: token });
      expect(await joinChannel(socket.channel(`feeds:${channelId}:alice`, { c1: {} }))).toEqual({ status: 'ok', response: {} });
      expect(await joinChannel(socket.channel(`feeds:${channelId}:bob`, { c2: {} }))).toEqual({
        status: 'error',
        response: { reason: 'unauthorized' },
      });
    });
  });
});
