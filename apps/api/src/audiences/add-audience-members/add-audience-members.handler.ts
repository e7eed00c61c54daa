import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { addAudienceMembers, AudienceDeps } from '@notify/application';
import { ReadYourWrites } from '@notify/platform';
import { commandMetadata } from '../../shared/command-metadata';
import { settleAll } from '../../shared/settle';
import { AUDIENCE_DEPS } from '../audience-deps';
import { AddAudienceMembersCommand } from './add-audience-members.command';

@CommandHandler(AddAudienceMembersCommand)
export class AddAudienceMembersHandler implements ICommandHandler<AddAudienceMembersCommand> {
  constructor(
    @Inject(AUDIENCE_DEPS) private readonly deps: AudienceDeps,
    private readonly consistency: ReadYourWrites,
  ) {}

  async execute({ ctx, audienceKey, members, createAudience }: AddAudienceMembersCommand): Promise<void> {
    const outcomes = await addAudienceMembers(this.deps, ctx.environment, audienceKey, members, createAudience, commandMetadata(ctx));
    await settleAll(this.consistency, outcomes);
  }
}
