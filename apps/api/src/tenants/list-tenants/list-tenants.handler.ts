import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { TenantQueries } from '@notify/projections/tenants';
import { ListTenantsQuery } from './list-tenants.query';

@QueryHandler(ListTenantsQuery)
export class ListTenantsHandler implements IQueryHandler<ListTenantsQuery> {
  constructor(private readonly tenants: TenantQueries) {}

  execute({ environment, filter }: ListTenantsQuery) {
    return this.tenants.list(environment, filter);
  }
}
