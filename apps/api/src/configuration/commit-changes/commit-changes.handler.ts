import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { handleCommand } from '@notify/application';
import { commitLogDecider, commitLogStream, invalidParams } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { ConfigResourceQueries } from '@notify/projections/config-resources';
import { randomUUID } from 'node:crypto';
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
    const invalid = changes.filter((c) => !c.valid);
    if (invalid.length) {
      throw invalidParams(
        invalid.map((c) => ({ field: `${c.type}.${c.identifier}`, message: `is not valid (${c.errors.map((e) => `${e.field}: ${e.message}`).join('; ')}); fix it before committing`, type: 'invalid_resource' })),
        'Invalid resources cannot be committed',
      );
    }
    const metadata = commandMetadata(ctx);
    const outcome = await handleCommand(
      this.store,
      commitLogStream(ctx.environment),
      commitLogDecider,
      {
        type: 'CommitChanges',
        changes: changes.map((c) => ({ commitId: randomUUID(), resource: { type: c.type, identifier: c.identifier }, sha: c.sha })),
        message,
        author: { email: metadata.actor ?? 'unknown', name: metadata.actor },
        now: new Date().toISOString(),
      },
      metadata,
    );
    await this.consistency.settle(outcome.append, outcome.events);
    return { result: 'success' };
  }
}
