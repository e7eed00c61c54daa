import { broadcastStream } from '@notify/domain';
import { PostgresEventStore } from '@notify/eventstore';
import { ProjectionRuntime } from '@notify/projection-runtime';
import { createTestDatabase, databaseBackends, TestDatabase } from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { broadcastsProjection } from './broadcasts.projection';
import { BroadcastQueries } from './broadcasts.queries';

const ENV = 'development';
const content = {
  name: 'Launch',
  description: null,
  steps: [],
  target_audience_key: 'everyone',
  categories: [],
  settings: { is_commercial: false, override_preferences: false },
};
const t = (minute: number) => new Date(Date.UTC(2030, 0, 1, 10, minute)).toISOString();

for (const backend of databaseBackends()) {
  describe(`broadcasts projection on ${backend}`, () => {
    let db: TestDatabase;
    let store: PostgresEventStore;
    beforeAll(async () => {
      db = await createTestDatabase(backend);
      store = await PostgresEventStore.create({ pool: db.database.pool });
    });
    afterAll(async () => {
      await store.close();
      await db.close();
    });

    const write = (key: string, events: { type: string; data: Record<string, unknown> }[]) =>
      store.append(
        broadcastStream(ENV, key),
        events.map((e) => ({
          id: randomUUID(),
          type: e.type,
          data: { key, ...e.data },
          metadata: { environment: ENV, schema_version: 1 },
        })),
      );
    const upserted = { type: 'BroadcastUpserted', data: { content, sha: 'a', valid: true, errors: [], upserted_at: t(0) } };
    const scheduled = (sendId: string, minute: number) => ({
      type: 'BroadcastScheduled',
      data: { send_id: sendId, send_at: t(minute), scheduled_at: t(1) },
    });
    const started = (sendId: string, minute: number) => ({
      type: 'BroadcastSendStarted',
      data: { send_id: sendId, content, sha: 'a', started_at: t(minute) },
    });

    it('keeps the time a send was scheduled for through its start and end; a send asked for now, or a schedule canceled, has none (ADR 0275)', async () => {
      const [s1, s2, s3, s4] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
      // Scheduled for minute 30, started by its timer at 31, sent at 32.
      await write('kept', [
        upserted,
        scheduled(s1, 30),
        started(s1, 31),
        { type: 'BroadcastSent', data: { send_id: s1, recipients: 2, completed_at: t(32) } },
      ]);
      // Scheduled, canceled back to draft, then sent at once.
      await write('now', [
        upserted,
        scheduled(s2, 40),
        { type: 'BroadcastCanceled', data: { send_id: s2, was: 'scheduled', canceled_at: t(2) } },
        started(s3, 3),
      ]);
      // Scheduled and waiting; and one canceled while sending (its schedule stays as it was).
      await write('waiting', [upserted, scheduled(s4, 50)]);
      await write('stopped', [
        upserted,
        scheduled(s4, 20),
        started(s4, 20),
        { type: 'BroadcastCanceled', data: { send_id: s4, was: 'sending', canceled_at: t(21) } },
      ]);

      const runtime = new ProjectionRuntime(store, db.database.dataSource, [broadcastsProjection], { batchSize: 2 });
      await runtime.rebuild('broadcasts');
      const queries = new BroadcastQueries(db.database.dataSource);
      const read = async (key: string) => {
        const r = (await queries.get(ENV, key))!;
        return { status: r.status, scheduledAt: r.scheduledAt?.toISOString() ?? null, startedAt: r.startedAt?.toISOString() ?? null };
      };
      expect(await read('kept')).toEqual({ status: 'sent', scheduledAt: t(30), startedAt: t(31) });
      expect(await read('now')).toEqual({ status: 'sending', scheduledAt: null, startedAt: t(3) });
      expect(await read('waiting')).toEqual({ status: 'scheduled', scheduledAt: t(50), startedAt: null });
      expect(await read('stopped')).toEqual({ status: 'canceled', scheduledAt: t(20), startedAt: t(20) });
    });
  });
}
