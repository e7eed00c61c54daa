import { Command } from '@nestjs/cqrs';
import { UserErasureT } from '@notify/contracts';
import { RequestContext } from '@notify/http';

export class EraseUserCommand extends Command<UserErasureT> {
  constructor(
    readonly ctx: RequestContext,
    readonly userId: string,
    readonly reason: string,
  ) {
    super();
  }
}
