import { Command } from '@nestjs/cqrs';
import { RequestContext } from '@notify/http';

export class ArchiveGuideCommand extends Command<{ result: string }> {
  constructor(
    readonly ctx: RequestContext,
    readonly key: string,
  ) {
    super();
  }
}
