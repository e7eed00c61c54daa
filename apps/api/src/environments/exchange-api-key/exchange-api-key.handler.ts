import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { exchangeServiceToken, SECRET_BOX, SecretBox } from '@notify/application';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { commandMetadata } from '../../shared/command-metadata';
import { EnvironmentLookup } from '../environment-lookup';
import { ExchangeApiKeyCommand } from './exchange-api-key.command';

/** A service token's secret key for an environment, usable on the public API as soon as it is answered. */
@CommandHandler(ExchangeApiKeyCommand)
export class ExchangeApiKeyHandler implements ICommandHandler<ExchangeApiKeyCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    private readonly consistency: ReadYourWrites,
    private readonly environments: EnvironmentLookup,
  ) {}

  async execute({ ctx, environment }: ExchangeApiKeyCommand): Promise<{ api_key: string }> {
    await this.environments.require(environment);
    const exchanged = await exchangeServiceToken(
      this.store,
      this.box,
      { tokenId: ctx.credential.id, environment },
      { ...commandMetadata(ctx), environment },
    );
    await this.consistency.settle(exchanged.append, [{ type: 'ApiKeyIssued' }]);
    return { api_key: exchanged.key };
  }
}
