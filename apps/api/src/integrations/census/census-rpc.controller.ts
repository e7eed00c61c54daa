import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { processCensusRpcRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { CensusRpcCommand } from './census-rpc.command';

@Controller()
export class CensusRpcController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(processCensusRpcRoute)
  process(@Input() { body }: RouteInput<typeof processCensusRpcRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new CensusRpcCommand(ctx, body));
  }
}
