import { Controller, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RouteInput, sourceRoutes } from '@notify/contracts';
import { Endpoint, Input } from '@notify/http';
import { FastifyRequest } from 'fastify';
import { IngestSourceEventCommand } from './ingest-source-event.command';

/** Headers kept with a received event: what tells how it was sent, never credentials. */
const KEPT_HEADERS = ['content-type', 'user-agent'];

@Controller()
export class IngestSourceEventController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(sourceRoutes.ingest)
  ingest(@Input() { params, body }: RouteInput<typeof sourceRoutes.ingest>, @Req() request: FastifyRequest) {
    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? null;
    const headers = Object.fromEntries(
      KEPT_HEADERS.flatMap((h) => (typeof request.headers[h] === 'string' ? [[h, request.headers[h]]] : [])),
    );
    const requestId = String(request.id);
    return this.commands.execute(
      new IngestSourceEventCommand(params.environment, params.key, bearer, body, headers, {
        environment: params.environment,
        request_id: requestId,
        correlation_id: requestId,
        actor: `source:${params.key}`,
      }),
    );
  }
}
