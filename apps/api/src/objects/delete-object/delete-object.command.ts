import { Command } from '@nestjs/cqrs';
import { RequestContext } from '@notify/http';

export class DeleteObjectCommand extends Command<void> {
  constructor(
    readonly ctx: RequestContext,
    readonly collection: string,
    readonly objectId: string,
  ) {
    super();
  }
}
