import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ListUnimplementedResourcesQuery } from './list-unimplemented-resources.query';

/** None can exist, so the list is empty (ADR 0123); nothing else of these resources is served. */
@QueryHandler(ListUnimplementedResourcesQuery)
export class ListUnimplementedResourcesHandler implements IQueryHandler<ListUnimplementedResourcesQuery> {
  execute({ pageSize }: ListUnimplementedResourcesQuery) {
    return Promise.resolve({ entries: [], page_info: { after: null, before: null, page_size: pageSize } });
  }
}
