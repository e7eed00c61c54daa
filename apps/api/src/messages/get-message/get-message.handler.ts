import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { resourceMissing } from '@notify/domain';
import { MessageAccess } from '../message-access';
import { GetMessageContentsQuery, GetMessageQuery } from './get-message.query';

@QueryHandler(GetMessageQuery)
export class GetMessageHandler implements IQueryHandler<GetMessageQuery> {
  constructor(private readonly access: MessageAccess) {}

  execute({ ctx, messageId }: GetMessageQuery) {
    return this.access.get(ctx, messageId);
  }
}

@QueryHandler(GetMessageContentsQuery)
export class GetMessageContentsHandler implements IQueryHandler<GetMessageContentsQuery> {
  constructor(private readonly access: MessageAccess) {}

  async execute({ ctx, messageIds, many }: GetMessageContentsQuery) {
    const visible = (await this.access.getMany(ctx, messageIds)).map((m) => m.id);
    const contents = await this.access.messages.contents(ctx.environment, visible, this.access.retentionDays);
    if (!many && contents.length === 0) throw resourceMissing('message');
    return contents;
  }
}
