import { Command } from '@nestjs/cqrs';
import { RequestContext } from '@notify/http';

export class DeleteTenantCommand extends Command<void> {
  constructor(
    readonly ctx: RequestContext,
    readonly tenantId: string,
  ) {
    super();
  }
}
