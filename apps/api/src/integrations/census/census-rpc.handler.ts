import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { censusRpc } from '@notify/application';
import { DestinationPortsFactory } from '../destination-ports';
import { CensusRpcCommand } from './census-rpc.command';

/** Adapts a Census JSON-RPC call to the identify and trigger use cases of the calling key's environment. */
@CommandHandler(CensusRpcCommand)
export class CensusRpcHandler implements ICommandHandler<CensusRpcCommand> {
  constructor(private readonly ports: DestinationPortsFactory) {}

  async execute({ ctx, request }: CensusRpcCommand) {
    return { jsonrpc: '2.0' as const, id: request.id, result: await censusRpc(this.ports.for(ctx), request.method, request.params) };
  }
}
