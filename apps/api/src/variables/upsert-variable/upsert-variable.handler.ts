import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { handleCommand, SECRET_BOX, SecretBox, toDomainEvent } from '@notify/application';
import { REDACTED, SecretValueT } from '@notify/contracts';
import { Database } from '@notify/database';
import { fold, invalidParams, variableDecider, VariableEvent, variableStream } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { DATABASE, EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { EnvironmentQueries } from '@notify/projections/environments';
import { VariableQueries } from '@notify/projections/variables';
import { commandMetadata } from '../../shared/command-metadata';
import { presentVariable } from '../present-variable';
import { UpsertVariableCommand } from './upsert-variable.command';

/**
 * Sets a variable's default value and its per-environment values (null removes one). Values of
 * secret variables are sealed; sending the obfuscated value back keeps the stored one.
 */
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
    const stream = variableStream(key);
    const { current } = fold(variableDecider, (await this.store.readStream(stream)).map(toDomainEvent) as VariableEvent[]);
    const type = variable.type ?? current?.type ?? 'public';
    const keep = (given: string, before: SecretValueT | null | undefined): SecretValueT => {
      if (given === REDACTED && before != null) return before;
      return type === 'secret' ? this.box.seal(given) : given;
    };
    const values: Record<string, SecretValueT> = { ...(current?.environment_values ?? {}) };
    const unknown = [];
    for (const [env, value] of Object.entries(variable.environment_values ?? {})) {
      if (!(await this.environments.getEnvironment(env))) unknown.push({ field: `variable.environment_values.${env}`, message: `no environment named ${env}`, type: 'reference' });
      else if (value === null) delete values[env];
      else values[env] = keep(value, current?.environment_values[env]);
    }
    if (unknown.length) throw invalidParams(unknown);
    if (current && current.type !== type) {
      // Changing the type re-seals (or unseals) every value it can; an obfuscated value cannot change type.
      for (const [env, v] of Object.entries(values)) if (typeof v !== 'string') throw invalidParams([{ field: `variable.environment_values.${env}`, message: 'send the value again to change the type of a secret variable', type: 'required' }]);
    }
    const value = variable.value === undefined ? (current?.value ?? null) : variable.value === null ? null : keep(variable.value, current?.value);
    const outcome = await handleCommand(
      this.store,
      stream,
      variableDecider,
      { type: 'UpsertVariable', variable: { key, type, description: variable.description === undefined ? (current?.description ?? null) : variable.description, value, environment_values: values }, now: new Date().toISOString() },
      { ...commandMetadata(ctx), environment: null },
    );
    await this.consistency.settle(outcome.append, outcome.events);
    const saved = await this.variables.get(key);
    if (!saved) throw new Error(`Variable ${key} was written but is not in the read model`);
    return { variable: presentVariable(saved) };
  }
}
