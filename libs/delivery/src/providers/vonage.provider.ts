import type { Exchange } from '../support/exchange';
import { failureOf, isSuccess } from '../support/exchange';
import { baseUrlOf, isRecord, stringSetting } from '../support/settings';
import { settingsSchema, text } from '../support/settings-schema';
import type { DeliveryRequest, DeliveryResult, ProviderConfig, SmsContent } from '../types';
import { BaseProvider } from './base.provider';
import { msisdn, recipientPhone } from './sms-common';

/** Vonage SMS statuses a later try can get past: 1 throttled, 5 internal error. */
const RETRYABLE_STATUS = new Set(['1', '5']);

/**
 * SMS through Vonage's SMS API (`POST /sms/json`). Vonage answers HTTP 200 for most refusals,
 * with a non-zero `status` per message part (2 missing parameter, 4 invalid credentials, 29
 * non-whitelisted destination, ...). Settings: `api_key`, `api_secret`, `from`.
 */
export class VonageProvider extends BaseProvider<SmsContent> {
  readonly id = 'vonage';
  readonly channelType = 'sms' as const;
  override readonly settingsSchema = settingsSchema({ api_key: text(), api_secret: text(), from: text() });

  protected async deliver(
    request: DeliveryRequest,
    content: SmsContent,
    config: ProviderConfig,
    exchange: Exchange,
  ): Promise<DeliveryResult> {
    const to = recipientPhone(request, exchange);
    if (typeof to !== 'string') return to;
    const settings = config.settings;
    const outcome = await exchange.http({
      method: 'POST',
      url: `${baseUrlOf(config.baseUrl, 'https://rest.nexmo.com')}/sms/json`,
      json: {
        api_key: stringSetting(settings, 'api_key'),
        api_secret: stringSetting(settings, 'api_secret'),
        from: stringSetting(settings, 'from'),
        to: msisdn(to),
        text: content.body,
        'client-ref': request.messageId.slice(0, 100),
      },
    });
    if (!isSuccess(outcome)) return exchange.failed(failureOf(outcome));
    const parts = isRecord(outcome.body) && Array.isArray(outcome.body.messages) ? outcome.body.messages.filter(isRecord) : [];
    const failed = parts.find((p) => p.status !== '0');
    if (!parts.length || failed) {
      const status = failed ? String(failed.status) : 'none';
      return exchange.failed({
        retryable: RETRYABLE_STATUS.has(status),
        code: `vonage_${status}`,
        reason: failed && typeof failed['error-text'] === 'string' ? failed['error-text'] : 'Vonage accepted no message part',
      });
    }
    const id = parts[0]['message-id'];
    return exchange.sent(typeof id === 'string' ? { providerMessageId: id } : {});
  }
}
