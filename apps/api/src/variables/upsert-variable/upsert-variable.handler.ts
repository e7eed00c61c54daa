import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AccountSettingsDeps, upsertVariable } from '@notify/application';
import { ReadYourWrites } from '@notify/platform';
import { VariableQueries } from '@notify/projections/variables';
import { ACCOUNT_SETTINGS_DEPS } from '../../shared/account-settings-deps';
import { commandMetadata } from '../../shared/command-metadata';
import { presentVariable } from '../present-variable';
import { UpsertVariableCommand } from './upsert-variable.command';

/** Sets a variable (see upsertVariable) and answers it as reads now show it. */
@CommandHandler(UpsertVariableCommand)
export class UpsertVariableHandler implements ICommandHandler<UpsertVariableCommand> {
  constructor(
    @Inject(ACCOUNT_SETTINGS_DEPS) private readonly deps: AccountSettingsDeps,
    private readonly consistency: ReadYourWrites,
    private readonly variables: VariableQueries,
  ) {}

  async execute({ ctx, key, variable }: UpsertVariableCommand) {
    const outcome = await upsertVariable(this.deps, key, variable, commandMetadata(ctx));
    await this.consistency.settle(outcome.append, outcome.events);
    const saved = await this.variables.get(key);
    if (!saved) throw new Error(`Variable ${key} was written but is not in the read model`);
    return { variable: presentVariable(saved) };
  }
}
