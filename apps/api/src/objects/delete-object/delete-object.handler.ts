import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { deleteObject, RecipientDeps } from '@notify/application';
import { ReadYourWrites } from '@notify/platform';
import { commandMetadata } from '../../shared/command-metadata';
import { RECIPIENT_DEPS } from '../../recipients/recipient-read-models.module';
import { DeleteObjectCommand } from './delete-object.command';

@CommandHandler(DeleteObjectCommand)
export class DeleteObjectHandler implements ICommandHandler<DeleteObjectCommand> {
  constructor(
    @Inject(RECIPIENT_DEPS) private readonly deps: RecipientDeps,
    private readonly consistency: ReadYourWrites,
  ) {}

  async execute({ ctx, collection, objectId }: DeleteObjectCommand): Promise<void> {
    const outcome = await deleteObject(this.deps, ctx.environment, collection, objectId, commandMetadata(ctx));
    await this.consistency.settle(outcome.append, outcome.events);
  }
}
