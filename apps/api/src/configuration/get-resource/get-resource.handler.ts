import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { resourceMissing } from '@notify/domain';
import { ConfigResourceQueries } from '@notify/projections/config-resources';
import { RESOURCE_KINDS } from '../shared/resource-kinds';
import { GetResourceQuery } from './get-resource.query';

@QueryHandler(GetResourceQuery)
export class GetResourceHandler implements IQueryHandler<GetResourceQuery> {
  constructor(private readonly resources: ConfigResourceQueries) {}

  async execute({ environment, type, ids, options }: GetResourceQuery): Promise<Record<string, unknown>> {
    const kind = RESOURCE_KINDS[type];
    const record = await this.resources.get(environment, type, ids.identifier, { committedOnly: options.hide_uncommitted_changes });
    if (!record) throw resourceMissing(kind.label);
    return kind.present(record, options);
  }
}
