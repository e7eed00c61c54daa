import { Command } from '@nestjs/cqrs';
import { RequestContext } from '@notify/http';

export class DeleteChannelGroupCommand extends Command<void> {
  constructor(
    readonly ctx: RequestContext,
    readonly key: string,
  ) {
    super();
  }
}
