import { Controller, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { deleteObjectSubscriptionsRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, ratelimitedHeader, RequestContext } from '@notify/http';
import { FastifyReply } from 'fastify';
import { DeleteSubscriptionsCommand } from './delete-subscriptions.command';

@Controller()
export class DeleteSubscriptionsController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(deleteObjectSubscriptionsRoute)
  async delete(
    @Input() { params, body }: RouteInput<typeof deleteObjectSubscriptionsRoute>,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const result = await this.commands.execute(new DeleteSubscriptionsCommand(ctx, params.collection, params.object_id, body.recipients));
    if (result.ratelimited.length) void reply.header(ratelimitedHeader('recipient-ids'), result.ratelimited.join(','));
    return result.body;
  }
}
