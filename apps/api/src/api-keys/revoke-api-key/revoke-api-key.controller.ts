import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { revokeApiKeyRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { RevokeApiKeyCommand } from './revoke-api-key.command';

@Controller()
export class RevokeApiKeyController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(revokeApiKeyRoute)
  revoke(@Input() { params }: RouteInput<typeof revokeApiKeyRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new RevokeApiKeyCommand(ctx, params.key_id));
  }
}
