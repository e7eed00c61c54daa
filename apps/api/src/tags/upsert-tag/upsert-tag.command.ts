import { Command } from '@nestjs/cqrs';
import { TagRequest, TagT } from '@notify/contracts';
import { RequestContext } from '@notify/http';
import { z } from 'zod';

export class UpsertTagCommand extends Command<{ tag: TagT }> {
  constructor(
    readonly ctx: RequestContext,
    readonly name: string,
    readonly tag: z.infer<typeof TagRequest>,
  ) {
    super();
  }
}
