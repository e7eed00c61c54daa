import {
  RunCancelled,
  RunCompleted,
  RunDataUpdated,
  RunEnqueued,
  RunPaused,
  RunResumed,
  StepCompleted,
  StepStarted,
  TimerFired,
} from '@notify/contracts';
import { expandRecorded, type RunStatusT } from '@notify/contracts';
import { defineProjection, deferWrite } from '@notify/projection-runtime';
import { runEventView, runStatusAfter } from './run-event-view';

interface RunChange {
  environment: string;
  id: string;
  status: RunStatusT | null;
  errors: number;
  updated_at: string;
}

/**
 * One row per recipient run (status, error count, trigger source, cancellation key) and its
 * history. A batch is applied in three statements (new runs, history entries, per-run changes)
 * whatever its size, so a fan-out of thousands of runs costs a few round trips, not thousands.
 * Everything written comes from the events themselves (ids, positions, times), so a rebuild
 * writes exactly what the live projection wrote.
 */
export const workflowRunsProjection = defineProjection({
  name: 'workflow-runs',
  version: 1,
  tables: ['rm_workflow_recipient_runs', 'rm_workflow_recipient_run_events'],
  // The run events the history shows (TimerScheduled is covered by run_paused's resume_at).
  events: [RunEnqueued, StepStarted, StepCompleted, RunPaused, TimerFired, RunResumed, RunDataUpdated, RunCancelled, RunCompleted],
  streamPrefixes: ['run-'],
  // Nothing a delivery waits for reads the run history: it yields to a backlog of messages or runs
  // for a bounded time (ADR 0286), in a lane of its own so it holds no other projection back.
  lane: 'history',
  background: true,

  async applyBatch(events, tx) {
    const runs: Record<string, unknown>[] = [];
    const history: Record<string, unknown>[] = [];
    const changes = new Map<string, RunChange>();
    // A compound entry (a run's last step in its RunCompleted, ADR 0233) is read as the events it stands for.
    for (const recorded of events.flatMap((e) => expandRecorded(e))) {
      const environment = recorded.environment;
      if (!environment) continue;
      const runId = recorded.streamId.slice(-36);
      const data: Record<string, unknown> = recorded.data;
      const at = recorded.createdAt.toISOString();
      if (recorded.type === 'RunEnqueued') {
        const run = recorded.data;
        runs.push({
          environment,
          id: run.run_id,
          workflow_run_id: run.workflow_run_id,
          workflow: run.workflow_key,
          recipient_type: run.recipient.type,
          recipient_id: run.recipient.id,
          recipient_collection: run.recipient.type === 'object' ? run.recipient.collection : null,
          actor: run.actor,
          tenant: run.tenant,
          trigger_source: run.trigger_source,
          cancellation_key: run.cancellation_key,
          subscribed_to: run.subscribed_to,
          // Empty when the run was appended with its trigger (ADR 0235): its own position stands for the trigger's.
          trigger_position: run.trigger_position || recorded.position,
          status: 'queued',
          error_count: 0,
          inserted_at: at,
          updated_at: at,
        });
      }
      const view = runEventView(recorded.type, data);
      if (view)
        history.push({
          environment,
          id: recorded.id,
          run_id: runId,
          seq: recorded.globalPosition.toString(),
          part: recorded.part,
          ...view,
          inserted_at: at,
        });
      const key = `${environment}\u0000${runId}`;
      const change = changes.get(key) ?? { environment, id: runId, status: null, errors: 0, updated_at: at };
      change.status = runStatusAfter(recorded.type) ?? change.status;
      if (recorded.type === 'StepCompleted' && data.status === 'error') change.errors++;
      change.updated_at = at;
      changes.set(key, change);
    }
    // A run enqueued in this batch is inserted with what the rest of the batch did to it (a run
    // executed with its trigger arrives whole, ADR 0258): no update of a row just inserted.
    for (const run of runs) {
      const key = `${run.environment as string}\u0000${run.id as string}`;
      const change = changes.get(key);
      if (!change) continue;
      Object.assign(run, { status: change.status ?? run.status, error_count: change.errors, updated_at: change.updated_at });
      changes.delete(key);
    }
    // New runs and history rows in one statement (data-modifying CTEs; ADR 0252): neither reads
    // the other's table. The status update below is a statement of its own, after them: it must
    // see the runs inserted here.
    const inserts: string[] = [];
    const params: string[] = [];
    if (runs.length) {
      params.push(JSON.stringify(runs));
      inserts.push(
        `INSERT INTO rm_workflow_recipient_runs (environment, id, workflow_run_id, workflow, recipient_type, recipient_id, recipient_collection, actor, tenant,
           status, error_count, trigger_source, cancellation_key, subscribed_to, trigger_position, inserted_at, updated_at)
         SELECT environment, id, workflow_run_id, workflow, recipient_type, recipient_id, recipient_collection, actor, tenant,
           status, error_count, trigger_source, cancellation_key, subscribed_to, trigger_position, inserted_at, updated_at
         FROM jsonb_to_recordset($${params.length}::jsonb) AS r(environment text, id uuid, workflow_run_id uuid, workflow text, recipient_type text, recipient_id text,
           recipient_collection text, actor jsonb, tenant text, status text, error_count integer, trigger_source jsonb, cancellation_key text, subscribed_to jsonb,
           trigger_position text, inserted_at timestamptz, updated_at timestamptz)
         ON CONFLICT (environment, id) DO NOTHING`,
      );
    }
    if (history.length) {
      params.push(JSON.stringify(history));
      inserts.push(
        `INSERT INTO rm_workflow_recipient_run_events (environment, id, run_id, seq, part, event, status, step_ref, step_type, attempt, data, inserted_at)
         SELECT environment, id, run_id, seq, part, event, status, step_ref, step_type, attempt, data, inserted_at
         FROM jsonb_to_recordset($${params.length}::jsonb) AS e(environment text, id uuid, run_id uuid, seq bigint, part smallint, event text, status text, step_ref text, step_type text,
           attempt integer, data jsonb, inserted_at timestamptz)
         ON CONFLICT (environment, id) DO NOTHING`,
      );
    }
    // The batch's last statement travels with the transaction's COMMIT (ADR 0259).
    const write = (sql: string, values: unknown[]) => (changes.size ? tx.query(sql, values) : deferWrite(tx, sql, values));
    if (inserts.length === 1) await write(inserts[0], params);
    else if (inserts.length) await write(`WITH ${inserts.map((sql, n) => `i${n} AS (${sql})`).join(', ')} SELECT 1`, params);
    if (changes.size) {
      // A run that ended keeps its final status whatever follows (nothing should).
      await deferWrite(
        tx,
        `UPDATE rm_workflow_recipient_runs t
         SET status = CASE WHEN t.status IN ('completed', 'cancelled') OR c.status IS NULL THEN t.status ELSE c.status END,
             error_count = t.error_count + c.errors,
             updated_at = GREATEST(t.updated_at, c.updated_at)
         FROM jsonb_to_recordset($1::jsonb) AS c(environment text, id uuid, status text, errors integer, updated_at timestamptz)
         WHERE t.environment = c.environment AND t.id = c.id`,
        [JSON.stringify([...changes.values()])],
      );
    }
  },
});
