import { Controller } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { hightouchRpc } from '@notify/application';
import { HightouchRpcRequest, processHightouchRpcRoute, RouteInput, RouteOutput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { z } from 'zod';
import { DestinationPortsFactory } from '../destination-ports';

export class HightouchRpcCommand extends Command<RouteOutput<typeof processHightouchRpcRoute>> {
  constructor(
    readonly ctx: RequestContext,
    readonly request: z.infer<typeof HightouchRpcRequest>,
  ) {
    super();
  }
}

@Controller()
export class HightouchRpcController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(processHightouchRpcRoute)
  process(@Input() { body }: RouteInput<typeof processHightouchRpcRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new HightouchRpcCommand(ctx, body));
  }
}

/** Adapts a Hightouch JSON-RPC call to the identify and trigger use cases of the calling key's environment (ADR 0158). */
@CommandHandler(HightouchRpcCommand)
export class HightouchRpcHandler implements ICommandHandler<HightouchRpcCommand> {
  constructor(private readonly ports: DestinationPortsFactory) {}

  async execute({ ctx, request }: HightouchRpcCommand) {
    const result = await hightouchRpc(this.ports.for(ctx), request.method, request.params);
    return { jsonrpc: '2.0' as const, id: request.id, result: result as Record<string, unknown> };
  }
}
