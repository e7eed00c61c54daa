import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { RecipientExistence } from '../../recipients/recipient-exists';
import { emptyPageInfo } from '../empty-page';
import { ListRecipientMessagesQuery } from './list-recipient-messages.query';

/**
 * Messages are delivered by the workflow engine, whose messages read model does not exist yet:
 * until it does, a known recipient has an empty list of the documented shape.
 */
@QueryHandler(ListRecipientMessagesQuery)
export class ListRecipientMessagesHandler implements IQueryHandler<ListRecipientMessagesQuery> {
  constructor(private readonly existence: RecipientExistence) {}

  async execute({ environment, recipient, pageSize }: ListRecipientMessagesQuery) {
    await this.existence.assert(environment, recipient);
    return { items: [], page_info: emptyPageInfo(pageSize) };
  }
}
