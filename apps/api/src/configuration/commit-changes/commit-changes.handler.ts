import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { commitChanges } from '@notify/application';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { ConfigResourceQueries } from '@notify/projections/config-resources';
import { commandMetadata } from '../../shared/command-metadata';
import { EnvironmentOrder } from '../shared/environments';
import { CommitChangesCommand } from './commit-changes.command';

/** Commits the uncommitted versions of an environment: each resource gets a commit fixing its current version. */
@CommandHandler(CommitChangesCommand)
export class CommitChangesHandler implements ICommandHandler<CommitChangesCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
    private readonly resources: ConfigResourceQueries,
    private readonly environments: EnvironmentOrder,
  ) {}

  async execute({ ctx, message, filter }: CommitChangesCommand): Promise<{ result: 'success' }> {
    await this.environments.assertEditable(ctx.environment);
    const changes = await this.resources.uncommitted(ctx.environment, filter);
    const outcome = await commitChanges(this.store, ctx.environment, changes, message, commandMetadata(ctx));
    await this.consistency.settle(outcome.append, outcome.events);
    return { result: 'success' };
  }
}
