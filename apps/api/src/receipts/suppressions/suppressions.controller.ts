import { Controller } from '@nestjs/common';
import { RouteInput, suppressionRoutes } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { SuppressionsService } from './suppressions.service';

@Controller()
export class SuppressionsController {
  constructor(private readonly suppressions: SuppressionsService) {}

  @Endpoint(suppressionRoutes.list)
  list(@Input() { query }: RouteInput<typeof suppressionRoutes.list>, @Ctx() ctx: RequestContext) {
    return this.suppressions.list(ctx, query);
  }

  @Endpoint(suppressionRoutes.add)
  add(@Input() { params, body }: RouteInput<typeof suppressionRoutes.add>, @Ctx() ctx: RequestContext) {
    return this.suppressions.add(ctx, params.address, body?.detail ?? null);
  }

  @Endpoint(suppressionRoutes.remove)
  remove(@Input() { params }: RouteInput<typeof suppressionRoutes.remove>, @Ctx() ctx: RequestContext) {
    return this.suppressions.remove(ctx, params.address);
  }
}
