import { Command } from '@nestjs/cqrs';
import { AudienceMemberRequestT } from '@notify/contracts';
import { RequestContext } from '@notify/http';

export class AddAudienceMembersCommand extends Command<void> {
  constructor(
    readonly ctx: RequestContext,
    readonly audienceKey: string,
    readonly members: AudienceMemberRequestT[],
    readonly createAudience: boolean,
  ) {
    super();
  }
}
