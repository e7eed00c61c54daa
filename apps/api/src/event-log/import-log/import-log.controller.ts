import { Controller, Req } from '@nestjs/common';
import { importLogRoute, RouteInput } from '@notify/contracts';
import { Endpoint, Input } from '@notify/http';
import { FastifyRequest } from 'fastify';
import { LogImporter } from './log-importer';

@Controller()
export class ImportLogController {
  constructor(private readonly importer: LogImporter) {}

  @Endpoint(importLogRoute)
  import(@Input() { query }: RouteInput<typeof importLogRoute>, @Req() request: FastifyRequest) {
    return this.importer.import(request.body, query.batch_size);
  }
}
