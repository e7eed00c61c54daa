import { Command } from '@nestjs/cqrs';
import { CreatedApiKeyT } from '@notify/contracts';
import { RequestContext } from '@notify/http';

export class CreateApiKeyCommand extends Command<CreatedApiKeyT> {
  constructor(
    readonly ctx: RequestContext,
    readonly kind: 'secret' | 'publishable',
    readonly name: string | undefined,
  ) {
    super();
  }
}
