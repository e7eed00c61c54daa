import { guideStream, resourceDecider, ResourceEvent, ResourceState, resourceMissing } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { CommandMetadata, CommandOutcome, handleCommand } from '../handle-command';

/** The version of a guide an environment serves, as the read model knows it. */
export type ServedGuideVersion = { valid: boolean; errors: { field: string; message: string; type: string | null }[] } | undefined;

export interface GuideActivation {
  active: boolean;
  /** ISO 8601 bounds of a scheduled activation; null when unbounded. */
  from: string | null;
  until: string | null;
}

/** Activation is per environment and not versioned, like a workflow's (ADR 0186). */
export function setGuideActive(
  store: EventStore,
  environment: string,
  key: string,
  activation: GuideActivation,
  served: ServedGuideVersion,
  metadata: CommandMetadata,
): Promise<CommandOutcome<ResourceState, ResourceEvent>> {
  return handleCommand(
    store,
    guideStream(environment, key),
    resourceDecider,
    {
      type: 'SetGuideActive',
      key,
      ...activation,
      served: served ? { valid: served.valid, errors: served.errors } : null,
      now: new Date().toISOString(),
    },
    { ...metadata, environment },
  );
}

/** Archives a guide in every environment that serves it; 404 when none does. */
export async function archiveGuide(
  store: EventStore,
  environments: readonly string[],
  key: string,
  servedIn: (environment: string) => Promise<boolean>,
  metadata: CommandMetadata,
): Promise<CommandOutcome<ResourceState, ResourceEvent>[]> {
  const serving: string[] = [];
  for (const environment of environments) if (await servedIn(environment)) serving.push(environment);
  if (serving.length === 0) throw resourceMissing('guide');
  const now = new Date().toISOString();
  const outcomes: CommandOutcome<ResourceState, ResourceEvent>[] = [];
  for (const environment of serving)
    outcomes.push(
      await handleCommand(
        store,
        guideStream(environment, key),
        resourceDecider,
        { type: 'ArchiveGuide', key, served: true, now },
        { ...metadata, environment },
      ),
    );
  return outcomes;
}
