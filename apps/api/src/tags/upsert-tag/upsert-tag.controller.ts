import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RouteInput, upsertTagRoute } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { UpsertTagCommand } from './upsert-tag.command';

@Controller()
export class UpsertTagController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(upsertTagRoute)
  upsert(@Input() { params, body }: RouteInput<typeof upsertTagRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new UpsertTagCommand(ctx, params.name, body.tag));
  }
}
