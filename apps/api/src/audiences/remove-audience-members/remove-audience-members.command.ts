import { Command } from '@nestjs/cqrs';
import { AudienceMemberRef } from '@notify/application';
import { RequestContext } from '@notify/http';

export class RemoveAudienceMembersCommand extends Command<void> {
  constructor(
    readonly ctx: RequestContext,
    readonly audienceKey: string,
    readonly members: AudienceMemberRef[],
  ) {
    super();
  }
}
