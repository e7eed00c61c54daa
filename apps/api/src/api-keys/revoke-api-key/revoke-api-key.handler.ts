import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { revokeApiKey } from '@notify/application';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { commandMetadata } from '../../shared/command-metadata';
import { ApiKeyLookup } from '../api-key-lookup';
import { RevokeApiKeyCommand } from './revoke-api-key.command';

/**
 * Revokes a key. Every api process reads keys from the shared read model per request (no key
 * cache), and this answers only once the projection has applied the revocation: from then on
 * the key answers 401 everywhere.
 */
@CommandHandler(RevokeApiKeyCommand)
export class RevokeApiKeyHandler implements ICommandHandler<RevokeApiKeyCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
    private readonly keys: ApiKeyLookup,
  ) {}

  async execute({ ctx, keyId }: RevokeApiKeyCommand) {
    const outcome = await revokeApiKey(this.store, { environment: ctx.environment, keyId }, commandMetadata(ctx));
    await this.consistency.settle(outcome.append, [{ type: 'ApiKeyRevoked' }]);
    return this.keys.require(ctx.environment, keyId);
  }
}
