import { Query } from '@nestjs/cqrs';
import { PreferenceSetT, RecipientRefT } from '@notify/contracts';

export class GetPreferenceSetQuery extends Query<PreferenceSetT> {
  constructor(
    readonly environment: string,
    readonly recipient: RecipientRefT,
    readonly preferenceSetId: string,
    /** Resolve the set as it applies in this tenant. */
    readonly tenant?: string,
  ) {
    super();
  }
}
