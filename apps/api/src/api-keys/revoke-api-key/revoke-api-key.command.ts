import { Command } from '@nestjs/cqrs';
import { ApiKeyT } from '@notify/contracts';
import { RequestContext } from '@notify/http';

export class RevokeApiKeyCommand extends Command<ApiKeyT> {
  constructor(
    readonly ctx: RequestContext,
    readonly keyId: string,
  ) {
    super();
  }
}
