import { schemaVersionOf } from '@notify/contracts';
import { messageStream, objectStream, scheduleStream, userStream } from '@notify/domain';
import { ErasureKeyStore, PersonalDataEventStore } from '@notify/application';
import { EventStore, PostgresEventStore, StreamAppend } from '@notify/eventstore';
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { BenchService } from './service';
import { until } from './load';

const meta = (type: string) => ({ environment: 'development', schema_version: schemaVersionOf(type), actor: 'bench:seed' });

/**
 * Appends facts straight to the service's log (what the API would append), much faster than
 * thousands of requests, then waits until the read models show them. Only setup uses this. The
 * personal fields are sealed and the users' keys stored as the service does it, with its master
 * key, so a trigger finds its recipient's key as it would after an identify.
 */
export class Seeder {
  private constructor(
    private readonly store: EventStore,
    private readonly pool: Pool,
    private readonly service: BenchService,
  ) {}

  static async open(service: BenchService): Promise<Seeder> {
    const pool = new Pool({ connectionString: service.databaseUrl, max: 4 });
    const log = await PostgresEventStore.create({ pool, ensureSchema: false });
    return new Seeder(new PersonalDataEventStore(log, new ErasureKeyStore(pool, service.erasureMasterKey)), pool, service);
  }

  async users(ids: readonly string[]): Promise<void> {
    const now = new Date().toISOString();
    for (let i = 0; i < ids.length; i += 500) {
      const appends: StreamAppend[] = ids.slice(i, i + 500).map((id) => ({
        streamId: userStream('development', id),
        events: [
          {
            id: randomUUID(),
            type: 'UserIdentified',
            data: { user_id: id, properties: { name: `User ${id}` }, identified_at: now },
            metadata: meta('UserIdentified'),
          },
        ],
      }));
      await this.store.appendMany(appends);
    }
    await until(
      async () =>
        Number((await this.service.sql.query(`SELECT count(*) AS c FROM rm_users WHERE id = ANY($1)`, [ids])).rows[0].c) === ids.length,
      120_000,
      100,
    );
  }

  /** One schedule per user, as POST /v1/schedules records it; resolves once the schedules read model shows them. */
  async schedules(workflow: string, userIds: readonly string[], repeats: Record<string, unknown>[]): Promise<void> {
    const now = new Date().toISOString();
    for (let i = 0; i < userIds.length; i += 500) {
      const appends: StreamAppend[] = userIds.slice(i, i + 500).map((id) => {
        const scheduleId = randomUUID();
        const data = {
          schedule_id: scheduleId,
          workflow,
          recipient: { type: 'user', id },
          actor: null,
          tenant: null,
          data: null,
          repeats,
          scheduled_at: null,
          ending_at: null,
          created_at: now,
        };
        return {
          streamId: scheduleStream('development', scheduleId),
          expectedRevision: 'no_stream',
          events: [{ id: randomUUID(), type: 'ScheduleCreated', data, metadata: meta('ScheduleCreated') }],
        };
      });
      await this.store.appendMany(appends);
    }
    await until(
      async () =>
        Number((await this.service.sql.query(`SELECT count(*) AS c FROM rm_schedules WHERE workflow = $1`, [workflow])).rows[0].c) ===
        userIds.length,
      600_000,
      500,
    );
  }

  async subscriptions(collection: string, objectId: string, userIds: readonly string[]): Promise<void> {
    const now = new Date().toISOString();
    const stream = objectStream('development', collection, objectId);
    await this.store.append(stream, [
      {
        id: randomUUID(),
        type: 'ObjectSet',
        data: { collection, object_id: objectId, properties: { name: objectId }, set_at: now },
        metadata: meta('ObjectSet'),
      },
    ]);
    for (let i = 0; i < userIds.length; i += 1000) {
      await this.store.append(
        stream,
        userIds.slice(i, i + 1000).map((id) => ({
          id: randomUUID(),
          type: 'SubscriptionAdded',
          data: { collection, object_id: objectId, recipient: { type: 'user', id }, properties: null, added_at: now },
          metadata: meta('SubscriptionAdded'),
        })),
      );
    }
    await until(
      async () =>
        Number(
          (
            await this.service.sql.query('SELECT count(*) AS c FROM rm_subscriptions WHERE object_collection = $1 AND object_id = $2', [
              collection,
              objectId,
            ])
          ).rows[0].c,
        ) === userIds.length,
      120_000,
      100,
    );
  }

  /**
   * In-app messages, as the engine records them (MessageCreated, MessageDelivered, and
   * MessageSeen/MessageRead for the given share), one minute apart ending now, oldest first.
   */
  async inAppMessages(
    channel: { id: string; key: string },
    userIds: readonly string[],
    perUser: number,
    readShare: number,
  ): Promise<number> {
    const total = userIds.length * perUser;
    const start = Date.now() - total * 60_000;
    let appends: StreamAppend[] = [];
    for (let i = 0; i < total; i++) {
      const id = randomUUID();
      const user = userIds[i % userIds.length];
      const at = new Date(start + i * 60_000).toISOString();
      const event = (type: string, data: Record<string, unknown>) => ({
        id: randomUUID(),
        type,
        data: { message_id: id, ...data },
        metadata: meta(type),
      });
      const events = [
        event('MessageCreated', {
          channel: { id: channel.id, key: channel.key, type: 'in_app_feed', provider: 'in-app-feed' },
          recipient: { type: 'user', id: user },
          recipient_snapshot: null,
          workflow: { key: i % 3 ? 'bench-news' : 'bench-ops', categories: [i % 3 ? 'news' : 'ops'], version: null },
          workflow_run_id: randomUUID(),
          workflow_recipient_run_id: randomUUID(),
          step_ref: 'in_app_1',
          tenant: i % 4 ? null : 'acme',
          actors: [{ type: 'user', id: userIds[(i + 1) % userIds.length] }],
          activities: [
            { id: randomUUID(), actor: { type: 'user', id: userIds[(i + 1) % userIds.length] }, data: { n: i }, inserted_at: at },
          ],
          total_activities: 1,
          total_actors: 1,
          data: { n: i, url: `https://example.com/items/${i}` },
          content: {
            channel_type: 'in_app_feed',
            blocks: [{ type: 'markdown', name: 'body', content: `Item **${i}**`, rendered: `<p>Item <strong>${i}</strong></p>` }],
            action_url: null,
          },
          metadata: null,
          sandbox: false,
          created_at: at,
        }),
        event('MessageDelivered', { at }),
      ];
      if ((i * 7919) % 100 < readShare * 100) events.push(event('MessageSeen', { at }), event('MessageRead', { at }));
      appends.push({ streamId: messageStream('development', id), events });
      if (appends.length === 500) {
        await this.store.appendMany(appends);
        appends = [];
      }
    }
    if (appends.length) await this.store.appendMany(appends);
    await until(
      async () =>
        Number((await this.service.sql.query('SELECT count(*) AS c FROM rm_messages WHERE channel_id = $1', [channel.id])).rows[0].c) >=
        total,
      600_000,
      200,
    );
    return total;
  }

  async close(): Promise<void> {
    await this.store.close();
    await this.pool.end();
  }
}
