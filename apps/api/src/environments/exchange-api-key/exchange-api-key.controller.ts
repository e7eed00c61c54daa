import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { exchangeForApiKeyRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { ExchangeApiKeyCommand } from './exchange-api-key.command';

@Controller()
export class ExchangeApiKeyController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(exchangeForApiKeyRoute)
  exchange(@Input() { query }: RouteInput<typeof exchangeForApiKeyRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new ExchangeApiKeyCommand(ctx, query.environment));
  }
}
