import { RecipientRefT, WorkflowSnapshotT } from '@notify/contracts';
import { Database } from '@notify/database';
import { PostgresEventStore } from '@notify/eventstore';
import { ProjectionRuntime } from '@notify/projection-runtime';
import { ChannelQueries } from '@notify/projections/channels';
import { schedulesProjection, ScheduleTimers } from '@notify/projections/schedules';
import { SubscriptionQueries } from '@notify/projections/subscriptions';
import { createTestDatabase, databaseBackends, TestDatabase } from '@notify/testing';
import { allMigrations } from '@notify/projections';
import type { EngineLookups, WorkflowView } from '../engine/lookups';
import { ScheduleFirer, ScheduleFirerOptions } from './schedule-firer';
import { createSchedules, ScheduleDeps } from './schedule-use-cases';

/**
 * The firer against a real database: exactly once per occurrence whatever stops or races, and
 * no occurrence lost within the catch-up window. Time is an injected clock; nothing sleeps to
 * order work (a stopped worker is a promise that never settles; a restart is a new firer on its
 * own pool and store).
 */
const ENV = 'test';
const HOUR = 3_600_000;
const snapshot = (key: string): WorkflowSnapshotT => ({
  key,
  version: null,
  categories: [],
  steps: [],
  conditions: null,
  settings: null,
  trigger_frequency: 'every_trigger',
});

class Lookups implements Pick<EngineLookups, 'workflow' | 'recipient'> {
  readonly inactive = new Set<string>();
  readonly deleted = new Set<string>();
  async workflow(_env: string, key: string): Promise<WorkflowView | undefined> {
    return this.deleted.has(key)
      ? undefined
      : { snapshot: snapshot(key), active: !this.inactive.has(key), valid: true, triggerDataSchema: null };
  }
  async recipient(_env: string, ref: RecipientRefT) {
    return { ref, properties: { id: ref.id } };
  }
}

/** A worker: its own pool and event store on the shared database, as another process has. */
interface Worker {
  database: Database;
  store: PostgresEventStore;
  close(): Promise<void>;
}

for (const backend of databaseBackends()) {
  describe(`schedule firing on ${backend}: exactly once, nothing lost in the catch-up window`, () => {
    let db: TestDatabase;
    let store: PostgresEventStore;
    let runtime: ProjectionRuntime;
    let deps: ScheduleDeps;
    const lookups = new Lookups();
    let clock = new Date('2030-01-06T00:00:00.000Z');
    const workers: Worker[] = [];

    async function worker(): Promise<Worker> {
      if (backend === 'embedded') return { database: db.database, store, close: async () => undefined };
      const database = await Database.open({ url: db.url, poolSize: 4, entities: [], migrations: allMigrations });
      const own = await PostgresEventStore.create({ pool: database.pool });
      const w = { database, store: own, close: async () => (await own.close(), await database.close()) };
      workers.push(w);
      return w;
    }

    const firer = (w: Worker, options: Partial<ScheduleFirerOptions> & { leaseMs?: number } = {}) =>
      new ScheduleFirer(w.store, lookups, new ScheduleTimers(w.database.dataSource, options.leaseMs ?? 30_000), {
        catchUpMs: HOUR,
        batchSize: 50,
        now: () => clock,
        ...options,
      });

    /** Fires until nothing is due at the current clock (the read model caught up after each batch). */
    async function fireAll(f: ScheduleFirer): Promise<void> {
      for (let round = 0; round < 1000; round++) {
        await settled();
        if ((await f.fireDue()) === 0) return;
      }
      throw new Error('still firing after 1000 rounds');
    }

    /** The schedules read model has applied everything in the log (the newest event: the head stops below an open transaction). */
    async function settled(): Promise<void> {
      const newest = await store.newestPosition();
      if (!(await runtime.waitFor(newest, [{ type: 'ScheduleCreated', streamId: 'schedule-' }], 30_000)))
        throw new Error('schedules read model behind');
    }

    async function schedule(workflow: string, users: string[], repeats: unknown[], extra: Record<string, unknown> = {}): Promise<string[]> {
      const writes = await createSchedules(
        deps,
        ENV,
        { workflow, recipients: users, repeats: repeats as never, ...extra },
        { environment: ENV, actor: 'test' },
        { now: clock },
      );
      // The state the firers need: every schedule's row (its timer) in the read model.
      const deadline = Date.now() + 30_000;
      while (
        Number((await sql<{ n: string }>('SELECT count(*) AS n FROM rm_schedules WHERE id = ANY($1)', [writes.scheduleIds]))[0].n) <
        writes.scheduleIds.length
      ) {
        if (Date.now() > deadline) throw new Error('schedules not in the read model');
        await new Promise((r) => setTimeout(r, 20));
      }
      return writes.scheduleIds;
    }

    const sql = <T>(query: string, params: unknown[] = []) => db.database.dataSource.query<T[]>(query, params);
    /** Decisions per (schedule, occurrence), from the log. */
    const decisions = (ids: string[]) =>
      sql<{ schedule_id: string; occurrence: string; status: string; reason: string | null; n: string }>(
        `SELECT data->>'schedule_id' AS schedule_id, data->>'occurrence' AS occurrence, data->>'status' AS status, data->>'reason' AS reason, count(*) AS n
           FROM es_events WHERE event_type = 'OccurrenceFired' AND data->>'schedule_id' = ANY($1) GROUP BY 1, 2, 3, 4 ORDER BY 1, 2`,
        [ids],
      );
    /** Workflow runs triggered per (schedule, occurrence). */
    const triggers = (ids: string[]) =>
      sql<{ schedule_id: string; occurrence: string; n: string }>(
        `SELECT data->'trigger_source'->>'schedule_id' AS schedule_id, data->'trigger_source'->>'occurrence' AS occurrence, count(*) AS n
           FROM es_events WHERE event_type = 'WorkflowTriggered' AND data->'trigger_source'->>'type' = 'schedule' AND data->'trigger_source'->>'schedule_id' = ANY($1)
          GROUP BY 1, 2 ORDER BY 1, 2`,
        [ids],
      );

    /** Runs enqueued per (schedule, occurrence): appended with their trigger (ADR 0235), so the same as `triggers`. */
    const runsEnqueued = (ids: string[]) =>
      sql<{ schedule_id: string; occurrence: string; n: string }>(
        `SELECT data->'trigger_source'->>'schedule_id' AS schedule_id, data->'trigger_source'->>'occurrence' AS occurrence, count(*) AS n
           FROM es_events WHERE event_type = 'RunEnqueued' AND data->'trigger_source'->>'type' = 'schedule' AND data->'trigger_source'->>'schedule_id' = ANY($1)
          GROUP BY 1, 2 ORDER BY 1, 2`,
        [ids],
      );

    beforeAll(async () => {
      db = await createTestDatabase(backend);
      store = await PostgresEventStore.create({
        pool: db.database.pool,
        listenConnectionString: db.database.supportsNotify ? db.url : undefined,
      });
      runtime = new ProjectionRuntime(store, db.database.dataSource, [schedulesProjection('UTC')], { batchSize: 500 });
      await runtime.start();
      deps = {
        recipients: {
          store,
          channels: new ChannelQueries(db.database.dataSource),
          subscriptions: new SubscriptionQueries(db.database.dataSource),
        },
        lookups,
      };
    });

    afterAll(async () => {
      await runtime?.stop();
      for (const w of workers) await w.close();
      await store?.close();
      await db?.close();
    });

    it('a worker stopped after appending an occurrence, before moving its timer: the next one records nothing twice', async () => {
      clock = new Date('2030-01-06T00:00:00.000Z');
      const ids = await schedule('kill-after', ['k1', 'k2', 'k3'], [{ frequency: 'daily', hours: 9 }]);
      clock = new Date('2030-01-06T09:00:05.000Z');
      const a = await worker();
      let appended!: () => void;
      const stopped = new Promise<void>((resolve) => (appended = resolve));
      // Worker A appends its decisions, then stops for good (the promise never settles).
      const hung = firer(a, { afterAppend: () => (appended(), new Promise<never>(() => undefined)) }).fireDue();
      await Promise.race([stopped, hung.then((n) => Promise.reject(new Error(`worker A claimed ${n} and finished instead of stopping`)))]);
      expect(await triggers(ids)).toHaveLength(3);

      // Worker B starts; A's lease holds until it expires.
      const b = firer(await worker());
      await settled();
      expect(await b.fireDue()).toBe(0);
      clock = new Date(clock.getTime() + 31_000);
      await fireAll(b);
      const fired = await decisions(ids);
      expect(fired.map((d) => [d.occurrence, d.status, d.n])).toEqual(ids.map(() => ['2030-01-06T09:00', 'triggered', '1']));
      expect((await triggers(ids)).map((t) => t.n)).toEqual(['1', '1', '1']);
      expect(await runsEnqueued(ids)).toEqual(await triggers(ids));
      // The timers moved on to the next day.
      const rows = await sql<{ next_occurrence: string }>('SELECT next_occurrence FROM rm_schedules WHERE id = ANY($1)', [ids]);
      expect(rows.map((r) => r.next_occurrence)).toEqual(['2030-01-07T09:00', '2030-01-07T09:00', '2030-01-07T09:00']);
      void hung;
    });

    it('a worker stopped after claiming, before appending: the next one fires the occurrence once its lease ends', async () => {
      clock = new Date('2030-01-06T00:00:00.000Z');
      const ids = await schedule('kill-before', ['b1', 'b2'], [{ frequency: 'daily', hours: 10 }]);
      clock = new Date('2030-01-06T10:00:01.000Z');
      const a = await worker();
      let claimed!: () => void;
      const stopped = new Promise<void>((resolve) => (claimed = resolve));
      const hanging: Pick<ScheduleTimers, 'claim'> = {
        claim: (now, limit) =>
          new ScheduleTimers(a.database.dataSource).claim(now, limit, () => (claimed(), new Promise<never>(() => undefined))),
      };
      const hung = new ScheduleFirer(a.store, lookups, hanging, { catchUpMs: HOUR, batchSize: 50, now: () => clock }).fireDue();
      await Promise.race([stopped, hung.then((n) => Promise.reject(new Error(`worker A claimed ${n} and finished instead of stopping`)))]);
      expect(await triggers(ids)).toEqual([]);
      clock = new Date(clock.getTime() + 31_000);
      await fireAll(firer(await worker()));
      expect((await decisions(ids)).map((d) => [d.occurrence, d.status, d.n])).toEqual([
        ['2030-01-06T10:00', 'triggered', '1'],
        ['2030-01-06T10:00', 'triggered', '1'],
      ]);
      expect((await triggers(ids)).map((t) => t.n)).toEqual(['1', '1']);
      expect(await runsEnqueued(ids)).toEqual(await triggers(ids));
    });

    it('a worker stopped in the middle of concurrent claims (one moved on, one stopped after its append, one during it): nothing lost, nothing twice', async () => {
      clock = new Date('2030-01-06T00:00:00.000Z');
      const users = Array.from({ length: 30 }, (_, i) => `mid-${i}`);
      const ids = await schedule('mid-batch', users, [{ frequency: 'daily', hours: 11 }]);
      clock = new Date('2030-01-06T11:00:02.000Z');
      const a = await worker();
      // Worker A's store: its second append lands and then A stops (the promise never settles);
      // its third never reaches the database (A stops while sending it).
      let appends = 0;
      let stopped = 0;
      let bothStopped!: () => void;
      const stopping = new Promise<void>((resolve) => (bothStopped = resolve));
      const stop = () => (++stopped === 2 && bothStopped(), new Promise<never>(() => undefined));
      const store = new Proxy(a.store, {
        get(target, prop, receiver) {
          if (prop !== 'appendMany') return Reflect.get(target, prop, receiver);
          return async (...args: Parameters<PostgresEventStore['appendMany']>) => {
            const n = ++appends;
            if (n === 3) return stop();
            const result = await target.appendMany(...args);
            if (n === 2) return stop();
            return result;
          };
        },
      });
      const f = new ScheduleFirer(store, lookups, new ScheduleTimers(a.database.dataSource), {
        catchUpMs: HOUR,
        batchSize: 10,
        now: () => clock,
      });
      const hung = Promise.all([f.fireDue(), f.fireDue(), f.fireDue()]);
      await Promise.race([stopping, hung.then(() => Promise.reject(new Error('worker A finished instead of stopping')))]);
      // Two claims' occurrences are in the log: the one that moved on and the one stopped after its append.
      expect(await triggers(ids)).toHaveLength(20);

      // Worker B, once A's leases end, fires the claim that never reached the log and nothing else.
      clock = new Date(clock.getTime() + 31_000);
      await fireAll(firer(await worker()));
      const fired = await decisions(ids);
      expect(fired).toHaveLength(users.length);
      expect(fired.every((d) => d.occurrence === '2030-01-06T11:00' && d.status === 'triggered' && d.n === '1')).toBe(true);
      const runs = await triggers(ids);
      expect(runs).toHaveLength(users.length);
      expect(runs.every((r) => r.n === '1')).toBe(true);
      expect(await runsEnqueued(ids)).toEqual(runs);
      const rows = await sql<{ next_occurrence: string }>('SELECT next_occurrence FROM rm_schedules WHERE id = ANY($1)', [ids]);
      expect(new Set(rows.map((r) => r.next_occurrence))).toEqual(new Set(['2030-01-07T11:00']));
      void hung;
    });

    it('two workers started at once (leases off, so both decide the same schedules): every occurrence once', async () => {
      clock = new Date('2030-01-06T00:30:00.000Z');
      const users = Array.from({ length: 120 }, (_, i) => `two-${i}`);
      // Daily, not hourly: the later tests move the clock by days, and every schedule left behind
      // fires (or records as missed) each occurrence in between (an hourly rule made ~6,000 events).
      const ids = await schedule('two-workers', users, [{ frequency: 'daily', hours: 1, minutes: 0 }]);
      clock = new Date('2030-01-06T01:00:00.000Z');
      // No lease: each worker may claim rows the other is working on; only the streams keep them apart.
      const a = firer(await worker(), { leaseMs: 0, batchSize: 25 });
      const b = firer(await worker(), { leaseMs: 0, batchSize: 25 });
      await Promise.all([fireAll(a), fireAll(b)]);
      const fired = await decisions(ids);
      expect(fired).toHaveLength(users.length);
      expect(fired.every((d) => d.occurrence === '2030-01-06T01:00' && d.status === 'triggered' && d.n === '1')).toBe(true);
      const runs = await triggers(ids);
      expect(runs).toHaveLength(users.length);
      expect(runs.every((r) => r.n === '1')).toBe(true);
      expect(await runsEnqueued(ids)).toEqual(await triggers(ids));
      // (The workers' own counts may add up to more: a re-append of the very same events is a no-op the store reports as done.)
    });

    it('a restart after a downtime of several occurrences: those within the catch-up window fire, older ones are recorded as missed, none twice', async () => {
      clock = new Date('2030-01-07T00:00:00.000Z');
      const ids = await schedule('downtime', ['d1', 'd2'], [{ frequency: 'hourly', minutes: 30 }]);
      const f = firer(await worker());
      clock = new Date('2030-01-07T00:30:10.000Z');
      await fireAll(f);
      // Down from 00:31 to 05:45: 01:30 .. 05:30 were missed while nothing ran.
      clock = new Date('2030-01-07T05:45:00.000Z');
      await fireAll(firer(await worker()));
      const fired = (await decisions(ids)).filter((d) => d.schedule_id === ids[0]);
      expect(fired.map((d) => [d.occurrence, d.status, d.reason, d.n])).toEqual([
        ['2030-01-07T00:30', 'triggered', null, '1'],
        ['2030-01-07T01:30', 'skipped', 'missed', '1'],
        ['2030-01-07T02:30', 'skipped', 'missed', '1'],
        ['2030-01-07T03:30', 'skipped', 'missed', '1'],
        // 04:45 and later is within the hour before 05:45.
        ['2030-01-07T04:30', 'skipped', 'missed', '1'],
        ['2030-01-07T05:30', 'triggered', null, '1'],
      ]);
      expect((await triggers(ids)).filter((t) => t.schedule_id === ids[0]).map((t) => t.occurrence)).toEqual([
        '2030-01-07T00:30',
        '2030-01-07T05:30',
      ]);
      // Firing again at the same time decides nothing.
      await fireAll(firer(await worker()));
      expect(await decisions(ids)).toHaveLength(12);
    });

    it('an inactive or deleted workflow records a skipped occurrence with its reason, not an error', async () => {
      clock = new Date('2030-01-08T00:00:00.000Z');
      lookups.inactive.add('paused');
      const [paused] = await schedule('paused', ['p1'], [{ frequency: 'daily', hours: 1 }]);
      const [gone] = await schedule('gone', ['p2'], [{ frequency: 'daily', hours: 1 }]);
      // The workflow is deleted after the schedule was made.
      lookups.deleted.add('gone');
      clock = new Date('2030-01-08T01:00:00.000Z');
      await fireAll(firer(await worker()));
      expect((await decisions([paused])).map((d) => [d.status, d.reason])).toEqual([['skipped', 'workflow_inactive']]);
      expect((await decisions([gone])).map((d) => [d.status, d.reason])).toEqual([['skipped', 'workflow_missing']]);
      expect(await triggers([paused, gone])).toEqual([]);
    });

    it("rebuilt from the log, the schedules read model equals the live one, the firers' timer moves included", async () => {
      await settled();
      const rows = () =>
        sql<Record<string, unknown>>('SELECT * FROM rm_schedules ORDER BY environment, id').then((all) =>
          all.map(({ claimed_until: _lease, ...row }) => row),
        );
      const zones = () => sql('SELECT * FROM rm_schedule_zones ORDER BY 1, 2, 3, 4');
      const live = { schedules: await rows(), zones: await zones() };
      expect(live.schedules.length).toBeGreaterThan(100);
      // The rebuild alone replays the log, as `notify projections rebuild` does from its own
      // process: the live loop of this runtime would apply the same batches in a race with it.
      await runtime.stop();
      await runtime.rebuild('schedules');
      expect({ schedules: await rows(), zones: await zones() }).toEqual(live);
      // The bound only catches a hang (a loaded CI runner replays far more slowly than an idle machine).
    }, 600_000);
  });
}
