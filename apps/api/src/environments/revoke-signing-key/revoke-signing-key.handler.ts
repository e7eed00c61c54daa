import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { revokeSigningKey } from '@notify/application';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { commandMetadata } from '../../shared/command-metadata';
import { EnvironmentLookup } from '../environment-lookup';
import { presentSigningKey } from '../present-signing-key';
import { RevokeSigningKeyCommand } from './revoke-signing-key.command';

@CommandHandler(RevokeSigningKeyCommand)
export class RevokeSigningKeyHandler implements ICommandHandler<RevokeSigningKeyCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
    private readonly environments: EnvironmentLookup,
  ) {}

  async execute({ ctx, environment, signingKeyId }: RevokeSigningKeyCommand) {
    await this.environments.require(environment);
    const outcome = await revokeSigningKey(this.store, { environment, signingKeyId }, { ...commandMetadata(ctx), environment });
    await this.consistency.settle(outcome.append, [{ type: 'SigningKeyRevoked' }]);
    const key = (await this.environments.queries.listSigningKeys(environment)).find((k) => k.id === signingKeyId);
    if (!key) throw new Error(`Signing key ${signingKeyId} was revoked but is not in the read model`);
    return presentSigningKey(environment, key);
  }
}
