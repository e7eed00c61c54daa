import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { rotateApiKeyRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { RotateApiKeyCommand } from './rotate-api-key.command';

@Controller()
export class RotateApiKeyController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(rotateApiKeyRoute)
  rotate(@Input() { params, body }: RouteInput<typeof rotateApiKeyRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new RotateApiKeyCommand(ctx, params.key_id, body.overlap_seconds));
  }
}
