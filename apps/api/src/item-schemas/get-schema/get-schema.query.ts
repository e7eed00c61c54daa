import { Query } from '@nestjs/cqrs';
import { ItemSchemaT, ItemTypeT } from '@notify/contracts';

export class GetSchemaQuery extends Query<ItemSchemaT> {
  constructor(
    readonly environment: string,
    readonly itemType: ItemTypeT,
    readonly collection: string | undefined,
  ) {
    super();
  }
}
