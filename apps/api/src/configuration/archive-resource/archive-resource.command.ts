import { Command } from '@nestjs/cqrs';
import { ArchivableType } from '@notify/domain';
import { RequestContext } from '@notify/http';

export class ArchiveResourceCommand extends Command<{ result: string }> {
  constructor(
    readonly ctx: RequestContext,
    readonly type: ArchivableType,
    readonly key: string,
  ) {
    super();
  }
}
