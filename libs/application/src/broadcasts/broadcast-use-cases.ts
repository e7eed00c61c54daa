import { BROADCAST_STEP_TYPES, BroadcastContentT, BroadcastRequestT, ResourceErrorT, walkSteps, WorkflowStepT } from '@notify/contracts';
import { BroadcastEvent, broadcastDecider, BroadcastState, broadcastStream, fold, invalidParams } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { randomUUID } from 'node:crypto';
import { contentSha } from '../config/content-hash';
import { checkWorkflow, WorkflowReferences } from '../config/workflow-validation';
import { TemplateChecker } from '../config/template-checker';
import { CommandMetadata, CommandOutcome, handleCommand, toDomainEvent } from '../handle-command';

export type BroadcastOutcome = CommandOutcome<BroadcastState, BroadcastEvent>;

/** The broadcast's data as stored: read-only echoes dropped, defaults filled, so equal broadcasts hash equal. */
export function normalizeBroadcast(request: BroadcastRequestT): BroadcastContentT {
  return {
    name: request.name,
    description: request.description ?? null,
    steps: request.steps,
    target_audience_key: request.target_audience_key ?? null,
    categories: request.categories ?? [],
    settings: {
      // The reference: a broadcast is commercial unless it says otherwise.
      is_commercial: request.settings?.is_commercial ?? true,
      override_preferences: request.settings?.override_preferences ?? false,
    },
    ...(request.goal_attachment ? { goal_attachment: request.goal_attachment } : {}),
  };
}

/**
 * Checks a broadcast: a step type a broadcast may not hold is refused (422, nothing saved);
 * reference and Liquid problems of its steps are found as for workflows, and so is a target
 * audience that does not exist (`audienceExists`): the broadcast is saved with valid: false and
 * its errors. Sending checks the audience again (it may be archived after the save).
 */
export async function checkBroadcast(
  content: BroadcastContentT,
  references: WorkflowReferences,
  templates: TemplateChecker,
  audienceExists?: (audienceKey: string) => Promise<boolean>,
): Promise<{ content: BroadcastContentT; errors: ResourceErrorT[] }> {
  const refused = walkSteps(content.steps as WorkflowStepT[])
    .filter(({ step }) => !(BROADCAST_STEP_TYPES as readonly string[]).includes(step.type))
    .map(({ step, path }) => ({
      field: `broadcast.${[...path, 'type'].join('.')}`,
      message: `a broadcast holds only ${BROADCAST_STEP_TYPES.join(', ')} steps, not ${step.type}`,
      type: 'step_type',
    }));
  if (refused.length) throw invalidParams(refused);
  const checked = await checkWorkflow(
    {
      name: content.name,
      steps: content.steps as WorkflowStepT[],
      ...(content.goal_attachment ? { goal_attachment: content.goal_attachment } : {}),
    },
    references,
    templates,
  );
  const audience = content.target_audience_key;
  const missing =
    audience !== null && audienceExists && !(await audienceExists(audience))
      ? [{ field: 'target_audience_key', message: `no audience ${audience} in this environment`, type: 'reference' }]
      : [];
  return { content: { ...content, steps: checked.content.steps }, errors: [...missing, ...checked.errors] };
}

/**
 * Saves a draft; with `scheduledAt` (the request's `scheduled_at`) it is scheduled in the same
 * append, as `send` with `send_at` would (ADR 0201): a refusal (past time, invalid broadcast,
 * missing audience) writes nothing, not even the draft.
 */
export async function upsertBroadcast(
  store: EventStore,
  environment: string,
  key: string,
  checked: { content: BroadcastContentT; errors: ResourceErrorT[] },
  metadata: CommandMetadata,
  scheduling?: { scheduledAt: string; audienceExists: (audienceKey: string) => Promise<boolean> },
  now: Date = new Date(),
): Promise<BroadcastOutcome> {
  const audience = checked.content.target_audience_key;
  const schedule = scheduling && {
    sendId: randomUUID(),
    sendAt: scheduling.scheduledAt,
    audienceExists: audience === null ? true : await scheduling.audienceExists(audience),
  };
  return handleCommand(
    store,
    broadcastStream(environment, key),
    broadcastDecider,
    {
      type: 'UpsertBroadcast',
      key,
      content: checked.content,
      sha: contentSha(checked.content),
      valid: checked.errors.length === 0,
      errors: checked.errors,
      now: now.toISOString(),
      ...(schedule ? { schedule } : {}),
    },
    metadata,
  );
}

/**
 * Sends a draft now, or schedules it for send_at. The target audience must exist (checked from
 * its streams by the caller's `audienceExists`); a broadcast without one goes to every user.
 */
export async function sendBroadcast(
  store: EventStore,
  environment: string,
  key: string,
  sendAt: string | null,
  audienceExists: (audienceKey: string) => Promise<boolean>,
  metadata: CommandMetadata,
  now: Date = new Date(),
): Promise<BroadcastOutcome> {
  const stream = broadcastStream(environment, key);
  // The audience is looked up before deciding (the decision does no I/O); a draft retargeted
  // meanwhile is decided against the audience checked, which then does not count as existing.
  const read = fold(broadcastDecider, (await store.readStream(stream)).map(toDomainEvent) as BroadcastEvent[]);
  const checked = read.content?.target_audience_key ?? null;
  const exists = checked === null ? true : await audienceExists(checked);
  const sendId = randomUUID();
  return handleCommand(
    store,
    stream,
    broadcastDecider,
    (state: BroadcastState) => ({
      type: 'SendBroadcast' as const,
      key,
      sendId,
      sendAt,
      audienceExists: (state.content?.target_audience_key ?? null) === checked ? exists : false,
      now: now.toISOString(),
    }),
    metadata,
  );
}

export function cancelBroadcast(store: EventStore, environment: string, key: string, metadata: CommandMetadata): Promise<BroadcastOutcome> {
  return handleCommand(
    store,
    broadcastStream(environment, key),
    broadcastDecider,
    { type: 'CancelBroadcast', key, now: new Date().toISOString() },
    metadata,
  );
}
