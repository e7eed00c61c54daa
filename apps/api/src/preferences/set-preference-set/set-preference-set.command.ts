import { Command } from '@nestjs/cqrs';
import { PreferenceSetRequestT, PreferenceSetT, RecipientRefT } from '@notify/contracts';
import { RequestContext } from '@notify/http';

export class SetPreferenceSetCommand extends Command<PreferenceSetT> {
  constructor(
    readonly ctx: RequestContext,
    readonly recipient: RecipientRefT,
    readonly preferenceSetId: string,
    readonly request: PreferenceSetRequestT,
  ) {
    super();
  }
}
