import { ChannelGroupRequest } from '@notify/contracts';
import {
  channelGroupDecider,
  branchParent,
  ChannelGroupEvent,
  ChannelGroupState,
  channelGroupStream,
  commitLogDecider,
  CommitLogEvent,
  CommitLogState,
  commitLogStream,
  DomainError,
  FieldError,
  invalidParams,
  resourceDecider,
  ResourceEvent,
  ResourceState,
  ResourceType,
  resourceMissing,
  workflowStream,
} from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { CommandMetadata, CommandOutcome, handleCommand } from '../handle-command';
import { contentSha } from './content-hash';

/*
 * The configuration use cases the management API runs (channel groups, workflow activation,
 * resource versions, commits and promotions). Reads they decide on come in as ports, so the
 * application layer knows no read model; the api's handlers only adapt HTTP to these calls.
 */

const now = () => new Date().toISOString();

export interface ChannelGroupDeps {
  store: EventStore;
  /** The channels of these keys (archived ones included, with archived_at set). */
  channelsByKeys(keys: string[]): Promise<{ key: string; type: string; archived_at?: string | Date | null }[]>;
  /** The group as stored, for the fields a request may leave out. */
  existingGroup(key: string): Promise<{ visible_in?: ('workflow' | 'broadcast')[] } | undefined>;
}

/** Every rule must name an existing channel of the group's type; otherwise nothing is written. */
export async function upsertChannelGroup(
  deps: ChannelGroupDeps,
  key: string,
  group: z.infer<typeof ChannelGroupRequest>,
  metadata: CommandMetadata,
): Promise<CommandOutcome<ChannelGroupState, ChannelGroupEvent>> {
  const rules = group.channel_rules ?? [];
  const channels = await deps.channelsByKeys(rules.map((r) => r.channel_key));
  const errors: FieldError[] = [];
  rules.forEach((rule, i) => {
    const channel = channels.find((c) => c.key === rule.channel_key && !c.archived_at);
    if (!channel)
      errors.push({
        field: `channel_group.channel_rules.${i}.channel_key`,
        message: `no channel ${rule.channel_key} exists`,
        type: 'reference',
      });
    else if (channel.type !== group.channel_type)
      errors.push({
        field: `channel_group.channel_rules.${i}.channel_key`,
        message: `is a ${channel.type} channel; this group holds ${group.channel_type} channels`,
        type: 'mismatch',
      });
  });
  if (errors.length) throw invalidParams(errors);
  const existing = await deps.existingGroup(key);
  return handleCommand(
    deps.store,
    channelGroupStream(key),
    channelGroupDecider,
    {
      type: 'UpsertChannelGroup',
      group: {
        key,
        name: group.name,
        channel_type: group.channel_type,
        operator: group.operator ?? 'any',
        visible_in: group.visible_in ?? existing?.visible_in ?? ['workflow', 'broadcast'],
        channel_rules: rules
          .map((r, i) => ({ ...r, index: r.index ?? i }))
          .sort((a, b) => a.index - b.index)
          .map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)) as typeof r),
      },
      now: now(),
    },
    { ...metadata, environment: null },
  );
}

export function archiveChannelGroup(
  store: EventStore,
  key: string,
  metadata: CommandMetadata,
): Promise<CommandOutcome<ChannelGroupState, ChannelGroupEvent>> {
  return handleCommand(
    store,
    channelGroupStream(key),
    channelGroupDecider,
    { type: 'ArchiveChannelGroup', key, now: now() },
    { ...metadata, environment: null },
  );
}

/** Activation is per environment and not versioned: it applies to whatever version the environment serves. */
export function setWorkflowActive(
  store: EventStore,
  environment: string,
  key: string,
  active: boolean,
  served: { valid: boolean; errors: { field: string; message: string; type: string | null }[] } | undefined,
  metadata: CommandMetadata,
): Promise<CommandOutcome<ResourceState, ResourceEvent>> {
  return handleCommand(
    store,
    workflowStream(environment, key),
    resourceDecider,
    { type: 'SetWorkflowActive', key, active, served: served ? { valid: served.valid, errors: served.errors } : null, now: now() },
    { ...metadata, environment },
  );
}

/** Saves a new version of a workflow, partial, layout, translation or message type (valid or not, with its errors). */
export function saveResourceVersion(
  store: EventStore,
  streamId: string,
  resource: { type: ResourceType; key: string; content: Record<string, unknown>; errors: FieldError[] },
  metadata: CommandMetadata,
): Promise<CommandOutcome<ResourceState, ResourceEvent>> {
  const { type, key, content, errors } = resource;
  return handleCommand(
    store,
    streamId,
    resourceDecider,
    { type: 'UpsertResource', resourceType: type, key, content, sha: contentSha(content), valid: errors.length === 0, errors, now: now() },
    metadata,
  );
}

export interface ResourceChange {
  type: ResourceType;
  identifier: string;
  sha: string;
  valid: boolean;
  errors: { field: string; message: string }[];
}

/** Commits the uncommitted versions of an environment; an invalid one refuses the whole commit. */
export function commitChanges(
  store: EventStore,
  environment: string,
  changes: readonly ResourceChange[],
  message: string | null,
  metadata: CommandMetadata,
): Promise<CommandOutcome<CommitLogState, CommitLogEvent>> {
  const invalid = changes.filter((c) => !c.valid);
  if (invalid.length) {
    throw invalidParams(
      invalid.map((c) => ({
        field: `${c.type}.${c.identifier}`,
        message: `is not valid (${c.errors.map((e) => `${e.field}: ${e.message}`).join('; ')}); fix it before committing`,
        type: 'invalid_resource',
      })),
      'Invalid resources cannot be committed',
    );
  }
  return handleCommand(
    store,
    commitLogStream(environment),
    commitLogDecider,
    {
      type: 'CommitChanges',
      changes: changes.map((c) => ({ commitId: randomUUID(), resource: { type: c.type, identifier: c.identifier }, sha: c.sha })),
      message,
      author: { email: metadata.actor ?? 'unknown', name: metadata.actor },
      now: now(),
    },
    { ...metadata, environment },
  );
}

export interface CommitToPromote {
  id: string;
  environment: string;
  resource: { type: ResourceType; identifier: string };
  sha: string;
  commit_message?: string | null;
  promoted_at?: unknown;
}

export interface PromotionDeps {
  store: EventStore;
  commitById(id: string): Promise<CommitToPromote | undefined>;
  unpromoted(environment: string, filter: { types?: ResourceType[]; identifier?: string }): Promise<CommitToPromote[]>;
  /** The content of one version (it goes into the event, so the target's configuration is whole in the log). */
  version(type: ResourceType, identifier: string, sha: string): Promise<Record<string, unknown> | undefined>;
  nextEnvironment(slug: string): Promise<{ slug: string } | undefined>;
  precedingEnvironment(slug: string): Promise<{ slug: string } | undefined>;
  /** The stream of a resource in an environment: a branch's merge saves its versions there first. */
  resourceStream(type: ResourceType, environment: string, identifier: string): string;
}

/** `fromBranch`: a branch's environment key (ADR 0156): its commits merge into `toEnvironment`, the environment it was made off. */
export type PromoteTarget =
  { toEnvironment: string; fromBranch?: string; types?: ResourceType[]; identifier?: string } | { commitId: string };

/** Carries commits from an environment into the next one. */
export async function promoteCommits(
  deps: PromotionDeps,
  target: PromoteTarget,
  metadata: CommandMetadata,
): Promise<{ outcome: CommandOutcome<CommitLogState, CommitLogEvent>; promoted: string[]; environment: string }> {
  let from: string;
  let to: string;
  let selected: CommitToPromote[];
  if ('commitId' in target) {
    const commit = await deps.commitById(target.commitId);
    if (!commit) throw resourceMissing('commit');
    const next = await deps.nextEnvironment(commit.environment);
    if (!next)
      throw new DomainError(
        'no_next_environment',
        `${commit.environment} is the last environment; there is nowhere to promote to`,
        'invalid_request',
      );
    [from, to, selected] = [commit.environment, next.slug, commit.promoted_at ? [] : [commit]];
  } else if (target.fromBranch !== undefined) {
    [from, to] = [target.fromBranch, target.toEnvironment];
    selected = await deps.unpromoted(from, { types: target.types, identifier: target.identifier });
  } else {
    const previous = await deps.precedingEnvironment(target.toEnvironment);
    if (!previous)
      throw new DomainError(
        'no_preceding_environment',
        `${target.toEnvironment} is the first environment; commits are promoted into it from none`,
        'invalid_request',
      );
    [from, to] = [previous.slug, target.toEnvironment];
    selected = await deps.unpromoted(from, { types: target.types, identifier: target.identifier });
  }
  const commits = [];
  for (const c of selected) {
    const content = await deps.version(c.resource.type, c.resource.identifier, c.sha);
    if (!content) throw new Error(`Version ${c.sha} of ${c.resource.type} ${c.resource.identifier} is missing from the read model`);
    commits.push({ commitId: c.id, fromEnvironment: from, resource: c.resource, sha: c.sha, content, message: c.commit_message ?? null });
  }
  if (branchParent(from) !== undefined) await saveMergedVersions(deps, to, commits, metadata);
  const outcome = await handleCommand(
    deps.store,
    commitLogStream(to),
    commitLogDecider,
    { type: 'PromoteCommits', commits, now: now() },
    { ...metadata, environment: to },
  );
  return { outcome, promoted: outcome.events.map((e) => (e.data as { commit_id: string }).commit_id), environment: to };
}

/**
 * A branch merges into an editable environment, whose resources have streams of their own: the
 * merged versions are saved there first (the latest per resource), so that the environment's
 * next edits are decided against them. Saving them again on a retried merge records nothing.
 */
async function saveMergedVersions(
  deps: PromotionDeps,
  to: string,
  commits: { resource: { type: ResourceType; identifier: string }; content: Record<string, unknown> }[],
  metadata: CommandMetadata,
): Promise<void> {
  const latest = new Map(commits.map((c) => [`${c.resource.type}:${c.resource.identifier}`, c]));
  for (const { resource, content } of latest.values()) {
    await saveResourceVersion(
      deps.store,
      deps.resourceStream(resource.type, to, resource.identifier),
      { type: resource.type, key: resource.identifier, content, errors: [] },
      { ...metadata, environment: to },
    );
  }
}
