import { Controller, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { receiptRoutes, RouteInput } from '@notify/contracts';
import { Endpoint, Input, rawBodyOf } from '@notify/http';
import { FastifyRequest } from 'fastify';
import { ReceiveReceiptCommand } from './receive-receipt.command';

@Controller()
export class ReceiveReceiptController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(receiptRoutes.receive)
  receive(@Input() { params, body }: RouteInput<typeof receiptRoutes.receive>, @Req() request: FastifyRequest) {
    const headers = Object.fromEntries(
      Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(',') : v]),
    );
    const requestId = String(request.id);
    return this.commands.execute(
      new ReceiveReceiptCommand(
        {
          environment: params.environment,
          channelKey: params.channel_key,
          source: params.source,
          request: { rawBody: rawBodyOf(request) ?? '', body, headers, url: `${request.publicUrl}${request.url}` },
        },
        { environment: params.environment, request_id: requestId, correlation_id: requestId, actor: `receipt:${params.source}` },
      ),
    );
  }
}
