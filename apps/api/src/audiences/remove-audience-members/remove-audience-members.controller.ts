import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { removeAudienceMembersRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { RemoveAudienceMembersCommand } from './remove-audience-members.command';

@Controller()
export class RemoveAudienceMembersController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(removeAudienceMembersRoute)
  remove(@Input() { params, body }: RouteInput<typeof removeAudienceMembersRoute>, @Ctx() ctx: RequestContext) {
    const members = body.members.map((m) => ({ userId: m.user.id, tenant: m.tenant ?? null }));
    return this.commands.execute(new RemoveAudienceMembersCommand(ctx, params.key, members));
  }
}
