import { Command } from '@nestjs/cqrs';
import { CensusRpcRequest, RouteOutput, processCensusRpcRoute } from '@notify/contracts';
import { RequestContext } from '@notify/http';
import { z } from 'zod';

export class CensusRpcCommand extends Command<RouteOutput<typeof processCensusRpcRoute>> {
  constructor(
    readonly ctx: RequestContext,
    readonly request: z.infer<typeof CensusRpcRequest>,
  ) {
    super();
  }
}
