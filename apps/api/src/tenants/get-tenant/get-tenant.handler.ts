import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { TenantT } from '@notify/contracts';
import { resourceMissing } from '@notify/domain';
import { TenantQueries } from '@notify/projections/tenants';
import { GetTenantQuery } from './get-tenant.query';

@QueryHandler(GetTenantQuery)
export class GetTenantHandler implements IQueryHandler<GetTenantQuery> {
  constructor(private readonly tenants: TenantQueries) {}

  async execute({ environment, tenantId }: GetTenantQuery): Promise<TenantT> {
    const tenant = await this.tenants.get(environment, tenantId);
    if (!tenant) throw resourceMissing('tenant');
    return tenant;
  }
}
