import { z } from 'zod';
import type { Exchange } from '../support/exchange';
import { isSuccess } from '../support/exchange';
import { baseUrlOf, isRecord, stringSetting } from '../support/settings';
import { settingsSchema, text } from '../support/settings-schema';
import type { DeliveryRequest, DeliveryResult, ProviderConfig, PushContent } from '../types';
import { BaseProvider } from './base.provider';

/** OneSignal subscription ids from channel data: `player_ids` (Knock's shape), else the push `tokens`. */
function subscriptionIds(channelData: Record<string, unknown> | null | undefined): string[] {
  const ids = channelData && Array.isArray(channelData.player_ids) ? channelData.player_ids : [];
  return [...new Set(ids.filter((id): id is string => typeof id === 'string' && id.trim() !== ''))];
}

/**
 * Push through OneSignal's `POST /notifications` with the app's REST API key
 * (`Authorization: Key …`), to the recipient's subscription (player) ids, or, with
 * `target: external_id`, to the recipient's id as OneSignal's external id. The message id is
 * the `idempotency_key`: OneSignal answers a repeat within 30 days without sending again.
 * OneSignal answers 200 with `errors` when no subscription could be reached: a permanent failure.
 */
export class OnesignalProvider extends BaseProvider<PushContent> {
  readonly id = 'onesignal';
  readonly channelType = 'push' as const;
  override readonly settingsSchema = settingsSchema({
    app_id: z.uuid({ error: 'must be the OneSignal app id (a uuid)' }),
    rest_api_key: text(),
    target: z.enum(['subscription_ids', 'external_id'], { error: 'must be subscription_ids or external_id' }).optional(),
  });

  protected async deliver(
    request: DeliveryRequest,
    content: PushContent,
    config: ProviderConfig,
    exchange: Exchange,
  ): Promise<DeliveryResult> {
    const settings = config.settings;
    const byExternalId = settings.target === 'external_id';
    const ids = subscriptionIds(request.channelData);
    if (!byExternalId && !ids.length)
      return exchange.failed({
        retryable: false,
        code: 'missing_push_tokens',
        reason: `recipient ${request.recipient.id} has no OneSignal player_ids`,
      });
    const outcome = await exchange.http({
      method: 'POST',
      url: `${baseUrlOf(config.baseUrl, 'https://api.onesignal.com')}/notifications`,
      headers: { authorization: `Key ${stringSetting(settings, 'rest_api_key')}`, accept: 'application/json' },
      json: {
        app_id: stringSetting(settings, 'app_id'),
        ...(byExternalId
          ? { include_aliases: { external_id: [request.recipient.id] }, target_channel: 'push' }
          : { include_subscription_ids: ids }),
        ...(content.silent ? { content_available: true } : { headings: { en: content.title }, contents: { en: content.body } }),
        data: { ...(content.data ?? {}), notify_message_id: request.messageId },
        idempotency_key: request.idempotencyKey,
      },
    });
    const body = outcome.kind === 'response' && isRecord(outcome.body) ? outcome.body : {};
    const errors = body.errors;
    const described = Array.isArray(errors) ? errors.map(String).join('; ') : isRecord(errors) ? JSON.stringify(errors) : undefined;
    if (isSuccess(outcome)) {
      const id = typeof body.id === 'string' ? body.id : '';
      const invalid = isRecord(errors) && Array.isArray(errors.invalid_player_ids) ? errors.invalid_player_ids.map(String) : [];
      const extra = invalid.length ? { invalidTokens: invalid } : {};
      if (id) return exchange.sent({ providerMessageId: id, ...extra });
      return exchange.failed({
        retryable: false,
        code: 'onesignal_no_recipients',
        reason: described ?? 'OneSignal reached no subscription',
        ...extra,
      });
    }
    return exchange.failedFrom(outcome, () => (described ? { reason: described } : {}));
  }
}
