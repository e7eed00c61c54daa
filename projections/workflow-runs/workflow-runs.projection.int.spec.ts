import { eventParts } from '@notify/contracts';
import { decideRun, fold, RunEvent, runDecider, runStream, StepDecision } from '@notify/domain';
import { PostgresEventStore, RecordedEvent } from '@notify/eventstore';
import { ProjectionRuntime } from '@notify/projection-runtime';
import { createTestDatabase, databaseBackends, readAllWritten, TestDatabase } from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { workflowRunsProjection } from './workflow-runs.projection';
import { WorkflowRunQueries } from './workflow-runs.queries';

const at = '2026-03-02T10:00:00.000Z';

/** What each run's steps decide, step by step: the run decider turns them into its events. */
const PLANS: { steps: { ref: string; decision: StepDecision }[] }[] = [
  // One in-app step: the run ends with it.
  { steps: [{ ref: 'inbox', decision: ok(null, { message_id: 'm-1', channel_type: 'in_app_feed' }) }] },
  // A failed step, then the last one.
  {
    steps: [
      { ref: 'fetch', decision: { ...ok([1], null), status: 'error', reason: 'http_500' } },
      { ref: 'email', decision: ok(null, { message_id: 'm-2', channel_type: 'email' }) },
    ],
  },
  // Halted by a throttle step.
  { steps: [{ ref: 'throttle', decision: { flow: 'halt', status: 'ok', reason: 'throttled', output: { throttled: true } } }] },
  // Skipped last step, ending on a terminated branch.
  {
    steps: [
      { ref: 'branch', decision: { ...ok(null, null), status: 'skipped', reason: 'no_branch', next: { path: null, terminated: true } } },
    ],
  },
];

function ok(path: number[] | null, output: Record<string, unknown> | null): Extract<StepDecision, { flow: 'continue' }> {
  return { flow: 'continue', status: 'ok', reason: null, output, data: null, next: { path, terminated: false } };
}

/**
 * Every run twice, each execution in one transaction (so both read the same log time): in
 * environment `old` as older code wrote it (the last StepCompleted apart from RunCompleted), in
 * `new` as it is written now (RunCompleted carrying its step, ADR 0233).
 */
async function writeRuns(store: PostgresEventStore): Promise<string[]> {
  const ids: string[] = [];
  for (const plan of PLANS) {
    const runId = randomUUID();
    ids.push(runId);
    const enqueued: RunEvent = {
      type: 'RunEnqueued',
      data: {
        run_id: runId,
        workflow_run_id: randomUUID(),
        workflow_key: 'wf',
        recipient: { type: 'user', id: 'ada' },
        actor: null,
        tenant: null,
        data: {},
        cancellation_key: null,
        trigger_source: { type: 'api' },
        trigger_position: '1',
        subscribed_to: null,
        enqueued_at: at,
      },
    };
    const executions: RunEvent[][] = [[enqueued]];
    let state = fold(runDecider, [enqueued]);
    for (const [i, step] of plan.steps.entries()) {
      const events = decideRun(state, {
        type: 'ApplyStep',
        step: { ref: step.ref, type: step.ref },
        resumed: false,
        attempt: 0,
        decision: step.decision,
        now: at,
      });
      state = events.reduce(runDecider.evolve, state);
      // Each step in its own execution, so the log's positions interleave as a worker's would.
      executions.push(events);
      expect(events.map((e) => e.type)).toEqual([i === plan.steps.length - 1 ? 'RunCompleted' : 'StepCompleted']);
    }
    for (const events of executions) {
      const envelopes = (environment: string, list: { type: string; data: unknown }[]) =>
        list.map((e) => ({ id: randomUUID(), type: e.type, data: e.data, metadata: { environment, schema_version: 1 } }));
      const separate = events.flatMap((e) => eventParts(e.type, e.data as Record<string, unknown>));
      await store.appendMany([
        { streamId: runStream('old', runId), events: envelopes('old', separate) },
        { streamId: runStream('new', runId), events: envelopes('new', events) },
      ]);
    }
  }
  return ids;
}

for (const backend of databaseBackends()) {
  describe(`workflow-runs projection on ${backend}`, () => {
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

    it('projects runs whose RunCompleted carries the last step (ADR 0233) as it projects them written as separate events', async () => {
      const ids = await writeRuns(store);
      const runtime = new ProjectionRuntime(store, db.database.dataSource, [workflowRunsProjection], { batchSize: 3 });
      await runtime.rebuild('workflow-runs');
      const queries = new WorkflowRunQueries(db.database.dataSource);
      // Ids of the history entries come from the log entries, which differ between the two logs.
      const read = async (environment: string) =>
        Promise.all(
          ids.map(async (id) => {
            const run = await queries.get(environment, id);
            return { ...run, events: run?.events.map(({ id: _id, ...e }) => e) };
          }),
        );
      const [old, compound] = [await read('old'), await read('new')];
      expect(old.map((r) => [r.status, r.error_count])).toEqual([
        ['completed', 0],
        ['completed', 1],
        ['completed', 0],
        ['completed', 0],
      ]);
      expect(old[1].events?.map((e) => e.event)).toEqual(['run_enqueued', 'step_failed', 'message_enqueued', 'run_completed']);
      expect(old[2].events?.map((e) => e.event)).toEqual(['run_enqueued', 'step_completed', 'run_halted']);
      expect(compound).toEqual(old);
      const entries = await db.database.dataSource.query(
        `SELECT split_part(stream_id, '-', 2) AS environment, count(*)::int AS n FROM es_events WHERE stream_id LIKE 'run-%' GROUP BY 1 ORDER BY 1`,
      );
      // One entry fewer per run in the new shape.
      expect(entries).toEqual([
        { environment: 'new', n: 9 },
        { environment: 'old', n: 13 },
      ]);
    });

    /** Applies batches in one transaction, rolled back; answers the statements of each and the runs' rows as they stood. */
    const applyCounted = async (batches: RecordedEvent[][], ids: string[]) => {
      const statements: string[][] = [];
      const rolledBack = new Error('roll back');
      let rows: { id: string; status: string; error_count: number }[] = [];
      await expect(
        db.database.dataSource.transaction(async (tx) => {
          for (const batch of batches) {
            const mine: string[] = [];
            statements.push(mine);
            const counted = new Proxy(tx, {
              get: (target, key) =>
                key === 'query'
                  ? (sql: string, params?: unknown[]) => (mine.push(sql), target.query(sql, params))
                  : Reflect.get(target, key, target),
            });
            await workflowRunsProjection.apply(batch, counted);
          }
          rows = await tx.query(
            'SELECT environment, id::text, status, error_count FROM rm_workflow_recipient_runs WHERE id::text = ANY($1) ORDER BY environment, id',
            [ids],
          );
          throw rolledBack;
        }),
      ).rejects.toBe(rolledBack);
      return { statements, rows };
    };

    it('writes a batch holding whole runs in one statement: each run inserted as the batch left it (ADR 0252, ADR 0258)', async () => {
      const ids = await writeRuns(store);
      const events = await readAllWritten(store, { filter: { streamPrefixes: ['run-'] } });
      const batch = events.filter((e) => ids.some((id) => e.streamId.endsWith(id)));
      const runIds = [...new Set(batch.map((e) => e.streamId.slice(-36)))];
      const whole = await applyCounted([batch], runIds);
      expect(whole.statements).toHaveLength(1);
      expect(whole.statements[0]).toHaveLength(1);
      expect(whole.statements[0][0]).toContain('INSERT INTO rm_workflow_recipient_runs');
      expect(whole.statements[0][0]).toContain('INSERT INTO rm_workflow_recipient_run_events');
      // The same events in two batches, the runs' first events alone in the first: the second
      // batch updates the rows the first inserted, and the rows end the same.
      const firsts = batch.filter((e) => e.revision === 0);
      const split = await applyCounted([firsts, batch.filter((e) => e.revision > 0)], runIds);
      expect(split.statements[1]).toHaveLength(2);
      expect(split.statements[1][1]).toContain('UPDATE rm_workflow_recipient_runs');
      expect(split.rows).toEqual(whole.rows);
      // Every run of the batch, in each environment it was written to.
      expect(whole.rows).toHaveLength(new Set(batch.map((e) => e.streamId)).size);
      expect(whole.rows.filter((r) => r.status === 'queued')).toEqual([]);
      expect(whole.rows.some((r) => r.error_count === 1)).toBe(true);
    });
  });
}
