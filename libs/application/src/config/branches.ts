import { BranchCommand, BranchEvent, branchDecider, BranchResourceVersion, BranchState, branchStream } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { CommandMetadata, CommandOutcome, handleCommand } from '../handle-command';

type Outcome = Promise<CommandOutcome<BranchState, BranchEvent>>;

const run = (store: EventStore, parent: string, slug: string, command: BranchCommand, metadata: CommandMetadata): Outcome =>
  handleCommand(store, branchStream(parent, slug), branchDecider, command, { ...metadata, environment: parent });

/** A branch off `parent`, starting with the versions committed there (looked up by the caller). */
export function createBranch(
  store: EventStore,
  parent: string,
  slug: string,
  committed: BranchResourceVersion[],
  metadata: CommandMetadata,
): Outcome {
  return run(store, parent, slug, { type: 'CreateBranch', slug, parent, resources: committed, now: new Date().toISOString() }, metadata);
}

/**
 * Takes the parent's newer committed versions of the resources the branch has not changed;
 * `branchShas` (the branch's current version of each resource) comes from the read model.
 */
export function rebaseBranch(
  store: EventStore,
  parent: string,
  slug: string,
  lookup: { parentResources: BranchResourceVersion[]; branchShas: Record<string, string> },
  metadata: CommandMetadata,
): Outcome {
  return run(store, parent, slug, { type: 'RebaseBranch', slug, ...lookup, now: new Date().toISOString() }, metadata);
}

export function deleteBranch(store: EventStore, parent: string, slug: string, metadata: CommandMetadata): Outcome {
  return run(store, parent, slug, { type: 'DeleteBranch', slug, now: new Date().toISOString() }, metadata);
}
