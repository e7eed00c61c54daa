import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { rotateApiKey } from '@notify/application';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { commandMetadata } from '../../shared/command-metadata';
import { ApiKeyLookup } from '../api-key-lookup';
import { RotateApiKeyCommand } from './rotate-api-key.command';

/** A new secret for the key; the old one stays accepted until the overlap ends (ADR 0152). */
@CommandHandler(RotateApiKeyCommand)
export class RotateApiKeyHandler implements ICommandHandler<RotateApiKeyCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
    private readonly keys: ApiKeyLookup,
  ) {}

  async execute({ ctx, keyId, overlapSeconds }: RotateApiKeyCommand) {
    const rotated = await rotateApiKey(this.store, { environment: ctx.environment, keyId, overlapSeconds }, commandMetadata(ctx));
    await this.consistency.settle(rotated.append, [{ type: 'ApiKeyIssued' }, { type: 'ApiKeyRotated' }]);
    const [replacement, old] = await Promise.all([
      this.keys.require(ctx.environment, rotated.keyId),
      this.keys.require(ctx.environment, keyId),
    ]);
    return { ...replacement, secret: rotated.key, rotated: old };
  }
}
