import { Query } from '@nestjs/cqrs';
import { PreferenceSetT, RecipientRefT } from '@notify/contracts';

export class ListPreferenceSetsQuery extends Query<PreferenceSetT[]> {
  constructor(
    readonly environment: string,
    readonly recipient: RecipientRefT,
  ) {
    super();
  }
}
