import type { RecipientRefT } from '@notify/contracts';
import type { WorkflowTriggeredData } from '@notify/domain';
import type { TemplateContext } from '@notify/templating';

export interface RunVariables {
  recipient: Record<string, unknown> | null;
  actor: Record<string, unknown> | null;
  tenant: Record<string, unknown> | null;
  data: Record<string, unknown>;
  vars: Record<string, unknown>;
  workflow: { key: string; categories: string[]; version: string | null };
  /** The object a subscriber run came from. */
  object?: Record<string, unknown> | null;
  [key: string]: unknown;
}

export function refToProperties(ref: RecipientRefT | null, properties?: Record<string, unknown>): Record<string, unknown> | null {
  if (!ref) return null;
  return ref.type === 'user' ? { ...properties, id: ref.id } : { ...properties, id: ref.id, collection: ref.collection };
}

/** What conditions and templates of a run see. */
export function runVariables(input: {
  data: Record<string, unknown>;
  trigger: WorkflowTriggeredData;
  recipient: Record<string, unknown> | null;
  actor: Record<string, unknown> | null;
  tenant: Record<string, unknown> | null;
  vars: Record<string, unknown>;
}): RunVariables {
  return {
    recipient: input.recipient,
    actor: input.actor,
    tenant: input.tenant,
    data: input.data,
    vars: input.vars,
    workflow: { key: input.trigger.workflow.key, categories: input.trigger.workflow.categories, version: input.trigger.workflow.version },
  };
}

/** The activities and actors a message gathers (one activity for a message outside a batch). */
export interface MessageBatch<A extends { data: Record<string, unknown> | null }> {
  activities: A[];
  actors: RecipientRefT[];
  total_activities: number;
  total_actors: number;
}

/** What a channel template renders with: the run's variables, the message's batch, and the recipient's timezone and locale. */
export function channelTemplateContext<A extends { data: Record<string, unknown> | null }>(
  variables: RunVariables,
  batch: MessageBatch<A>,
): TemplateContext {
  const recipient = variables.recipient ?? {};
  return {
    ...variables,
    activities: batch.activities.map((a) => ({ ...a, data: a.data ?? {} })),
    actors: batch.actors,
    total_activities: batch.total_activities,
    total_actors: batch.total_actors,
    timezone: (recipient.timezone as string | undefined) ?? null,
    locale: (recipient.locale as string | undefined) ?? null,
  };
}
