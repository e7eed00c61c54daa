import { Controller, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { getFeedRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import type { FastifyReply } from 'fastify';
import { GetFeedQuery } from './get-feed.query';

@Controller()
export class GetFeedController {
  constructor(private readonly queries: QueryBus) {}

  /** Answers the JSON text as it is (see GetFeedHandler). */
  @Endpoint(getFeedRoute)
  async get(
    @Input() { params, query }: RouteInput<typeof getFeedRoute>,
    @Ctx() ctx: RequestContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const json = await this.queries.execute(new GetFeedQuery(ctx, params.user_id, params.channel_id, query));
    void reply.type('application/json; charset=utf-8');
    return json;
  }
}
