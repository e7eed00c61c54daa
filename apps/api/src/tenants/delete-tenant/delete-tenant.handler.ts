import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { deleteTenant, RecipientDeps } from '@notify/application';
import { ReadYourWrites } from '@notify/platform';
import { commandMetadata } from '../../shared/command-metadata';
import { RECIPIENT_DEPS } from '../../recipients/recipient-read-models.module';
import { DeleteTenantCommand } from './delete-tenant.command';

@CommandHandler(DeleteTenantCommand)
export class DeleteTenantHandler implements ICommandHandler<DeleteTenantCommand> {
  constructor(
    @Inject(RECIPIENT_DEPS) private readonly deps: RecipientDeps,
    private readonly consistency: ReadYourWrites,
  ) {}

  async execute({ ctx, tenantId }: DeleteTenantCommand): Promise<void> {
    const outcome = await deleteTenant(this.deps, ctx.environment, tenantId, commandMetadata(ctx));
    await this.consistency.settle(outcome.append, outcome.events);
    if (outcome.channelData) await this.consistency.settle(outcome.channelData.append, outcome.channelData.events);
  }
}
