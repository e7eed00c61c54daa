import { Controller, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { addObjectSubscriptionsRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, ratelimitedHeader, RequestContext } from '@notify/http';
import { FastifyReply } from 'fastify';
import { AddSubscriptionsCommand } from './add-subscriptions.command';

@Controller()
export class AddSubscriptionsController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(addObjectSubscriptionsRoute)
  async add(
    @Input() { params, body }: RouteInput<typeof addObjectSubscriptionsRoute>,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const result = await this.commands.execute(
      new AddSubscriptionsCommand(ctx, params.collection, params.object_id, body.recipients, body.properties),
    );
    if (result.ratelimited.length) void reply.header(ratelimitedHeader('recipient-ids'), result.ratelimited.join(','));
    return result.body;
  }
}
