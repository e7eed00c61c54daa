import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { issueApiKey } from '@notify/application';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { commandMetadata } from '../../shared/command-metadata';
import { ApiKeyLookup } from '../api-key-lookup';
import { CreateApiKeyCommand } from './create-api-key.command';

/** A new key, usable on the public API as soon as this answers; its secret is answered here only. */
@CommandHandler(CreateApiKeyCommand)
export class CreateApiKeyHandler implements ICommandHandler<CreateApiKeyCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
    private readonly keys: ApiKeyLookup,
  ) {}

  async execute({ ctx, kind, name }: CreateApiKeyCommand) {
    const issued = await issueApiKey(this.store, { environment: ctx.environment, kind, name }, commandMetadata(ctx));
    await this.consistency.settle(issued.append, [{ type: 'ApiKeyIssued' }]);
    return { ...(await this.keys.require(ctx.environment, issued.keyId)), secret: issued.key };
  }
}
