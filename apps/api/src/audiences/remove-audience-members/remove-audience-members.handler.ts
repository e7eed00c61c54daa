import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AudienceDeps, removeAudienceMembers } from '@notify/application';
import { ReadYourWrites } from '@notify/platform';
import { commandMetadata } from '../../shared/command-metadata';
import { AUDIENCE_DEPS } from '../audience-deps';
import { RemoveAudienceMembersCommand } from './remove-audience-members.command';

@CommandHandler(RemoveAudienceMembersCommand)
export class RemoveAudienceMembersHandler implements ICommandHandler<RemoveAudienceMembersCommand> {
  constructor(
    @Inject(AUDIENCE_DEPS) private readonly deps: AudienceDeps,
    private readonly consistency: ReadYourWrites,
  ) {}

  async execute({ ctx, audienceKey, members }: RemoveAudienceMembersCommand): Promise<void> {
    const outcome = await removeAudienceMembers(this.deps, ctx.environment, audienceKey, members, commandMetadata(ctx));
    await this.consistency.settle(outcome.append, outcome.events);
  }
}
