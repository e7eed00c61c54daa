import { Controller } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { broadcastRoutes, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import {
  CancelBroadcastCommand,
  GetBroadcastQuery,
  ListBroadcastsQuery,
  SendBroadcastCommand,
  UpsertBroadcastCommand,
} from './broadcast.messages';

/** Broadcasts in the management API (ADR 0172). */
@Controller()
export class BroadcastsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Endpoint(broadcastRoutes.list)
  list(@Input() { query }: RouteInput<typeof broadcastRoutes.list>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new ListBroadcastsQuery(ctx.environment, { after: query.after, before: query.before, limit: query.limit }));
  }

  @Endpoint(broadcastRoutes.get)
  get(@Input() { params }: RouteInput<typeof broadcastRoutes.get>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new GetBroadcastQuery(ctx.environment, params.broadcast_key));
  }

  @Endpoint(broadcastRoutes.upsert)
  upsert(@Input() { params, body }: RouteInput<typeof broadcastRoutes.upsert>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new UpsertBroadcastCommand(ctx, params.broadcast_key, body.broadcast, true));
  }

  @Endpoint(broadcastRoutes.validate)
  validate(@Input() { params, body }: RouteInput<typeof broadcastRoutes.validate>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new UpsertBroadcastCommand(ctx, params.broadcast_key, body.broadcast, false));
  }

  @Endpoint(broadcastRoutes.send)
  send(@Input() { params, body }: RouteInput<typeof broadcastRoutes.send>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new SendBroadcastCommand(ctx, params.broadcast_key, body?.send_at ?? null));
  }

  @Endpoint(broadcastRoutes.cancel)
  cancel(@Input() { params }: RouteInput<typeof broadcastRoutes.cancel>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new CancelBroadcastCommand(ctx, params.broadcast_key));
  }
}
