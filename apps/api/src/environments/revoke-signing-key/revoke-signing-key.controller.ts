import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { revokeSigningKeyRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { RevokeSigningKeyCommand } from './revoke-signing-key.command';

@Controller()
export class RevokeSigningKeyController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(revokeSigningKeyRoute)
  revoke(@Input() { params }: RouteInput<typeof revokeSigningKeyRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new RevokeSigningKeyCommand(ctx, params.environment_slug, params.signing_key_id));
  }
}
