import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { promoteCommits } from '@notify/application';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { CommitQueries } from '@notify/projections/commits';
import { ConfigResourceQueries } from '@notify/projections/config-resources';
import { commandMetadata } from '../../shared/command-metadata';
import { EnvironmentOrder } from '../shared/environments';
import { RESOURCE_KINDS } from '../shared/resource-kinds';
import { PromoteCommitsCommand } from './promote-commits.command';

/** Carries commits from an environment into the next one (the use case is `promoteCommits`). */
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
    const { outcome, promoted, environment } = await promoteCommits(
      {
        store: this.store,
        commitById: (id) => this.commits.byId(id),
        unpromoted: (env, filter) => this.commits.unpromoted(env, filter),
        version: (type, identifier, sha) => this.resources.version(type, identifier, sha),
        nextEnvironment: (slug) => this.environments.next(slug),
        precedingEnvironment: (slug) => this.environments.preceding(slug),
        resourceStream: (type, environment, identifier) => RESOURCE_KINDS[type].stream(environment, identifier),
      },
      target,
      commandMetadata(ctx),
    );
    await this.consistency.settle(outcome.append, outcome.events);
    return { promoted, environment };
  }
}
