import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { createSigningKey } from '@notify/application';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { commandMetadata } from '../../shared/command-metadata';
import { EnvironmentLookup } from '../environment-lookup';
import { CreateSigningKeyCommand } from './create-signing-key.command';

/** Generates the key pair here; the log and the read model only ever hold the public half. */
@CommandHandler(CreateSigningKeyCommand)
export class CreateSigningKeyHandler implements ICommandHandler<CreateSigningKeyCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
    private readonly environments: EnvironmentLookup,
  ) {}

  async execute({ ctx, environment, rotate }: CreateSigningKeyCommand) {
    await this.environments.require(environment);
    const created = await createSigningKey(this.store, { environment, rotate }, { ...commandMetadata(ctx), environment });
    await this.consistency.settle(created.append, [{ type: 'SigningKeyCreated' }]);
    return {
      id: created.signingKeyId,
      environment,
      algorithm: 'RS256' as const,
      public_key: created.publicKey,
      private_key: created.privateKey,
      created_at: created.createdAt,
      revoked_at: null,
      revoked_signing_key_ids: created.revoked,
    };
  }
}
