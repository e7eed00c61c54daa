import { Query } from '@nestjs/cqrs';
import { TenantT } from '@notify/contracts';

export class GetTenantQuery extends Query<TenantT> {
  constructor(
    readonly environment: string,
    readonly tenantId: string,
  ) {
    super();
  }
}
