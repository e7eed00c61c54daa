import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ScheduleQueries } from '@notify/projections/schedules';
import { RecipientExistence } from '../../recipients/recipient-exists';
import { ListSchedulesQuery } from './list-schedules.query';

@QueryHandler(ListSchedulesQuery)
export class ListSchedulesHandler implements IQueryHandler<ListSchedulesQuery> {
  constructor(
    private readonly schedules: ScheduleQueries,
    private readonly existence: RecipientExistence,
  ) {}

  async execute({ environment, filter, page, recipient }: ListSchedulesQuery) {
    if (recipient) await this.existence.assert(environment, recipient);
    return this.schedules.list(environment, filter, page);
  }
}
