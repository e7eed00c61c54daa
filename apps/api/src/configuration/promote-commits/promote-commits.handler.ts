import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { handleCommand } from '@notify/application';
import { commitLogDecider, commitLogStream, DomainError, resourceMissing } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { CommitQueries, CommitRecord } from '@notify/projections/commits';
import { ConfigResourceQueries } from '@notify/projections/config-resources';
import { commandMetadata } from '../../shared/command-metadata';
import { EnvironmentOrder } from '../shared/environments';
import { PromoteCommitsCommand } from './promote-commits.command';

/**
 * Carries commits from an environment into the next one. The promoted content goes into the
 * event, so the target environment's configuration is whole in the log.
 */
@CommandHandler(PromoteCommitsCommand)
export class PromoteCommitsHandler implements ICommandHandler<PromoteCommitsCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
    private readonly commits: CommitQueries,
    private readonly resources: ConfigResourceQueries,
    private readonly environments: EnvironmentOrder,
  ) {}

  async execute({ ctx, target }: PromoteCommitsCommand): Promise<{ promoted: string[]; environment: string }> {
    let from: string;
    let to: string;
    let selected: CommitRecord[];
    if ('commitId' in target) {
      const commit = await this.commits.byId(target.commitId);
      if (!commit) throw resourceMissing('commit');
      const next = await this.environments.next(commit.environment);
      if (!next) throw new DomainError('no_next_environment', `${commit.environment} is the last environment; there is nowhere to promote to`, 'invalid_request');
      [from, to, selected] = [commit.environment, next.slug, commit.promoted_at ? [] : [commit]];
    } else {
      const previous = await this.environments.preceding(target.toEnvironment);
      if (!previous) throw new DomainError('no_preceding_environment', `${target.toEnvironment} is the first environment; commits are promoted into it from none`, 'invalid_request');
      [from, to] = [previous.slug, target.toEnvironment];
      selected = await this.commits.unpromoted(from, { types: target.types, identifier: target.identifier });
    }
    const commits = [];
    for (const c of selected) {
      const content = await this.resources.version(c.resource.type, c.resource.identifier, c.sha);
      if (!content) throw new Error(`Version ${c.sha} of ${c.resource.type} ${c.resource.identifier} is missing from the read model`);
      commits.push({ commitId: c.id, fromEnvironment: from, resource: c.resource, sha: c.sha, content, message: c.commit_message ?? null });
    }
    const outcome = await handleCommand(this.store, commitLogStream(to), commitLogDecider, { type: 'PromoteCommits', commits, now: new Date().toISOString() }, { ...commandMetadata(ctx), environment: to });
    await this.consistency.settle(outcome.append, outcome.events);
    return { promoted: outcome.events.map((e) => (e.data as { commit_id: string }).commit_id), environment: to };
  }
}
