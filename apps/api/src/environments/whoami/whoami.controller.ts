import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { whoamiRoute } from '@notify/contracts';
import { Ctx, Endpoint, RequestContext } from '@notify/http';
import { WhoamiQuery } from './whoami.query';

@Controller()
export class WhoamiController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(whoamiRoute)
  whoami(@Ctx() ctx: RequestContext) {
    return this.queries.execute(new WhoamiQuery(ctx.credential.id, ctx.credential.kind === 'member' ? 'member' : 'service'));
  }
}
