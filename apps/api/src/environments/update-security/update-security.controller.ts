import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RouteInput, updateEnvironmentSecurityRoute } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { UpdateSecurityCommand } from './update-security.command';

@Controller()
export class UpdateSecurityController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(updateEnvironmentSecurityRoute)
  update(@Input() { params, body }: RouteInput<typeof updateEnvironmentSecurityRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new UpdateSecurityCommand(ctx, params.environment_slug, body.enhanced_security_mode));
  }
}
