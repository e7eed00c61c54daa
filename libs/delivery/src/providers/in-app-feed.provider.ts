import type { Exchange } from '../support/exchange';
import type { DeliveryRequest, DeliveryResult, InAppContent, ProviderConfig } from '../types';
import { BaseProvider } from './base.provider';

/** The provider id of the service's own feed: the first-run feed channel uses it too. */
export const IN_APP_FEED_PROVIDER_ID = 'in-app-feed';

/** The service's own feed: the message is the delivery, so there is nothing to call. */
export class InAppFeedProvider extends BaseProvider<InAppContent> {
  readonly id = IN_APP_FEED_PROVIDER_ID;
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
