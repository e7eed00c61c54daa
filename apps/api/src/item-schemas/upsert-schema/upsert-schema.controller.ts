import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RouteInput, upsertSchemaRoute } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { UpsertSchemaCommand } from './upsert-schema.command';

@Controller()
export class UpsertSchemaController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(upsertSchemaRoute)
  upsert(@Input() { params, query, body }: RouteInput<typeof upsertSchemaRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new UpsertSchemaCommand(ctx, params.item_type, query.collection, body));
  }
}
