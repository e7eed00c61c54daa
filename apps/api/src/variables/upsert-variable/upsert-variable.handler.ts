import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { SECRET_BOX, SecretBox, upsertVariable } from '@notify/application';
import { Database } from '@notify/database';
import { EventStore } from '@notify/eventstore';
import { DATABASE, EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { EnvironmentQueries } from '@notify/projections/environments';
import { VariableQueries } from '@notify/projections/variables';
import { commandMetadata } from '../../shared/command-metadata';
import { presentVariable } from '../present-variable';
import { UpsertVariableCommand } from './upsert-variable.command';

/** Sets a variable (see upsertVariable) and answers it as reads now show it. */
@CommandHandler(UpsertVariableCommand)
export class UpsertVariableHandler implements ICommandHandler<UpsertVariableCommand> {
  private readonly environments: EnvironmentQueries;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(DATABASE) database: Database,
    private readonly consistency: ReadYourWrites,
    private readonly variables: VariableQueries,
  ) {
    this.environments = new EnvironmentQueries(database.dataSource);
  }

  async execute({ ctx, key, variable }: UpsertVariableCommand) {
    const deps = { store: this.store, box: this.box, environmentExists: async (slug: string) => !!(await this.environments.getEnvironment(slug)) };
    const outcome = await upsertVariable(deps, key, variable, commandMetadata(ctx));
    await this.consistency.settle(outcome.append, outcome.events);
    const saved = await this.variables.get(key);
    if (!saved) throw new Error(`Variable ${key} was written but is not in the read model`);
    return { variable: presentVariable(saved) };
  }
}
