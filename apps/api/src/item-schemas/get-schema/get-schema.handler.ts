import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { itemSchemaTarget } from '@notify/application';
import { ItemSchemaQueries } from '@notify/projections/item-schemas';
import { presentItemSchema } from '../present-item-schema';
import { GetSchemaQuery } from './get-schema.query';

/** A schema nothing was declared for yet has no properties (every item type has a schema). */
@QueryHandler(GetSchemaQuery)
export class GetSchemaHandler implements IQueryHandler<GetSchemaQuery> {
  constructor(private readonly schemas: ItemSchemaQueries) {}

  async execute({ environment, itemType, collection }: GetSchemaQuery) {
    const target = itemSchemaTarget(itemType, collection);
    const row = await this.schemas.get(environment, target.itemType, target.itemId);
    return presentItemSchema(target.itemType, target.itemId, row?.properties ?? []);
  }
}
