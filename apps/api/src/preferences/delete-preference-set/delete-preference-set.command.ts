import { Command } from '@nestjs/cqrs';
import { RecipientRefT } from '@notify/contracts';
import { RequestContext } from '@notify/http';

export class DeletePreferenceSetCommand extends Command<void> {
  constructor(
    readonly ctx: RequestContext,
    readonly recipient: RecipientRefT,
    readonly preferenceSetId: string,
  ) {
    super();
  }
}
