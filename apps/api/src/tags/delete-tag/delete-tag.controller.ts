import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { deleteTagRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { DeleteTagCommand } from './delete-tag.command';

@Controller()
export class DeleteTagController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(deleteTagRoute)
  async delete(@Input() { params }: RouteInput<typeof deleteTagRoute>, @Ctx() ctx: RequestContext): Promise<void> {
    await this.commands.execute(new DeleteTagCommand(ctx, params.name));
  }
}
