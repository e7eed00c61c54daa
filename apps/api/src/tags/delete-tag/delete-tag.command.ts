import { Command } from '@nestjs/cqrs';
import { RequestContext } from '@notify/http';

export class DeleteTagCommand extends Command<void> {
  constructor(
    readonly ctx: RequestContext,
    readonly name: string,
  ) {
    super();
  }
}
