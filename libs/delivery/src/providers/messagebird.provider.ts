import type { Exchange } from '../support/exchange';
import { isSuccess } from '../support/exchange';
import { baseUrlOf, isRecord, stringSetting } from '../support/settings';
import { settingsSchema, text } from '../support/settings-schema';
import type { DeliveryRequest, DeliveryResult, ProviderConfig, SmsContent } from '../types';
import { BaseProvider } from './base.provider';
import { msisdn, recipientPhone } from './sms-common';

/**
 * SMS through MessageBird's REST API (`POST /messages`, `Authorization: AccessKey …`), answered
 * 201 with the message id; refusals are 4xx with `errors: [{code, description, parameter}]`.
 * Settings: `access_key`, `originator` (a number or an alphanumeric sender of up to 11).
 */
export class MessagebirdProvider extends BaseProvider<SmsContent> {
  readonly id = 'messagebird';
  readonly channelType = 'sms' as const;
  override readonly settingsSchema = settingsSchema({ access_key: text(), originator: text() });

  protected async deliver(
    request: DeliveryRequest,
    content: SmsContent,
    config: ProviderConfig,
    exchange: Exchange,
  ): Promise<DeliveryResult> {
    const to = recipientPhone(request, exchange);
    if (typeof to !== 'string') return to;
    const outcome = await exchange.http({
      method: 'POST',
      url: `${baseUrlOf(config.baseUrl, 'https://rest.messagebird.com')}/messages`,
      headers: { authorization: `AccessKey ${stringSetting(config.settings, 'access_key')}`, accept: 'application/json' },
      json: {
        originator: stringSetting(config.settings, 'originator'),
        recipients: [msisdn(to)],
        body: content.body,
        reference: request.messageId,
      },
    });
    if (isSuccess(outcome)) {
      const id = isRecord(outcome.body) && typeof outcome.body.id === 'string' ? outcome.body.id : undefined;
      return exchange.sent(id ? { providerMessageId: id } : {});
    }
    return exchange.failedFrom(outcome, (b) => {
      const first = isRecord(b) && Array.isArray(b.errors) && isRecord(b.errors[0]) ? b.errors[0] : undefined;
      return first
        ? {
            ...(first.code !== undefined ? { code: `messagebird_${first.code}` } : {}),
            ...(typeof first.description === 'string' ? { reason: first.description } : {}),
          }
        : {};
    });
  }
}
