import { MessageCreatedData, MessageEvent, messageDecider, MessageState, messageStream } from '@notify/domain';
import {
  fold,
  guideEngagementDecider,
  GuideEngagementEvent,
  GuideEngagementState,
  guideEngagementStream,
  resourceMissing,
} from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { uuidV5 as uuidv5 } from '@notify/contracts';
import { CommandMetadata, CommandOutcome, handleCommand, toDomainEvent } from '../handle-command';
import { engageMessage } from '../messages/engagement';

const NAMESPACE = 'a3c1f6d2-8e0b-4c5d-9f47-6b2e1d0c9a85';

/** A guide's id in an environment: stable across its versions, as the clients keep it between calls. */
export const guideId = (environment: string, guideKey: string) => uuidv5(`guide:${environment}:${guideKey}`, NAMESPACE);

/**
 * The guide message of one step for one user, in one generation of their engagement (ADR 0187):
 * the same step engaged twice lands on the same message.
 */
export const guideMessageId = (
  environment: string,
  userId: string,
  guideKey: string,
  tenant: string | null,
  stepRef: string,
  generation: number,
) => uuidv5(`guide_message:${environment}:${guideKey}:${tenant ?? ''}:${userId}:${stepRef}:${generation}`, NAMESPACE);

/** A guide as served in an environment, with what its messages carry. */
export interface ServedGuideStep {
  ref: string;
  schema_key: string;
  schema_variant_key: string;
  values: Record<string, unknown>;
}
export interface ServedGuide {
  key: string;
  sha: string;
  channel: { id: string; key: string; type: string; provider: string };
  steps: ServedGuideStep[];
}

/** A guide's key and step refs: what names its messages. */
export interface GuideSteps {
  key: string;
  steps: readonly { ref: string }[];
}

export interface GuideRecipient {
  environment: string;
  userId: string;
  tenant: string | null;
}

export async function guideGeneration(store: EventStore, r: GuideRecipient, guideKey: string): Promise<number> {
  const history = await store.readStream(guideEngagementStream(r.environment, r.userId, guideKey, r.tenant));
  return fold<GuideEngagementState, GuideEngagementEvent>(guideEngagementDecider, history.map(toDomainEvent) as GuideEngagementEvent[])
    .generation;
}

/** The current generation's message id of each step. */
export async function guideStepMessageIds(store: EventStore, r: GuideRecipient, guide: GuideSteps) {
  const generation = await guideGeneration(store, r, guide.key);
  return new Map(guide.steps.map((s) => [s.ref, guideMessageId(r.environment, r.userId, guide.key, r.tenant, s.ref, generation)]));
}

/**
 * The guide message of a step. Without a workflow run (engagement from the client), the guide
 * stands for the workflow and the message for its own run (ADR 0187); an in-app guide step
 * passes its run (ADR 0188).
 */
export function guideMessage(
  r: GuideRecipient,
  guide: Pick<ServedGuide, 'key' | 'sha' | 'channel'>,
  step: ServedGuideStep,
  messageId: string,
  now: string,
  from: {
    data: Record<string, unknown> | null;
    run?: { workflow: MessageCreatedData['workflow']; workflow_run_id: string; workflow_recipient_run_id: string };
  },
): MessageCreatedData {
  return {
    message_id: messageId,
    channel: guide.channel,
    recipient: { type: 'user', id: r.userId },
    recipient_snapshot: null,
    workflow: from.run?.workflow ?? { key: guide.key, categories: [], version: guide.sha },
    workflow_run_id: from.run?.workflow_run_id ?? messageId,
    workflow_recipient_run_id: from.run?.workflow_recipient_run_id ?? messageId,
    step_ref: step.ref,
    tenant: r.tenant,
    actors: [],
    activities: [],
    total_activities: 0,
    total_actors: 0,
    data: from.data,
    content: {
      channel_type: 'in_app_guide',
      guide_id: guideId(r.environment, guide.key),
      guide_key: guide.key,
      step_ref: step.ref,
      schema_key: step.schema_key,
      schema_variant_key: step.schema_variant_key,
      content: step.values,
    },
    metadata: null,
    sandbox: false,
    created_at: now,
  };
}

export type GuideStepAction = 'seen' | 'interacted' | 'archived';

/**
 * Records one engagement with a guide step: the step's guide message is created (delivered, in-app)
 * the first time the user engages with it, then the engagement is an event on that message.
 */
export async function engageGuideStep(
  store: EventStore,
  r: GuideRecipient,
  guide: ServedGuide,
  stepRef: string,
  action: GuideStepAction,
  options: { data?: Record<string, unknown> | null; metadata?: Record<string, unknown> | null },
  metadata: CommandMetadata,
): Promise<CommandOutcome<MessageState, MessageEvent>[]> {
  const step = guide.steps.find((s) => s.ref === stepRef);
  if (!step) throw resourceMissing('guide step');
  const messageId = (await guideStepMessageIds(store, r, guide)).get(stepRef)!;
  const now = new Date().toISOString();
  const message = guideMessage(r, guide, step, messageId, now, { data: options.data ?? null });
  const inEnvironment = { ...metadata, environment: r.environment };
  const created = await handleCommand(
    store,
    messageStream(r.environment, messageId),
    messageDecider,
    { type: 'CreateMessage', message, delivery: 'now', now },
    inEnvironment,
  );
  const engaged = await engageMessage(store, r.environment, messageId, action, inEnvironment, { metadata: options.metadata ?? null, now });
  return [created, engaged];
}

/** Unarchives the steps of the current generation the user archived; steps never engaged with have no message. */
export async function unarchiveGuide(
  store: EventStore,
  r: GuideRecipient,
  guide: GuideSteps,
  metadata: CommandMetadata,
): Promise<CommandOutcome<MessageState, MessageEvent>[]> {
  const outcomes: CommandOutcome<MessageState, MessageEvent>[] = [];
  for (const messageId of (await guideStepMessageIds(store, r, guide)).values()) {
    if ((await store.readStream(messageStream(r.environment, messageId))).length === 0) continue;
    outcomes.push(await engageMessage(store, r.environment, messageId, 'unarchived', { ...metadata, environment: r.environment }));
  }
  return outcomes;
}

/** Starts the user's engagement with the guide afresh when there is any (ADR 0187). */
export async function resetGuideEngagement(
  store: EventStore,
  r: GuideRecipient,
  guide: GuideSteps,
  metadata: CommandMetadata,
): Promise<CommandOutcome<GuideEngagementState, GuideEngagementEvent>> {
  let engaged = false;
  for (const messageId of (await guideStepMessageIds(store, r, guide)).values())
    if ((await store.readStream(messageStream(r.environment, messageId))).length > 0) engaged = true;
  return handleCommand(
    store,
    guideEngagementStream(r.environment, r.userId, guide.key, r.tenant),
    guideEngagementDecider,
    { type: 'ResetGuideEngagement', guideKey: guide.key, userId: r.userId, tenant: r.tenant, engaged, now: new Date().toISOString() },
    { ...metadata, environment: r.environment },
  );
}
