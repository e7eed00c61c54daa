import {
  ArchivableType,
  emailLayoutStream,
  partialStream,
  resourceDecider,
  ResourceEvent,
  resourceMissing,
  ResourceState,
  workflowStream,
} from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { CommandMetadata, CommandOutcome, handleCommand } from '../handle-command';

const STREAM: Record<ArchivableType, (environment: string, key: string) => string> = {
  workflow: workflowStream,
  partial: partialStream,
  email_layout: emailLayoutStream,
};

const LABEL: Record<ArchivableType, string> = { workflow: 'workflow', partial: 'partial', email_layout: 'email layout' };

/**
 * Archives a workflow, layout or partial in each of `environments` that serves it (ADR 0225),
 * as guides are archived; 404 when none does. Archiving twice records nothing more.
 */
export async function archiveResource(
  store: EventStore,
  type: ArchivableType,
  key: string,
  environments: readonly string[],
  servedIn: (environment: string) => Promise<boolean>,
  metadata: CommandMetadata,
  now: () => string = () => new Date().toISOString(),
): Promise<CommandOutcome<ResourceState, ResourceEvent>[]> {
  const serving: string[] = [];
  for (const environment of environments) if (await servedIn(environment)) serving.push(environment);
  if (serving.length === 0) throw resourceMissing(LABEL[type]);
  const at = now();
  const outcomes: CommandOutcome<ResourceState, ResourceEvent>[] = [];
  for (const environment of serving)
    outcomes.push(
      await handleCommand(
        store,
        STREAM[type](environment, key),
        resourceDecider,
        { type: 'ArchiveResource', resourceType: type, key, served: true, now: at },
        { ...metadata, environment },
      ),
    );
  return outcomes;
}
