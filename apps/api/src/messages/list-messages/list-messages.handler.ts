import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { MessageFilter } from '@notify/projections/messages';
import { RecipientExistence } from '../../recipients/recipient-exists';
import { MessageAccess } from '../message-access';
import { ListMessagesQuery } from './list-messages.query';

@QueryHandler(ListMessagesQuery)
export class ListMessagesHandler implements IQueryHandler<ListMessagesQuery> {
  constructor(
    private readonly access: MessageAccess,
    private readonly existence: RecipientExistence,
  ) {}

  async execute({ ctx, recipient, filter: q }: ListMessagesQuery) {
    if (recipient) await this.existence.assert(ctx.environment, recipient);
    const filter: MessageFilter = {
      recipient: recipient ?? undefined,
      userIds: ctx.userId !== undefined ? [ctx.userId] : undefined,
      tenant: q.tenant,
      channelId: q.channel_id,
      status: q.status,
      engagement: q.engagement_status,
      messageIds: q.message_ids,
      workflowCategories: q.workflow_categories,
      source: q.source,
      workflowRunId: q.workflow_run_id,
      workflowRecipientRunId: q.workflow_recipient_run_id,
      triggerData: q.trigger_data,
      insertedAt: q.inserted_at,
      retentionDays: this.access.retentionDays,
    };
    return this.access.messages.list(ctx.environment, filter, q);
  }
}
