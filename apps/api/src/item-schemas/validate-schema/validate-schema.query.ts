import { Query } from '@nestjs/cqrs';
import { ItemSchemaRequest, ItemSchemaT, ItemTypeT } from '@notify/contracts';
import { z } from 'zod';

export class ValidateSchemaQuery extends Query<ItemSchemaT> {
  constructor(
    readonly environment: string,
    readonly itemType: ItemTypeT,
    readonly collection: string | undefined,
    readonly request: z.infer<typeof ItemSchemaRequest>,
  ) {
    super();
  }
}
