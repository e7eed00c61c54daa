import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { batchGetMessageContentRoute, getMessageContentRoute, getMessageRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { GetMessageContentsQuery, GetMessageQuery } from './get-message.query';

@Controller()
export class GetMessageController {
  constructor(private readonly queries: QueryBus) {}

  // Declared before /{message_id} so `batch` is never read as an id.
  @Endpoint(batchGetMessageContentRoute)
  batchContent(@Input() { query }: RouteInput<typeof batchGetMessageContentRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new GetMessageContentsQuery(ctx, query.message_ids, true));
  }

  @Endpoint(getMessageRoute)
  get(@Input() { params }: RouteInput<typeof getMessageRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new GetMessageQuery(ctx, params.message_id));
  }

  @Endpoint(getMessageContentRoute)
  async content(@Input() { params }: RouteInput<typeof getMessageContentRoute>, @Ctx() ctx: RequestContext) {
    const [content] = await this.queries.execute(new GetMessageContentsQuery(ctx, [params.message_id], false));
    return content;
  }
}
