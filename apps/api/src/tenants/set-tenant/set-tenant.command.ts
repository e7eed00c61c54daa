import { Command } from '@nestjs/cqrs';
import { SetTenantBodyT, TenantT } from '@notify/contracts';
import { RequestContext } from '@notify/http';

export class SetTenantCommand extends Command<TenantT> {
  constructor(
    readonly ctx: RequestContext,
    readonly tenantId: string,
    readonly body: SetTenantBodyT,
  ) {
    super();
  }
}
