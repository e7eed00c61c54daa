import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { setEnhancedSecurityMode } from '@notify/application';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { commandMetadata } from '../../shared/command-metadata';
import { EnvironmentLookup } from '../environment-lookup';
import { UpdateSecurityCommand } from './update-security.command';

/** Turning the mode on without a signing key is allowed: browser calls then fail with missing_jwt_signing_key. */
@CommandHandler(UpdateSecurityCommand)
export class UpdateSecurityHandler implements ICommandHandler<UpdateSecurityCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
    private readonly environments: EnvironmentLookup,
  ) {}

  async execute({ ctx, environment, enhancedSecurityMode }: UpdateSecurityCommand) {
    await this.environments.require(environment);
    const outcome = await setEnhancedSecurityMode(
      this.store,
      { environment, enabled: enhancedSecurityMode },
      { ...commandMetadata(ctx), environment },
    );
    await this.consistency.settle(outcome.append, [{ type: 'EnhancedSecurityModeChanged' }]);
    return this.environments.security(environment);
  }
}
