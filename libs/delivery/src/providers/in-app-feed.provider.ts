import type { Exchange } from '../support/exchange';
import type { DeliveryRequest, DeliveryResult, InAppContent, ProviderConfig } from '../types';
import { BaseProvider } from './base.provider';

/** The service's own feed: the message is the delivery, so there is nothing to call. */
export class InAppFeedProvider extends BaseProvider<InAppContent> {
  readonly id = 'in-app-feed';
  readonly channelType = 'in_app_feed' as const;

  protected async deliver(
    request: DeliveryRequest,
    _content: InAppContent,
    _config: ProviderConfig,
    exchange: Exchange,
  ): Promise<DeliveryResult> {
    return exchange.delivered({ providerMessageId: request.messageId });
  }
}
