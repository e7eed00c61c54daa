import { RequestContext } from '@notify/http';

export class ExchangeApiKeyCommand {
  constructor(
    readonly ctx: RequestContext,
    readonly environment: string,
  ) {}
}
