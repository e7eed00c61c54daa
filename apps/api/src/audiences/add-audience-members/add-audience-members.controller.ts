import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { addAudienceMembersRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { AddAudienceMembersCommand } from './add-audience-members.command';

@Controller()
export class AddAudienceMembersController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(addAudienceMembersRoute)
  add(@Input() { params, query, body }: RouteInput<typeof addAudienceMembersRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new AddAudienceMembersCommand(ctx, params.key, body.members, query.create_audience ?? false));
  }
}
