import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { itemSchemaTarget, previewItemSchema } from '@notify/application';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE } from '@notify/platform';
import { presentItemSchema } from '../present-item-schema';
import { ValidateSchemaQuery } from './validate-schema.query';

/** The schema the change would make; nothing is written. An invalid request is refused by its contract (422). */
@QueryHandler(ValidateSchemaQuery)
export class ValidateSchemaHandler implements IQueryHandler<ValidateSchemaQuery> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async execute({ environment, itemType, collection, request }: ValidateSchemaQuery) {
    const target = itemSchemaTarget(itemType, collection);
    return presentItemSchema(target.itemType, target.itemId, await previewItemSchema(this.store, environment, target, request));
  }
}
