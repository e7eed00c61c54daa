import { TestApp } from './test-app';

/** Polls until the probe returns something truthy (the engine works asynchronously). */
export async function eventually<T>(
  probe: () => Promise<T | undefined | null | false>,
  timeoutMs = 60_000,
  what = 'a condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Creates (or replaces) a workflow in `development` with the management client and activates it. */
export async function activeWorkflow(t: TestApp, key: string, workflow: Record<string, unknown>): Promise<void> {
  const mgmt = t.mgmt();
  const { workflow: saved } = await mgmt.workflows.upsert(key, {
    environment: 'development',
    workflow: { name: key, ...workflow } as never,
  });
  if (!saved.valid) throw new Error(`workflow ${key} is not valid: ${JSON.stringify(saved)}`);
  await mgmt.workflows.activate(key, { environment: 'development', status: true });
}

/** An in-app feed step on the bootstrap channel. */
export const feedStep = (ref: string, over: Record<string, unknown> = {}) => ({
  type: 'channel',
  ref,
  channel_key: 'in-app',
  template: { markdown_body: 'Hello {{ recipient.id }} from {{ workflow.key }}' },
  ...over,
});

/** Runs of one trigger in the runs read model, by recipient id. */
export async function runsOf(t: TestApp, workflowRunId: string): Promise<{ id: string; recipient_id: string; status: string }[]> {
  return t.sql('SELECT id, recipient_id, status FROM rm_workflow_recipient_runs WHERE workflow_run_id = $1 ORDER BY recipient_id', [
    workflowRunId,
  ]);
}

/** Messages of one trigger in the messages read model. */
export async function messagesOf(
  t: TestApp,
  workflowRunId: string,
): Promise<{ id: string; recipient_id: string; status: string; step_ref: string }[]> {
  return t.sql('SELECT id, recipient_id, status, step_ref FROM rm_messages WHERE workflow_run_id = $1 ORDER BY recipient_id', [
    workflowRunId,
  ]);
}
