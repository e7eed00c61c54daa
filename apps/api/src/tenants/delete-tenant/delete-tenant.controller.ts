import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { deleteTenantRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { DeleteTenantCommand } from './delete-tenant.command';

@Controller()
export class DeleteTenantController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(deleteTenantRoute)
  async delete(@Input() { params }: RouteInput<typeof deleteTenantRoute>, @Ctx() ctx: RequestContext): Promise<void> {
    await this.commands.execute(new DeleteTenantCommand(ctx, params.id));
  }
}
