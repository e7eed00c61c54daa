import { z } from 'zod';
import type { Exchange } from '../support/exchange';
import { isSuccess } from '../support/exchange';
import { baseUrlOf, isRecord, stringSetting } from '../support/settings';
import { settingsSchema } from '../support/settings-schema';
import type { DeliveryRequest, DeliveryResult, DeliveryTargetResult, ProviderConfig, PushContent } from '../types';
import { BaseProvider } from './base.provider';
import { pushTokens } from './push-tokens';

/** Expo ticket errors worth another try; `DeviceNotRegistered` drops the token. */
const RETRYABLE_EXPO = new Set(['MessageRateExceeded', 'ExpoError']);

/**
 * Push through Expo's push service (`POST /--/api/v2/push/send`): one request with a message per
 * device token, answered with one ticket per message. Settings: `access_token` (when the project
 * enforces push security), `sound`, `channel_id` (Android).
 */
export class ExpoProvider extends BaseProvider<PushContent> {
  readonly id = 'expo';
  readonly channelType = 'push' as const;
  override readonly settingsSchema = settingsSchema({
    access_token: z.string().optional(),
    sound: z.string().optional(),
    channel_id: z.string().optional(),
  });

  protected async deliver(
    request: DeliveryRequest,
    content: PushContent,
    config: ProviderConfig,
    exchange: Exchange,
  ): Promise<DeliveryResult> {
    const tokens = pushTokens(request.channelData);
    if (!tokens.length)
      return exchange.failed({
        retryable: false,
        code: 'missing_push_tokens',
        reason: `recipient ${request.recipient.id} has no push tokens for this channel`,
      });
    const settings = config.settings;
    const accessToken = stringSetting(settings, 'access_token');
    const data = { ...(content.data ?? {}), notify_message_id: request.messageId };
    const messages = tokens.map((to) =>
      content.silent
        ? { to, data, _contentAvailable: true, priority: 'normal' }
        : {
            to,
            title: content.title,
            body: content.body,
            data,
            ...(stringSetting(settings, 'sound') ? { sound: stringSetting(settings, 'sound') } : {}),
            ...(stringSetting(settings, 'channel_id') ? { channelId: stringSetting(settings, 'channel_id') } : {}),
          },
    );
    const outcome = await exchange.http({
      method: 'POST',
      url: `${baseUrlOf(config.baseUrl, 'https://exp.host')}/--/api/v2/push/send`,
      headers: { accept: 'application/json', ...(accessToken ? { authorization: `Bearer ${accessToken}` } : {}) },
      json: messages,
    });
    if (!isSuccess(outcome))
      return exchange.failedFrom(outcome, (b) => {
        const first = isRecord(b) && Array.isArray(b.errors) && isRecord(b.errors[0]) ? b.errors[0] : undefined;
        return first ? { code: `expo_${String(first.code)}`, reason: String(first.message ?? '') } : {};
      });
    const tickets = isRecord(outcome.body) && Array.isArray(outcome.body.data) ? outcome.body.data : [];
    const invalid: string[] = [];
    const targets = tokens.map((token, i): DeliveryTargetResult => {
      const ticket = isRecord(tickets[i]) ? tickets[i] : undefined;
      const target = `token:${token}`;
      if (ticket?.status === 'ok')
        return { target, outcome: 'sent', ...(typeof ticket.id === 'string' ? { providerMessageId: ticket.id } : {}) };
      const error =
        ticket && isRecord(ticket.details) && typeof ticket.details.error === 'string' ? ticket.details.error : 'missing_ticket';
      if (error === 'DeviceNotRegistered') invalid.push(token);
      return {
        target,
        outcome: 'failed',
        retryable: RETRYABLE_EXPO.has(error),
        code: `expo_${error}`,
        reason: typeof ticket?.message === 'string' ? ticket.message : `Expo answered no ticket for ${token}`,
      };
    });
    return exchange.fannedOut(targets, invalid);
  }
}
