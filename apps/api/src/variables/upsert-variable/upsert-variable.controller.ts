import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RouteInput, upsertVariableRoute } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { UpsertVariableCommand } from './upsert-variable.command';

@Controller()
export class UpsertVariableController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(upsertVariableRoute)
  upsert(@Input() { params, body }: RouteInput<typeof upsertVariableRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new UpsertVariableCommand(ctx, params.key, body.variable));
  }
}
