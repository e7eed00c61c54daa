import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { deleteObjectRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { DeleteObjectCommand } from './delete-object.command';

@Controller()
export class DeleteObjectController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(deleteObjectRoute)
  async delete(@Input() { params }: RouteInput<typeof deleteObjectRoute>, @Ctx() ctx: RequestContext): Promise<void> {
    await this.commands.execute(new DeleteObjectCommand(ctx, params.collection, params.id));
  }
}
