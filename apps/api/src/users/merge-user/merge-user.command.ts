import { Command } from '@nestjs/cqrs';
import { UserT } from '@notify/contracts';
import { RequestContext } from '@notify/http';

export class MergeUserCommand extends Command<UserT> {
  constructor(
    readonly ctx: RequestContext,
    readonly userId: string,
    readonly fromUserId: string,
  ) {
    super();
  }
}
