import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { TagQueries } from '@notify/projections/tags';
import { presentTag } from '../present-tag';
import { ListTagsQuery } from './list-tags.query';

@QueryHandler(ListTagsQuery)
export class ListTagsHandler implements IQueryHandler<ListTagsQuery> {
  constructor(private readonly tags: TagQueries) {}

  async execute() {
    return { entries: (await this.tags.list()).map(presentTag) };
  }
}
