import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { toRecipientRef } from '@notify/contracts';
import { RecipientLookup, toActivity } from '@notify/projections/messages';
import { MessageAccess } from '../message-access';
import { ListMessageHistoryQuery } from './message-history.query';

@QueryHandler(ListMessageHistoryQuery)
export class ListMessageHistoryHandler implements IQueryHandler<ListMessageHistoryQuery> {
  constructor(
    private readonly access: MessageAccess,
    private readonly recipients: RecipientLookup,
  ) {}

  async execute({ ctx, messageId, kind, page, triggerData }: ListMessageHistoryQuery) {
    const message = await this.access.get(ctx, messageId);
    const messages = this.access.messages;
    if (kind === 'events') return messages.events(ctx.environment, message, page);
    if (kind === 'delivery_logs') return messages.deliveryLogs(ctx.environment, message.id, page);
    const { rows, pageInfo } = await messages.activityRows(ctx.environment, message.id, page, triggerData);
    const recipient = toRecipientRef(message.recipient);
    const resolve = await this.recipients.resolve(ctx.environment, [...rows.map((r) => r.actor), recipient]);
    return { items: rows.map((r) => toActivity(r, resolve(r.actor), resolve(recipient))), page_info: pageInfo };
  }
}
