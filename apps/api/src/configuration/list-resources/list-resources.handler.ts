import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ConfigResourceQueries } from '@notify/projections/config-resources';
import { RESOURCE_KINDS } from '../shared/resource-kinds';
import { ListResourcesQuery } from './list-resources.query';

@QueryHandler(ListResourcesQuery)
export class ListResourcesHandler implements IQueryHandler<ListResourcesQuery> {
  constructor(private readonly resources: ConfigResourceQueries) {}

  async execute({ environment, type, page, options, where, tag }: ListResourcesQuery) {
    const kind = RESOURCE_KINDS[type];
    const { entries, page_info } = await this.resources.list(
      environment,
      type,
      page,
      { committedOnly: options.hide_uncommitted_changes, archived: options.archived },
      where,
      tag,
    );
    return { entries: entries.map((r) => kind.present(r, options)), page_info };
  }
}
