import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { saveResourceVersion } from '@notify/application';
import { DomainError } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { ConfigResourceQueries } from '@notify/projections/config-resources';
import { commandMetadata } from '../../shared/command-metadata';
import { CommitChangesCommand } from '../commit-changes/commit-changes.command';
import { EnvironmentOrder } from '../shared/environments';
import { assertSameKey } from '../shared/resource-ids';
import { ResourceChecks } from '../shared/resource-deps';
import { RESOURCE_KINDS } from '../shared/resource-kinds';
import { UpsertResourceCommand } from './upsert-resource.command';

/**
 * Saves a new version of a workflow, partial, layout, translation or message type in an editable
 * environment. A version with reference or Liquid problems is saved with valid: false and its
 * errors; with `commit`, a valid version is committed right away.
 */
@CommandHandler(UpsertResourceCommand)
export class UpsertResourceHandler implements ICommandHandler<UpsertResourceCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
    private readonly resources: ConfigResourceQueries,
    private readonly environments: EnvironmentOrder,
    private readonly checks: ResourceChecks,
    private readonly commands: CommandBus,
  ) {}

  async execute({ ctx, type, ids, body, options }: UpsertResourceCommand): Promise<Record<string, unknown>> {
    const kind = RESOURCE_KINDS[type];
    assertSameKey(kind.wrapper, ids, body);
    await this.environments.assertEditable(ctx.environment);
    const { content, errors } = await kind.check(kind.normalize(body, ids), this.checks.in(ctx.environment));
    if (options.commit && errors.length) {
      throw new DomainError(
        'invalid_params',
        `The ${kind.label} is not valid, so it cannot be committed`,
        'invalid_params',
        errors.map((e) => ({ ...e, field: `${kind.wrapper}.${e.field}` })),
      );
    }
    const outcome = await saveResourceVersion(
      this.store,
      kind.stream(ctx.environment, ids.identifier),
      { type, key: ids.identifier, content, errors },
      commandMetadata(ctx),
    );
    await this.consistency.settle(outcome.append, outcome.events);
    if (options.commit) {
      await this.commands.execute(
        new CommitChangesCommand(ctx, options.commit_message ?? null, { types: [type], identifier: ids.identifier }),
      );
    }
    const record = await this.resources.get(ctx.environment, type, ids.identifier);
    if (!record) throw new Error(`${type} ${ids.identifier} was written but is not in the read model`);
    return { [kind.wrapper]: kind.present(record, { annotate: options.annotate, format: options.format }) };
  }
}
