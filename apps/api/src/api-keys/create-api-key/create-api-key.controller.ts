import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { createApiKeyRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { CreateApiKeyCommand } from './create-api-key.command';

@Controller()
export class CreateApiKeyController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(createApiKeyRoute)
  create(@Input() { body }: RouteInput<typeof createApiKeyRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new CreateApiKeyCommand(ctx, body.kind, body.name));
  }
}
