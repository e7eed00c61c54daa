import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { RecipientDeps, setObject } from '@notify/application';
import { ObjectT } from '@notify/contracts';
import { ReadYourWrites } from '@notify/platform';
import { ObjectQueries, toObject } from '@notify/projections/objects';
import { commandMetadata } from '../../shared/command-metadata';
import { RECIPIENT_DEPS } from '../../recipients/recipient-read-models.module';
import { SetObjectCommand } from './set-object.command';

@CommandHandler(SetObjectCommand)
export class SetObjectHandler implements ICommandHandler<SetObjectCommand> {
  constructor(
    @Inject(RECIPIENT_DEPS) private readonly deps: RecipientDeps,
    private readonly consistency: ReadYourWrites,
    private readonly objects: ObjectQueries,
  ) {}

  async execute({ ctx, collection, objectId, body }: SetObjectCommand): Promise<ObjectT> {
    const outcome = await setObject(this.deps, ctx.environment, collection, objectId, body, commandMetadata(ctx));
    await this.consistency.settle(outcome.append, outcome.events);
    const now = new Date();
    return (
      (await this.objects.get(ctx.environment, collection, objectId)) ??
      toObject({ collection, id: objectId, properties: outcome.state.properties, inserted_at: now, updated_at: now })
    );
  }
}
