import type { RecipientRefT } from '@notify/contracts';
import type { RunState, WorkflowTriggeredData } from '@notify/domain';

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
  state: RunState;
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
    data: input.state.data,
    vars: input.vars,
    workflow: { key: input.trigger.workflow.key, categories: input.trigger.workflow.categories, version: input.trigger.workflow.version },
  };
}
