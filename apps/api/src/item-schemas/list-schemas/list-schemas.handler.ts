import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ItemSchemaQueries } from '@notify/projections/item-schemas';
import { presentItemSchema } from '../present-item-schema';
import { ListSchemasQuery } from './list-schemas.query';

/** Every schema of the environment on one page (there is one per item type or collection). */
@QueryHandler(ListSchemasQuery)
export class ListSchemasHandler implements IQueryHandler<ListSchemasQuery> {
  constructor(private readonly schemas: ItemSchemaQueries) {}

  async execute({ environment, itemType }: ListSchemasQuery) {
    const rows = await this.schemas.list(environment, itemType);
    return {
      entries: rows.map((r) => presentItemSchema(r.item_type, r.item_id || null, r.properties)),
      page_info: { after: null, before: null, page_size: rows.length },
    };
  }
}
