import { Command } from '@nestjs/cqrs';
import { ItemSchemaRequest, ItemSchemaT, ItemTypeT } from '@notify/contracts';
import { RequestContext } from '@notify/http';
import { z } from 'zod';

export class UpsertSchemaCommand extends Command<ItemSchemaT> {
  constructor(
    readonly ctx: RequestContext,
    readonly itemType: ItemTypeT,
    readonly collection: string | undefined,
    readonly request: z.infer<typeof ItemSchemaRequest>,
  ) {
    super();
  }
}
