import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { createSigningKeyRoute, rotateSigningKeyRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { CreateSigningKeyCommand } from './create-signing-key.command';

@Controller()
export class CreateSigningKeyController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(createSigningKeyRoute)
  create(@Input() { params }: RouteInput<typeof createSigningKeyRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new CreateSigningKeyCommand(ctx, params.environment_slug, false));
  }

  @Endpoint(rotateSigningKeyRoute)
  rotate(@Input() { params }: RouteInput<typeof rotateSigningKeyRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new CreateSigningKeyCommand(ctx, params.environment_slug, true));
  }
}
