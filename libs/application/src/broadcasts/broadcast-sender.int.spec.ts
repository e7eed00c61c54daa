import { Database } from '@notify/database';
import { audienceDecider, audienceStream, broadcastDecider, broadcastStream, fold, BroadcastEvent } from '@notify/domain';
import { PostgresEventStore, StreamAppend } from '@notify/eventstore';
import { randomUUID } from 'node:crypto';
import { ProjectionRuntime } from '@notify/projection-runtime';
import { allMigrations } from '@notify/projections';
import { audienceMembersProjection } from '@notify/projections/audience-members';
import { BroadcastQueries, broadcastsProjection, BroadcastTimers } from '@notify/projections/broadcasts';
import { createTestDatabase, databaseBackends, TestDatabase } from '@notify/testing';
import { Fanout } from '../engine/fanout';
import type { EngineLookups } from '../engine/lookups';
import { handleCommand, toDomainEvent } from '../handle-command';
import { BroadcastSender, BroadcastSenderOptions, BroadcastSenderPorts } from './broadcast-sender';
import { cancelBroadcast, sendBroadcast, upsertBroadcast } from './broadcast-use-cases';

/**
 * The sender against a real database: each member exactly one run whatever stops, and a cancel
 * stops the send between pages. Time is an injected clock; a stopped sender is a promise that
 * never settles, a restart a new sender on its own pool and store.
 */
const ENV = 'test';
const meta = { environment: ENV, actor: 'test' };

interface Worker {
  database: Database;
  store: PostgresEventStore;
  close(): Promise<void>;
}

for (const backend of databaseBackends()) {
  describe(`broadcast sending on ${backend}: one run per member, resumable, cancelable`, () => {
    let db: TestDatabase;
    let store: PostgresEventStore;
    let runtime: ProjectionRuntime;
    let clock = new Date('2030-01-06T00:00:00.000Z');
    const workers: Worker[] = [];

    beforeAll(async () => {
      db = await createTestDatabase(backend);
      store = await PostgresEventStore.create({
        pool: db.database.pool,
        listenConnectionString: db.database.supportsNotify ? db.url : undefined,
      });
      runtime = new ProjectionRuntime(store, db.database.dataSource, [broadcastsProjection, audienceMembersProjection], { batchSize: 500 });
      await runtime.start();
    });

    afterAll(async () => {
      await runtime?.stop();
      for (const w of workers) await w.close();
      await store?.close();
      await db?.close();
    });

    async function worker(): Promise<Worker> {
      if (backend === 'embedded') return { database: db.database, store, close: async () => undefined };
      const database = await Database.open({ url: db.url, poolSize: 4, entities: [], migrations: allMigrations });
      const own = await PostgresEventStore.create({ pool: database.pool });
      const w = { database, store: own, close: async () => (await own.close(), await database.close()) };
      workers.push(w);
      return w;
    }

    const sender = (w: Worker, options: Partial<BroadcastSenderOptions> = {}, ports: Pick<BroadcastSenderPorts, 'planRuns'> = {}) => {
      const queries = new BroadcastQueries(w.database.dataSource);
      const timers = new BroadcastTimers(w.database.dataSource, 30_000);
      return new BroadcastSender(
        w.store,
        {
          recipients: (env, audience, after, limit, upTo) => queries.recipients(env, audience, after, limit, new Date(), upTo),
          lastOf: (members) => queries.lastOf(members),
          claim: (now, limit) => timers.claim(now, limit),
          renew: (claim, now) => timers.renew(claim, now),
          release: (claim) => timers.release(claim),
          ...ports,
        },
        { pageSize: 10, now: () => clock, ...options },
      );
    };

    const sql = <T>(query: string, params: unknown[] = []) => db.database.dataSource.query<T[]>(query, params);

    /**
     * Both read models have applied everything in the log. The newest event, not the head: the head
     * stops below a transaction of this database still open (the runtime's own, applying an earlier
     * event), and a claim made on a read model short of the send finds nothing to send.
     */
    async function settled(): Promise<void> {
      const newest = await store.newestPosition();
      const concerned = [
        { type: 'BroadcastUpserted', streamId: 'broadcast-' },
        { type: 'AudienceMembersAdded', streamId: 'audience-' },
      ];
      if (!(await runtime.waitFor(newest, concerned, 30_000))) throw new Error('read models behind');
    }

    /** An audience of `n` members (the first two also within tenant acme), and a broadcast to it, sent now. */
    async function sendingTo(name: string, n: number): Promise<string> {
      const members = Array.from({ length: n }, (_, i) => ({
        userId: `${name}-u${String(i).padStart(3, '0')}`,
        tenant: null as string | null,
        present: false,
      }));
      members.push({ ...members[0], tenant: 'acme' }, { ...members[1], tenant: 'acme' });
      await handleCommand(
        store,
        audienceStream(ENV, name),
        audienceDecider,
        {
          type: 'AddAudienceMembers',
          audienceKey: name,
          members,
          createIfMissing: true,
          now: clock.toISOString(),
        },
        meta,
      );
      const content = {
        name,
        description: null,
        steps: [{ type: 'channel', ref: 'feed', channel_key: 'in-app', template: { markdown_body: 'Hi' } }],
        target_audience_key: name,
        categories: [],
        settings: { is_commercial: false, override_preferences: false },
      };
      await upsertBroadcast(store, ENV, name, { content, errors: [] }, meta);
      const sent = await sendBroadcast(store, ENV, name, null, async () => true, meta, clock);
      await settled();
      return (sent.events[0].data as { send_id: string }).send_id;
    }

    /** Runs triggered per (user, tenant) for a send, from the log. */
    const runsPerMember = (sendId: string) =>
      sql<{ member: string; n: string }>(
        `SELECT r->>'id' || '/' || coalesce(data->>'tenant', '-') AS member, count(*) AS n
           FROM es_events, jsonb_array_elements(data->'recipients') r
          WHERE event_type = 'WorkflowTriggered' AND data->'trigger_source'->>'broadcast_send_id' = $1 GROUP BY 1 ORDER BY 1`,
        [sendId],
      );

    /**
     * Each member's run is in the log as RunEnqueued, appended with the page's trigger (ADR 0235):
     * the same members, once each, as the triggers hold; the fan-out adds nothing to those triggers.
     */
    async function expectRunsEnqueued(sendId: string, runs: { member: string; n: string }[]) {
      const enqueued = await sql<{ member: string; n: string }>(
        `SELECT data->'recipient'->>'id' || '/' || coalesce(data->>'tenant', '-') AS member, count(*) AS n
           FROM es_events WHERE event_type = 'RunEnqueued' AND data->'trigger_source'->>'broadcast_send_id' = $1 GROUP BY 1 ORDER BY 1`,
        [sendId],
      );
      expect(enqueued).toEqual(runs);
      const streams = await sql<{ stream_id: string }>(
        `SELECT stream_id FROM es_events WHERE event_type = 'WorkflowTriggered' AND data->'trigger_source'->>'broadcast_send_id' = $1`,
        [sendId],
      );
      const triggers = [...(await store.readStreams(streams.map((t) => t.stream_id))).values()].map((h) => h[0]);
      expect(triggers.every((t) => (t.data as { runs_enqueued?: boolean }).runs_enqueued === true)).toBe(true);
      expect(await new Fanout(store, {} as EngineLookups).fanOutMany(triggers)).toBe(0);
    }

    /** Waits for a sender to reach its stop; one that finishes instead (nothing claimed, or a throw) fails the test now. */
    const stoppedIn = (tick: Promise<number>, stopped: Promise<void>) =>
      Promise.race([
        stopped,
        tick.then((claimed) => Promise.reject(new Error(`the sender finished (${claimed} claimed) instead of stopping`))),
      ]);

    const stateOf = async (key: string) =>
      fold(broadcastDecider, (await store.readStream(broadcastStream(ENV, key))).map(toDomainEvent) as BroadcastEvent[]);

    it("appends a page's runs with what planRuns decided for them, and the bare runs when a stream it creates exists (ADR 0262)", async () => {
      const sendId = await sendingTo('planned', 12);
      const planned: string[] = [];
      const logMeta = { ...meta, schema_version: 1 };
      let taken = false;
      const planRuns = async (_environment: string, trigger: { workflow_run_id: string }, runs: readonly StreamAppend[]) => {
        // The first trigger is planned; every later one's marker stream exists by the time it appends.
        const marker = `planned-marker-${trigger.workflow_run_id}`;
        if (taken) await store.append(marker, [{ id: randomUUID(), type: 'Taken', data: {}, metadata: logMeta }]);
        taken = true;
        planned.push(trigger.workflow_run_id);
        return [
          ...runs.map((r) => ({ ...r, events: [...r.events, { id: randomUUID(), type: 'TestDecided', data: {}, metadata: logMeta }] })),
          {
            streamId: marker,
            expectedRevision: 'no_stream' as const,
            events: [{ id: randomUUID(), type: 'TestCaused', data: {}, metadata: logMeta }],
          },
        ];
      };
      const withPlans = sender(await worker(), {}, { planRuns });
      expect(await withPlans.tick()).toBe(1);
      expect(planned.length).toBeGreaterThanOrEqual(2);
      const runs = await runsPerMember(sendId);
      expect(runs).toHaveLength(14);
      expect(runs.filter((r) => Number(r.n) !== 1)).toEqual([]);
      await expectRunsEnqueued(sendId, runs);
      // The first trigger's runs carry their decision, appended with it; every later trigger's
      // plan creates a stream that exists (its marker), so its runs went bare.
      const [first] = await store.readStream(`workflow_run-${ENV}-${planned[0]}`);
      const firstRuns = (first.data as { recipients: unknown[] }).recipients.length;
      const decided = await sql<{ stream_id: string }>(`SELECT stream_id FROM es_events WHERE event_type = 'TestDecided'`);
      expect(decided).toHaveLength(firstRuns);
      const together = await sql<{ n: string }>(
        `SELECT count(*) AS n FROM es_events WHERE event_type IN ('TestDecided', 'TestCaused')
            AND transaction_id = (SELECT transaction_id FROM es_events WHERE event_id = $1)`,
        [first.id],
      );
      expect(Number(together[0].n)).toBe(firstRuns + 1);
      for (const later of planned.slice(1))
        expect(
          await sql(`SELECT 1 FROM es_events WHERE event_type = 'TestCaused' AND stream_id = $1`, [`planned-marker-${later}`]),
        ).toEqual([]);
    });

    it('a sender stopped mid-send (after triggering a page, before recording it): the next continues, each member exactly one run', async () => {
      const sendId = await sendingTo('resume', 25);
      const a = await worker();
      let reached!: () => void;
      const stopped = new Promise<void>((resolve) => (reached = resolve));
      let pages = 0;
      // Sender A triggers page 1 and records it, triggers page 2, then stops for good.
      const hung = sender(a, {
        afterTrigger: () => (++pages === 2 ? (reached(), new Promise<never>(() => undefined)) : undefined),
      }).tick();
      await stoppedIn(hung, stopped);
      expect((await stateOf('resume')).recipients).toBe(10);

      // Sender B, on its own pool: A's lease holds until it expires, then B continues from the cursor.
      const b = sender(await worker());
      expect(await b.tick()).toBe(0);
      // The read models have taken in A's page (the claim skips a row the projection holds locked).
      await settled();
      clock = new Date(clock.getTime() + 31_000);
      expect(await b.tick()).toBe(1);

      const state = await stateOf('resume');
      expect(state.status).toBe('sent');
      expect(state.recipients).toBe(27);
      const runs = await runsPerMember(sendId);
      expect(runs).toHaveLength(27);
      expect(runs.filter((r) => Number(r.n) !== 1)).toEqual([]);
      expect(runs.filter((r) => r.member.endsWith('/acme')).map((r) => r.member)).toEqual(['resume-u000/acme', 'resume-u001/acme']);
      await expectRunsEnqueued(sendId, runs);
      await settled();
      expect((await sql<{ status: string }>(`SELECT status FROM rm_broadcasts WHERE key = 'resume'`))[0].status).toBe('sent');
    });

    it('members added inside a page between a stop and the resume get their run; none pushed past the page is triggered twice', async () => {
      const sendId = await sendingTo('shift', 25);
      const a = await worker();
      let reached!: () => void;
      const stopped = new Promise<void>((resolve) => (reached = resolve));
      // Sender A triggers the first page (up to shift-u007) and stops before recording it.
      await stoppedIn(sender(a, { afterTrigger: () => (reached(), new Promise<never>(() => undefined)) }).tick(), stopped);
      // Two members join inside that page: read again, it now ends one member earlier (shift-u006).
      await handleCommand(
        store,
        audienceStream(ENV, 'shift'),
        audienceDecider,
        {
          type: 'AddAudienceMembers',
          audienceKey: 'shift',
          members: ['shift-u002a', 'shift-u002b'].map((userId) => ({ userId, tenant: null, present: false })),
          createIfMissing: false,
          now: clock.toISOString(),
        },
        meta,
      );
      await settled();
      clock = new Date(clock.getTime() + 31_000);
      expect(await sender(await worker()).tick()).toBe(1);

      const state = await stateOf('shift');
      expect(state.status).toBe('sent');
      expect(state.recipients).toBe(29);
      const runs = await runsPerMember(sendId);
      expect(runs.filter((r) => Number(r.n) !== 1)).toEqual([]);
      expect(runs.map((r) => r.member)).toEqual(expect.arrayContaining(['shift-u002a/-', 'shift-u002b/-', 'shift-u007/-']));
      expect(runs).toHaveLength(29);
      await expectRunsEnqueued(sendId, runs);
    });

    /** Sender A triggers page `stopAt` and stops before recording it; `leave` leave the audience; a new sender resumes. */
    async function stopRemoveResume(name: string, stopAt: number, leave: { userId: string; tenant: string | null }[]) {
      const sendId = await sendingTo(name, 25);
      let reached!: () => void;
      const stopped = new Promise<void>((resolve) => (reached = resolve));
      let pages = 0;
      const hung = sender(await worker(), {
        afterTrigger: () => (++pages === stopAt ? (reached(), new Promise<never>(() => undefined)) : undefined),
      }).tick();
      await stoppedIn(hung, stopped);
      await handleCommand(
        store,
        audienceStream(ENV, name),
        audienceDecider,
        {
          type: 'RemoveAudienceMembers',
          audienceKey: name,
          members: leave.map((m) => ({ ...m, present: true })),
          now: clock.toISOString(),
        },
        meta,
      );
      await settled();
      clock = new Date(clock.getTime() + 31_000);
      expect(await sender(await worker()).tick()).toBe(1);
      await settled();
      return sendId;
    }

    it('a tenant whose members of a page all leave between a stop and the resume: its run (which went out) is counted', async () => {
      // Page 1 holds both acme members (u000/acme, u001/acme); they leave after A triggered it.
      const sendId = await stopRemoveResume('gone', 1, [
        { userId: 'gone-u000', tenant: 'acme' },
        { userId: 'gone-u001', tenant: 'acme' },
      ]);
      const runs = await runsPerMember(sendId);
      expect(runs.filter((r) => Number(r.n) !== 1)).toEqual([]);
      expect(runs.filter((r) => r.member.endsWith('/acme')).map((r) => r.member)).toEqual(['gone-u000/acme', 'gone-u001/acme']);
      expect(runs).toHaveLength(27);
      await expectRunsEnqueued(sendId, runs);
      const state = await stateOf('gone');
      expect(state.status).toBe('sent');
      expect(state.recipients).toBe(runs.length);
      expect((await sql<{ recipients: number }>(`SELECT recipients FROM rm_broadcasts WHERE key = 'gone'`))[0].recipients).toBe(27);
    });

    it('every member of the last page leaves between a stop and the resume: the page is still counted, the send completes', async () => {
      // Pages of 10 over 27 members: the third holds u018..u024 (no tenant).
      const leave = Array.from({ length: 7 }, (_, i) => ({ userId: `tail-u0${18 + i}`, tenant: null }));
      const sendId = await stopRemoveResume('tail', 3, leave);
      const runs = await runsPerMember(sendId);
      expect(runs.filter((r) => Number(r.n) !== 1)).toEqual([]);
      expect(runs).toHaveLength(27);
      await expectRunsEnqueued(sendId, runs);
      const state = await stateOf('tail');
      expect(state.status).toBe('sent');
      expect(state.recipients).toBe(27);
      expect((await sql<{ recipients: number }>(`SELECT recipients FROM rm_broadcasts WHERE key = 'tail'`))[0].recipients).toBe(27);
    });

    it('a cancel while sending stops the send after the page in progress; nothing more is triggered', async () => {
      const sendId = await sendingTo('cancel', 25);
      const w = await worker();
      let canceled = false;
      await sender(w, {
        afterTrigger: async () => {
          if (canceled) return;
          canceled = true;
          await cancelBroadcast(store, ENV, 'cancel', meta);
        },
      }).tick();
      const state = await stateOf('cancel');
      expect(state.status).toBe('canceled');
      expect(state.recipients).toBe(10);
      expect((await runsPerMember(sendId)).length).toBe(10);
      // Canceled: no sender takes it up again.
      await settled();
      clock = new Date(clock.getTime() + 60_000);
      expect(await sender(w).tick()).toBe(0);
      expect((await runsPerMember(sendId)).length).toBe(10);
    });
  });
}
