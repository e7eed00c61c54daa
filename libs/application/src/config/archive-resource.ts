import {
  ArchivableType,
  DomainError,
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
import { workflowUses } from './workflow-validation';

const STREAM: Record<ArchivableType, (environment: string, key: string) => string> = {
  workflow: workflowStream,
  partial: partialStream,
  email_layout: emailLayoutStream,
};

const LABEL: Record<ArchivableType, string> = { workflow: 'workflow', partial: 'partial', email_layout: 'email layout' };

/** The served workflows of one environment, each with its latest and committed versions. */
export type WorkflowVersionsOf = (environment: string) => Promise<{ identifier: string; versions: Record<string, unknown>[] }[]>;

/**
 * Archives a workflow, layout or partial in each of `environments` that serves it (ADR 0225),
 * as guides are archived; 404 when none does. Archiving twice records nothing more. A layout or
 * partial that a workflow of one of these environments still uses (latest or committed version)
 * is refused with 409 `resource_in_use` naming the workflows (ADR 0231), nothing archived.
 */
export async function archiveResource(
  store: EventStore,
  type: ArchivableType,
  key: string,
  environments: readonly string[],
  servedIn: (environment: string) => Promise<boolean>,
  metadata: CommandMetadata,
  workflowsOf: WorkflowVersionsOf,
  now: () => string = () => new Date().toISOString(),
): Promise<CommandOutcome<ResourceState, ResourceEvent>[]> {
  const serving: string[] = [];
  for (const environment of environments) if (await servedIn(environment)) serving.push(environment);
  if (serving.length === 0) throw resourceMissing(LABEL[type]);
  if (type !== 'workflow') {
    const users: string[] = [];
    for (const environment of serving)
      for (const workflow of await workflowsOf(environment))
        if (workflow.versions.some((content) => workflowUses(content, type, key)))
          users.push(serving.length > 1 ? `${workflow.identifier} (${environment})` : workflow.identifier);
    if (users.length > 0)
      throw new DomainError(
        'resource_in_use',
        `The ${LABEL[type]} ${key} is used by ${users.length === 1 ? 'workflow' : 'workflows'} ${users.join(', ')}: ` +
          'change or archive them first',
        'conflict',
      );
  }
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
