import { MessageCreatedData } from '@notify/domain';
import { RecordedEvent } from '@notify/eventstore';
import { createTestDatabase, TestDatabase, describeWith } from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { FEED_NOTIFY_CHANNEL, feedNotificationsIn } from './feed-notifications';
import { messagesProjection } from './messages.projection';

const CHANNEL = '11111111-1111-4111-8111-111111111111';

function created(
  over: { recipient?: MessageCreatedData['recipient']; type?: 'in_app_feed' | 'email'; createdAt?: Date; tenant?: string | null } = {},
): RecordedEvent {
  const id = randomUUID();
  const data: MessageCreatedData = {
    message_id: id,
    channel: { id: CHANNEL, key: 'in-app', type: over.type ?? 'in_app_feed', provider: 'knock-in-app' },
    recipient: over.recipient ?? { type: 'user', id: 'ada' },
    recipient_snapshot: null,
    workflow: { key: 'welcome', categories: ['news'], version: null },
    workflow_run_id: randomUUID(),
    workflow_recipient_run_id: randomUUID(),
    step_ref: 'in_app',
    tenant: over.tenant ?? null,
    actors: [],
    activities: [],
    total_activities: 1,
    total_actors: 0,
    data: {},
    content:
      over.type === 'email'
        ? { channel_type: 'email', from: null, to: 'a@b.c', subject: 's', html_body: '<p>h</p>', text_body: 'h' }
        : { channel_type: 'in_app_feed', blocks: [{ type: 'markdown', name: 'body', content: 'hi', rendered: '<p>hi</p>' }] },
    metadata: null,
    sandbox: false,
    created_at: (over.createdAt ?? new Date()).toISOString(),
  };
  return {
    id: randomUUID(),
    type: 'MessageCreated',
    streamId: `message-development-${id}`,
    revision: 0,
    globalPosition: 1n,
    position: '1',
    data,
    metadata: { environment: 'development', schema_version: 1 },
    createdAt: over.createdAt ?? new Date(),
  } as RecordedEvent;
}

/** The messages projection announces new in-app messages with NOTIFY, delivered on commit only. */
const describeServer = describeWith('postgres');

describeServer('feed notifications from the messages projection', () => {
  let db: TestDatabase;
  let listener: Client;
  const heard: string[] = [];
  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    listener = new Client({ connectionString: db.url });
    await listener.connect();
    listener.on('notification', (n) => n.channel === FEED_NOTIFY_CHANNEL && heard.push(n.payload!));
    await listener.query(`LISTEN ${FEED_NOTIFY_CHANNEL}`);
  });
  afterAll(async () => {
    await listener?.end();
    await db?.close();
  });
  /**
   * What the listener has heard of everything committed before this call: Postgres delivers
   * notifications in commit order, so once a marker notified now has arrived, every earlier
   * notification has too (no waiting for a guessed time).
   */
  const heardSoFar = async () => {
    const marker = `marker-${randomUUID()}`;
    await db.database.pool.query('SELECT pg_notify($1, $2)', [FEED_NOTIFY_CHANNEL, marker]);
    const deadline = Date.now() + 30_000;
    while (!heard.includes(marker)) {
      if (Date.now() > deadline) throw new Error('the marker notification never arrived');
      await new Promise((r) => setTimeout(r, 10));
    }
    return heard.filter((payload) => !payload.startsWith('marker-'));
  };

  it('announces a user’s new in-app message when the batch commits, and nothing else', async () => {
    heard.length = 0;
    const mine = created({ tenant: 'acme' });
    const events = [
      mine,
      created({ type: 'email' }),
      created({ recipient: { type: 'object', collection: 'projects', id: 'p1' } }),
      created({ createdAt: new Date(Date.now() - 5 * 60_000) }),
    ];
    const statements: string[] = [];
    await db.database.dataSource.transaction(async (tx) => {
      const counted = new Proxy(tx, {
        get: (target, key) =>
          key === 'query'
            ? (sql: string, params?: unknown[]) => (statements.push(sql), target.query(sql, params))
            : Reflect.get(target, key, target),
      });
      await messagesProjection.apply(events, counted);
      expect(await heardSoFar()).toEqual([]); // not before commit
    });
    // The announcement goes out with the batch's messages, feed counts, events and activities: one statement (ADR 0252).
    const announcing = statements.filter((sql) => sql.includes('pg_notify'));
    expect(announcing).toHaveLength(1);
    expect(announcing[0]).toContain('INSERT INTO rm_message_events');
    expect(announcing[0]).toContain('INSERT INTO rm_messages');
    expect(announcing[0]).toContain('INSERT INTO rm_feed_counts');
    expect(statements.filter((sql) => /INSERT INTO rm_(messages|message_events|feed_counts)\b/.test(sql))).toHaveLength(1);
    const announced = await heardSoFar();
    expect(announced).toHaveLength(1);
    const data = mine.data as MessageCreatedData;
    expect(JSON.parse(announced[0])).toEqual([
      {
        e: 'development',
        u: 'ada',
        c: CHANNEL,
        m: data.message_id,
        t: 'acme',
        w: 'welcome',
        k: ['news'],
        p: mine.position,
      },
    ]);
    // What the listener hears is readable already, with the message's events.
    expect(await db.database.dataSource.query('SELECT id FROM rm_messages WHERE id = $1', [data.message_id])).toHaveLength(1);
    expect(
      await db.database.dataSource.query('SELECT type FROM rm_message_events WHERE message_id = $1', [data.message_id]),
    ).not.toHaveLength(0);
  });

  it('announces nothing when the batch rolls back', async () => {
    heard.length = 0;
    await db.database.dataSource
      .transaction(async (tx) => {
        await messagesProjection.apply([created()], tx);
        throw new Error('checkpoint moved by another worker');
      })
      .catch(() => undefined);
    expect(await heardSoFar()).toEqual([]);
  });

  it('announces a fan-out’s messages packed into a few notifications, each message once, in log order', async () => {
    heard.length = 0;
    const events = Array.from({ length: 300 }, (_, i) => ({ ...created(), position: String(1000 + i).padStart(8, '0') }));
    await db.database.dataSource.transaction((tx) => messagesProjection.apply(events, tx));
    const payloads = await heardSoFar();
    expect(payloads.length).toBeGreaterThan(1);
    expect(payloads.length).toBeLessThan(30);
    expect(payloads.flatMap(feedNotificationsIn).map((n) => n.m)).toEqual(events.map((e) => (e.data as MessageCreatedData).message_id));
  });
});
