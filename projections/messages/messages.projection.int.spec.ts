import { eventParts } from '@notify/contracts';
import { messageDecider, MessageCommand, MessageEvent, messageStream } from '@notify/domain';
import { PostgresEventStore } from '@notify/eventstore';
import { ProjectionRuntime } from '@notify/projection-runtime';
import { createTestDatabase, databaseBackends, TestDatabase } from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { messagesProjection } from './messages.projection';

const meta = { environment: 'development', schema_version: 1 };

type Write = (id: string, events: MessageEvent[]) => Promise<string>;

const inDevelopment =
  (store: PostgresEventStore): Write =>
  async (id, events) =>
    (
      await store.append(
        messageStream('development', id),
        events.map((e) => ({ id: randomUUID(), type: e.type, data: e.data, metadata: meta })),
      )
    ).position;

/**
 * Each write twice in one transaction (so both read the same log time): in environment `old` as
 * older code wrote it, a message created delivered as MessageCreated + MessageDelivered, and in
 * `new` as it is written now, one MessageCreated carrying `delivered_at` (ADR 0233).
 */
const inBothShapes =
  (store: PostgresEventStore): Write =>
  async (id, events) => {
    const envelopes = (environment: string, list: { type: string; data: unknown }[]) =>
      list.map((e) => ({ id: randomUUID(), type: e.type, data: e.data, metadata: { ...meta, environment } }));
    const separate = events.flatMap((e) => eventParts(e.type, e.data as Record<string, unknown>));
    const [, written] = await store.appendMany([
      { streamId: messageStream('old', id), events: envelopes('old', separate) },
      { streamId: messageStream('new', id), events: envelopes('new', events) },
    ]);
    return written.position;
  };

/** A realistic history: messages created, delivered or retried, engaged with in every order. */
async function writeHistory(write: Write): Promise<string> {
  let last = '';
  const apply = async (id: string, state: { events: MessageEvent[] }, command: MessageCommand) => {
    const current = state.events.reduce((s, e) => messageDecider.evolve(s, e), messageDecider.initialState());
    const events = messageDecider.decide(command, current);
    if (!events.length) return;
    state.events.push(...events);
    last = await write(id, events);
  };
  for (let i = 0; i < 25; i++) {
    const id = randomUUID();
    const state = { events: [] as MessageEvent[] };
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, i, s)).toISOString();
    const external = i % 3 === 0;
    await apply(id, state, {
      type: 'CreateMessage',
      delivery: external ? 'provider' : 'now',
      now: at(0),
      message: {
        message_id: id,
        channel: {
          id: '11111111-1111-4111-8111-111111111111',
          key: external ? 'email' : 'in-app',
          type: external ? 'email' : 'in_app_feed',
          provider: external ? 'smtp' : 'knock-in-app',
        },
        recipient: { type: 'user', id: `u${i % 4}` },
        recipient_snapshot: null,
        workflow: { key: 'wf', categories: ['a', 'b'], version: 'v1' },
        workflow_run_id: randomUUID(),
        workflow_recipient_run_id: randomUUID(),
        step_ref: 's1',
        tenant: i % 2 ? 'acme' : null,
        actors: [{ type: 'user', id: 'boss' }],
        activities: [{ id: `a${i}`, actor: { type: 'user', id: 'boss' }, data: { i }, inserted_at: at(0) }],
        total_activities: 1,
        total_actors: 1,
        data: { i },
        content: external
          ? { channel_type: 'email', from: null, to: 'x@y.z', subject: 's', html_body: '<p>h</p>', text_body: 'h' }
          : { channel_type: 'in_app_feed', blocks: [{ type: 'markdown', name: 'body', content: `m${i}`, rendered: `<p>m${i}</p>` }] },
        metadata: null,
        sandbox: false,
        created_at: at(0),
      },
    });
    if (external) {
      await apply(id, state, { type: 'StartDeliveryAttempt', attempt: 1, now: at(1), checkAt: at(25) });
      await apply(id, state, {
        type: 'CompleteDeliveryAttempt',
        result: {
          attempt: 1,
          outcome: i % 2 ? 'failed' : 'sent',
          retryable: true,
          reason: i % 2 ? 'HTTP 503' : null,
          provider: 'smtp',
          provider_message_id: null,
          logs: [{ request: { method: 'POST', url: 'x', headers: {}, body: null }, duration_ms: 3 }],
        },
        retryAt: i % 2 ? at(30) : null,
        now: at(2),
      });
    }
    const actions = ['seen', 'read', 'unread', 'archived', 'unarchived', 'interacted', 'unseen'] as const;
    for (let k = 0; k < i % 6; k++)
      await apply(id, state, { type: 'Engage', action: actions[(i + k) % actions.length], now: at(10 + k), metadata: { k } });
  }
  return last;
}

const tables = async (db: TestDatabase) => ({
  messages: await db.database.dataSource.query('SELECT * FROM rm_messages ORDER BY id'),
  events: await db.database.dataSource.query('SELECT * FROM rm_message_events ORDER BY id'),
  logs: await db.database.dataSource.query('SELECT * FROM rm_message_delivery_logs ORDER BY id'),
  activities: await db.database.dataSource.query('SELECT * FROM rm_message_activities ORDER BY message_id, id'),
  counts: await db.database.dataSource.query('SELECT * FROM rm_feed_counts ORDER BY user_id, tenant'),
});

/** The feed counters as a count over the message rows would give them. */
const recount = (db: TestDatabase) =>
  db.database.dataSource.query(`
    SELECT environment, recipient_id AS user_id, channel_id, coalesce(tenant, '') AS tenant,
      count(*) FILTER (WHERE archived_at IS NULL)::int AS total, count(*) FILTER (WHERE archived_at IS NULL AND read_at IS NULL)::int AS unread,
      count(*) FILTER (WHERE archived_at IS NULL AND seen_at IS NULL)::int AS unseen, count(*) FILTER (WHERE archived_at IS NOT NULL)::int AS archived_total,
      count(*) FILTER (WHERE archived_at IS NOT NULL AND read_at IS NULL)::int AS archived_unread,
      count(*) FILTER (WHERE archived_at IS NOT NULL AND seen_at IS NULL)::int AS archived_unseen
    FROM rm_messages WHERE channel_type = 'in_app_feed' AND recipient_type = 'user' GROUP BY 1, 2, 3, 4`);

for (const backend of databaseBackends()) {
  describe(`messages projection on ${backend}`, () => {
    let db: TestDatabase;
    let store: PostgresEventStore;
    beforeAll(async () => {
      db = await createTestDatabase(backend);
      store = await PostgresEventStore.create({
        pool: db.database.pool,
        listenConnectionString: db.database.supportsNotify ? db.url : undefined,
      });
    });
    afterAll(async () => {
      await store.close();
      await db.close();
    });

    it('gives the same rows whether events arrive one at a time, in small batches or all at once', async () => {
      const last = await writeHistory(inDevelopment(store));
      const deadline = Date.now() + 10_000;
      while ((await store.headPosition()) < last && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const results = [];
      const byKey = (rows: Record<string, unknown>[]) => rows.map(({ version: _v, ...r }) => JSON.stringify(r)).sort();
      for (const batchSize of [1, 7, 500]) {
        const runtime = new ProjectionRuntime(store, db.database.dataSource, [messagesProjection], { batchSize });
        const { events } = await runtime.rebuild('messages');
        expect(events).toBeGreaterThan(25);
        results.push(await tables(db));
        expect(byKey(results[results.length - 1].counts)).toEqual(byKey(await recount(db)));
      }
      expect(results[0].counts.length).toBeGreaterThan(2);
      expect(results[0].counts.some((c: { archived_total: number }) => c.archived_total > 0)).toBe(true);
      expect(results[0].messages).toHaveLength(25);
      expect(results[0].messages.some((m: { status: string }) => m.status === 'delivery_attempted')).toBe(true);
      expect(results[0].messages.some((m: { read_at: Date | null }) => m.read_at !== null)).toBe(true);
      expect(results[1]).toEqual(results[0]);
      expect(results[2]).toEqual(results[0]);
    });

    it('projects a log of compound events (ADR 0233) as it projects the same history written as separate events', async () => {
      const last = await writeHistory(inBothShapes(store));
      const deadline = Date.now() + 10_000;
      while ((await store.headPosition()) < last && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const written = await db.database.dataSource.query(
        `SELECT stream_id LIKE 'message-old-%' AS old, count(*)::int AS n FROM es_events WHERE stream_id LIKE 'message-old-%' OR stream_id LIKE 'message-new-%' GROUP BY 1 ORDER BY 1`,
      );
      // 25 messages, 16 of them in-app: one entry fewer each in the new shape.
      expect(written).toEqual([
        { old: false, n: expect.any(Number) },
        { old: true, n: expect.any(Number) },
      ]);
      expect(written[1].n - written[0].n).toBe(16);
      const runtime = new ProjectionRuntime(store, db.database.dataSource, [messagesProjection], { batchSize: 7 });
      await runtime.rebuild('messages');
      const q = (sql: string, environment: string) => db.database.dataSource.query(sql, [environment]);
      // Ids of log entries and revisions differ between the two logs; what readers see must not.
      const rows = async (environment: string) => ({
        messages: (await q('SELECT * FROM rm_messages WHERE environment = $1 ORDER BY id', environment)).map(
          ({ environment: _e, ...m }: Record<string, unknown>) => m,
        ),
        events: (
          await q(
            'SELECT message_id, type, data, inserted_at FROM rm_message_events WHERE environment = $1 ORDER BY message_id, revision, part',
            environment,
          )
        ).map((e: Record<string, unknown>) => e),
        logs: await q(
          'SELECT message_id, attempt, service_name, request, response, inserted_at FROM rm_message_delivery_logs WHERE environment = $1 ORDER BY message_id',
          environment,
        ),
        activities: await q(
          'SELECT message_id, id, actor, data, inserted_at FROM rm_message_activities WHERE environment = $1 ORDER BY message_id, id',
          environment,
        ),
        counts: (await q('SELECT * FROM rm_feed_counts WHERE environment = $1 ORDER BY user_id, tenant', environment)).map(
          ({ environment: _e, ...c }: Record<string, unknown>) => c,
        ),
      });
      const [old, compound] = [await rows('old'), await rows('new')];
      expect(old.messages).toHaveLength(25);
      expect(old.messages.filter((m: { status: string }) => m.status === 'delivered')).toHaveLength(16);
      expect(old.events.filter((e: { type: string }) => e.type === 'message.delivered')).toHaveLength(16);
      expect(compound).toEqual(old);
    });
  });
}
