import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { RecipientExistence } from '../../recipients/recipient-exists';
import { emptyPageInfo } from '../empty-page';
import { ListRecipientSchedulesQuery } from './list-recipient-schedules.query';

/**
 * Schedules belong to the scheduling work, whose read model does not exist yet: until it does,
 * a known recipient has an empty list of the documented shape.
 */
@QueryHandler(ListRecipientSchedulesQuery)
export class ListRecipientSchedulesHandler implements IQueryHandler<ListRecipientSchedulesQuery> {
  constructor(private readonly existence: RecipientExistence) {}

  async execute({ environment, recipient, pageSize }: ListRecipientSchedulesQuery) {
    await this.existence.assert(environment, recipient);
    return { entries: [], page_info: emptyPageInfo(pageSize) };
  }
}
