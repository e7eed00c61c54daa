import { expandRecorded } from '@notify/contracts';
import { runStream } from '@notify/domain';
import { ReactorRuntime } from '@notify/projection-runtime';
import { waitFor } from '@notify/testing';
import { randomBytes } from 'node:crypto';
import { eventually } from './recipients';
import { TestApp } from './test-app';

export interface RunEvent {
  type: string;
  data: any;
  at: Date;
}

export interface RunView {
  runId: string;
  recipient: { type: string; id: string; collection?: string };
  events: RunEvent[];
  types: string[];
  /** The last StepCompleted of each step ref. */
  steps: Record<string, any>;
  completed?: { outcome: string; reason: string | null };
}

/** A key no other test uses. */
export const uniqueKey = (prefix: string) => `${prefix}-${randomBytes(3).toString('hex')}`;

/** Creates (or replaces) a workflow through the official management client and activates it. */
export async function activeWorkflow(
  t: TestApp,
  key: string,
  workflow: Record<string, unknown>,
  environment = 'development',
): Promise<void> {
  const mgmt = t.mgmt();
  const { workflow: saved } = await mgmt.workflows.upsert(key, { environment, workflow: { name: key, ...workflow } as never });
  if (!saved.valid) throw new Error(`workflow ${key} is not valid: ${JSON.stringify((saved as { errors?: unknown }).errors)}`);
  await mgmt.workflows.activate(key, { environment, status: true });
}

/**
 * Every step completion in the log as a row (stream_id, global_position, stream_revision, data):
 * the StepCompleted entries and the steps RunCompleted entries carry (ADR 0233), the latter's data
 * shaped as a StepCompleted's. Use as `FROM ${STEP_COMPLETIONS} e`.
 */
export const STEP_COMPLETIONS = `(SELECT stream_id, global_position, stream_revision,
    CASE WHEN event_type = 'RunCompleted' THEN jsonb_build_object('run_id', data->'run_id') || (data->'step') ELSE data END AS data
  FROM es_events WHERE event_type = 'StepCompleted' OR (event_type = 'RunCompleted' AND data ? 'step'))`;

/** The recipient runs of one trigger, each with its events, read from the log. */
export async function runsOf(t: TestApp, workflowRunId: string, environment = 'development'): Promise<RunView[]> {
  const heads = await t.sql<{ stream_id: string }>(
    `SELECT stream_id FROM es_events WHERE event_type = 'RunEnqueued' AND stream_id LIKE $1 AND data->>'workflow_run_id' = $2 ORDER BY global_position`,
    [`run-${environment}-%`, workflowRunId],
  );
  const runs: RunView[] = [];
  for (const { stream_id } of heads) {
    const runId = stream_id.slice(-36);
    runs.push(await runView(t, environment, runId));
  }
  return runs;
}

export async function runView(t: TestApp, environment: string, runId: string): Promise<RunView> {
  // Read as the events the entries stand for: a run's last step is recorded in its RunCompleted (ADR 0233).
  const recorded = (await t.store.readStream(runStream(environment, runId))).flatMap((e) => expandRecorded(e));
  const events = recorded.map((e) => ({ type: e.type, data: e.data as any, at: e.createdAt }));
  const steps: Record<string, any> = {};
  for (const e of events) if (e.type === 'StepCompleted') steps[e.data.step_ref] = e.data;
  const completed = events.find((e) => e.type === 'RunCompleted')?.data;
  return { runId, recipient: events[0]?.data.recipient, events, types: events.map((e) => e.type), steps, completed };
}

/** Waits until the messages read model has every message these runs created. */
export async function messagesVisible(t: TestApp, runs: RunView[]): Promise<void> {
  const ids = runs.flatMap((r) =>
    r.events.filter((e) => e.type === 'StepCompleted' && e.data.output?.message_id).map((e) => e.data.output.message_id as string),
  );
  if (ids.length === 0) return;
  await eventually(
    () => t.sql<{ c: string }>('SELECT count(*) AS c FROM rm_messages WHERE id = ANY($1::uuid[])', [ids]),
    (rows) => Number(rows[0].c) === ids.length,
    15_000,
  );
}

/** Waits until every run of the trigger has completed (or been cancelled) and its messages are readable, and returns them. */
export async function finishedRuns(
  t: TestApp,
  workflowRunId: string,
  count = 1,
  timeoutMs = 60_000,
  environment = 'development',
): Promise<RunView[]> {
  const runs = await eventually(
    () => runsOf(t, workflowRunId, environment),
    (runs) => runs.length === count && runs.every((r) => r.types.includes('RunCompleted') || r.types.includes('RunCancelled')),
    timeoutMs,
  );
  await messagesVisible(t, runs);
  return runs;
}

/** Waits until the trigger's runs are paused (or done) and returns them. */
export async function pausedRuns(
  t: TestApp,
  workflowRunId: string,
  count = 1,
  timeoutMs = 60_000,
  environment = 'development',
): Promise<RunView[]> {
  return eventually(
    () => runsOf(t, workflowRunId, environment),
    (runs) => runs.length === count && runs.every((r) => r.types.includes('RunPaused') || r.types.includes('RunCompleted')),
    timeoutMs,
  );
}

export async function messagesOf(t: TestApp, workflowRunId: string): Promise<any[]> {
  return t.sql('SELECT * FROM rm_messages WHERE workflow_run_id = $1 ORDER BY recipient_id, inserted_at', [workflowRunId]);
}

/** Messages of a workflow for a recipient. */
export async function messagesFor(t: TestApp, workflowKey: string, recipientId: string, environment = 'development'): Promise<any[]> {
  return t.sql('SELECT * FROM rm_messages WHERE environment = $1 AND workflow_key = $2 AND recipient_id = $3 ORDER BY inserted_at', [
    environment,
    workflowKey,
    recipientId,
  ]);
}

/** An in-app step on the bootstrap channel. */
export const feed = (ref: string, body = 'Hello {{ recipient.name }}', over: Record<string, unknown> = {}) => ({
  type: 'channel',
  ref,
  channel_key: 'in-app',
  template: { markdown_body: body },
  ...over,
});

/** The markdown of an in-app message. */
export const bodyOf = (message: { content: { blocks: { content: string }[] } }) => message.content.blocks[0].content;

export { eventually };

/**
 * Waits until the app has reacted to everything in its log: every projection and reactor has
 * passed the head, and the head has not moved meanwhile. A wrong reaction (a run going on, a
 * delivery attempt, a message) would by then be in the log and the read models, so "nothing
 * else happened" is checked against them, without waiting for a guessed time. (Timers fire by
 * the clock, not by reaction: a test that needs one fired moves the clock or fires it.)
 */
export async function settled(t: TestApp, timeoutMs = 60_000): Promise<void> {
  const reactors = t.app.get(ReactorRuntime);
  await waitFor(
    async () => {
      // The newest event, not the head: the head stops below a transaction still open.
      const newest = await t.store.newestPosition();
      const statuses = [...(await t.runtime.status()), ...(await reactors.status())];
      if (!statuses.every((s) => s.position >= newest)) return false;
      return (await t.store.newestPosition()) === newest;
    },
    'every projection and reactor to pass the head of the log',
    timeoutMs,
    20,
  );
}
