import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RouteInput, setTenantRoute } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { SetTenantCommand } from './set-tenant.command';

@Controller()
export class SetTenantController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(setTenantRoute)
  set(@Input() { params, body }: RouteInput<typeof setTenantRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new SetTenantCommand(ctx, params.id, body));
  }
}
