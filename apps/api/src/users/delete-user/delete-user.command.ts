import { Command } from '@nestjs/cqrs';
import { RequestContext } from '@notify/http';

export class DeleteUserCommand extends Command<void> {
  constructor(
    readonly ctx: RequestContext,
    readonly userId: string,
  ) {
    super();
  }
}
