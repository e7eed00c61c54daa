import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { RouteInput, validateSchemaRoute } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { ValidateSchemaQuery } from './validate-schema.query';

@Controller()
export class ValidateSchemaController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(validateSchemaRoute)
  validate(@Input() { params, query, body }: RouteInput<typeof validateSchemaRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new ValidateSchemaQuery(ctx.environment, params.item_type, query.collection, body));
  }
}
