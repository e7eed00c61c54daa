import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { PreferenceSetT } from '@notify/contracts';
import { PreferenceQueries } from '@notify/projections/preferences';
import { RecipientExistence } from '../../recipients/recipient-exists';
import { ListPreferenceSetsQuery } from './list-preference-sets.query';

@QueryHandler(ListPreferenceSetsQuery)
export class ListPreferenceSetsHandler implements IQueryHandler<ListPreferenceSetsQuery> {
  constructor(
    private readonly preferences: PreferenceQueries,
    private readonly existence: RecipientExistence,
  ) {}

  async execute({ environment, recipient }: ListPreferenceSetsQuery): Promise<PreferenceSetT[]> {
    await this.existence.assert(environment, recipient);
    return this.preferences.list(environment, recipient);
  }
}
