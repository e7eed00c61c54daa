import { createTestDatabase, TestDatabase, describeWith } from '@notify/testing';
import { Socket } from 'phoenix';
import WebSocket from 'ws';
import { joinChannel } from '../support/browser-access';
import { startProcess } from '../support/processes';
import { eventually } from '../support/recipients';

/**
 * The realtime push across processes: a worker projects, two api instances serve sockets, and a
 * message triggered through one instance reaches the sockets of both (Postgres LISTEN/NOTIFY).
 */
const describeServer = describeWith('postgres');

describeServer('realtime feed with separate api and worker processes', () => {
  let db: TestDatabase;
  const sk = 'sk_realtime_split_0123456789abcdef';
  const pk = 'pk_realtime_split_0123456789abcdef';
  beforeAll(async () => {
    db = await createTestDatabase('postgres', { migrate: false });
  });
  afterAll(async () => {
    await db?.close();
  });

  it('pushes new-message on every api instance whose sockets joined the feed', async () => {
    const env = {
      DATABASE_URL: db.url,
      BOOTSTRAP_SECRET_KEY: sk,
      BOOTSTRAP_PUBLISHABLE_KEY: pk,
      LOG_LEVEL: 'info',
      PORT: '0',
      HOST: '127.0.0.1',
    };
    const worker = startProcess('dist/apps/worker/src/main.js', env);
    const apiA = startProcess('dist/apps/api/src/main.js', env);
    const apiB = startProcess('dist/apps/api/src/main.js', env);
    const sockets: Socket[] = [];
    try {
      await worker.waitForLog((l) => l.msg === 'projections running');
      const [urlA, urlB] = await Promise.all(
        [apiA, apiB].map(async (p) => String((await p.waitForLog((l) => l.msg === 'listening')).url).replace('[::1]', '127.0.0.1')),
      );
      const auth = { authorization: `Bearer ${sk}`, 'content-type': 'application/json' };
      await eventually(
        () => fetch(`${urlA}/v1/users/nobody`, { headers: auth }).then((r) => r.status),
        (s) => s === 404,
        60_000,
      );
      expect(
        (await fetch(`${urlA}/v1/users/split-ada`, { method: 'PUT', headers: auth, body: JSON.stringify({ name: 'Ada' }) })).status,
      ).toBe(200);
      // The feed id a browser app is configured with: the in-app channel's id.
      const { Client } = await import('pg');
      const client = new Client({ connectionString: db.url });
      await client.connect();
      const channelId = (await client.query("SELECT id FROM rm_channels WHERE key = 'in-app'")).rows[0].id as string;
      await client.end();

      const pushes: Record<string, any[]> = { A: [], B: [] };
      for (const [name, url] of [
        ['A', urlA],
        ['B', urlB],
      ] as const) {
        const socket = new Socket(`${url.replace('http', 'ws')}/ws/v1`, {
          params: { api_key: pk },
          transport: WebSocket as never,
          reconnectAfterMs: () => 60_000,
        });
        sockets.push(socket);
        socket.connect();
        const channel = socket.channel(`feeds:${channelId}:split-ada`, { [`client_${name}`]: {} });
        channel.on('new-message', (p) => void pushes[name].push(p));
        expect(await joinChannel(channel)).toEqual({ status: 'ok', response: {} });
      }
      const trigger = await fetch(`${urlA}/v1/workflows/welcome/trigger`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ recipients: ['split-ada'], data: { message: 'hi' } }),
      });
      expect(trigger.status).toBe(200);
      await eventually(
        async () => pushes.A.length + pushes.B.length,
        (n) => n >= 2,
        60_000,
      );
      expect(pushes.A).toEqual([
        {
          event: 'new-message',
          metadata: { total_count: 1, unread_count: 1, unseen_count: 1 },
          data: { client_A: { metadata: { total_count: 1, unread_count: 1, unseen_count: 1 } } },
          attn: ['client_A'],
        },
      ]);
      expect(pushes.B).toEqual([
        {
          event: 'new-message',
          metadata: { total_count: 1, unread_count: 1, unseen_count: 1 },
          data: { client_B: { metadata: { total_count: 1, unread_count: 1, unseen_count: 1 } } },
          attn: ['client_B'],
        },
      ]);
    } finally {
      for (const s of sockets) s.disconnect();
      expect(await apiA.stop()).toBe(0);
      expect(await apiB.stop()).toBe(0);
      expect(await worker.stop()).toBe(0);
    }
  });
});
