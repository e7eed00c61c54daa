import { schemaVersionOf } from '@notify/contracts';
import { objectStream, userStream } from '@notify/domain';
import { PostgresEventStore, StreamAppend } from '@notify/eventstore';
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { BenchService } from './service';
import { until } from './load';

const meta = (type: string) => ({ environment: 'development', schema_version: schemaVersionOf(type), actor: 'bench:seed' });

/**
 * Appends facts straight to the service's log (what the API would append), much faster than
 * thousands of requests, then waits until the read models show them. Only setup uses this.
 */
export class Seeder {
  private constructor(
    private readonly store: PostgresEventStore,
    private readonly pool: Pool,
    private readonly service: BenchService,
  ) {}

  static async open(service: BenchService): Promise<Seeder> {
    const pool = new Pool({ connectionString: service.databaseUrl, max: 4 });
    return new Seeder(await PostgresEventStore.create({ pool, ensureSchema: false }), pool, service);
  }

  async users(ids: readonly string[]): Promise<void> {
    const now = new Date().toISOString();
    for (let i = 0; i < ids.length; i += 500) {
      const appends: StreamAppend[] = ids.slice(i, i + 500).map((id) => ({
        streamId: userStream('development', id),
        events: [{ id: randomUUID(), type: 'UserIdentified', data: { user_id: id, properties: { name: `User ${id}` }, identified_at: now }, metadata: meta('UserIdentified') }],
      }));
      await this.store.appendMany(appends);
    }
    await until(async () => Number((await this.service.sql.query(`SELECT count(*) AS c FROM rm_users WHERE id = ANY($1)`, [ids])).rows[0].c) === ids.length, 120_000, 100);
  }

  async subscriptions(collection: string, objectId: string, userIds: readonly string[]): Promise<void> {
    const now = new Date().toISOString();
    const stream = objectStream('development', collection, objectId);
    await this.store.append(stream, [
      { id: randomUUID(), type: 'ObjectSet', data: { collection, object_id: objectId, properties: { name: objectId }, set_at: now }, metadata: meta('ObjectSet') },
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
      async () => Number((await this.service.sql.query('SELECT count(*) AS c FROM rm_subscriptions WHERE object_collection = $1 AND object_id = $2', [collection, objectId])).rows[0].c) === userIds.length,
      120_000,
      100,
    );
  }

  async close(): Promise<void> {
    await this.store.close();
    await this.pool.end();
  }
}
