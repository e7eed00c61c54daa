import { z } from 'zod';
import type { Exchange } from '../support/exchange';
import { baseUrlOf, isRecord, stringSetting } from '../support/settings';
import { settingsSchema } from '../support/settings-schema';
import type { ChatContent, DeliveryRequest, DeliveryResult, ProviderConfig } from '../types';
import { BaseProvider } from './base.provider';
import { chatResult, chatTarget, chatText, connectionField, incomingWebhooks, missingConnections } from './chat-common';

const idOf = (body: unknown) => (isRecord(body) && typeof body.id === 'string' ? body.id : undefined);
const describe = (body: unknown) =>
  isRecord(body) && typeof body.message === 'string'
    ? { reason: body.message, ...(typeof body.code === 'number' && body.code > 0 ? { code: `discord_${body.code}` } : {}) }
    : {};

/**
 * Discord: each incoming-webhook connection gets `POST {url}?wait=true` (answered with the
 * message), each `channel_id` connection `POST /channels/{id}/messages` with the bot token
 * (`Authorization: Bot …`). The payload is the template's JSON (embeds, ...) or `content`.
 * Settings: `bot_token` (for channel connections).
 */
export class DiscordProvider extends BaseProvider<ChatContent> {
  readonly id = 'discord';
  readonly channelType = 'chat' as const;
  override readonly settingsSchema = settingsSchema({ bot_token: z.string().optional() });

  protected async deliver(
    request: DeliveryRequest,
    content: ChatContent,
    config: ProviderConfig,
    exchange: Exchange,
  ): Promise<DeliveryResult> {
    const hooks = incomingWebhooks(request.channelData, exchange);
    const channels = connectionField(request.channelData, 'channel_id');
    if (!hooks.length && !channels.length) return missingConnections(exchange, request, 'Discord connection');
    const payload = content.json_body ?? { content: chatText(content) };
    const botToken = stringSetting(config.settings, 'bot_token');
    const api = baseUrlOf(config.baseUrl, 'https://discord.com/api/v10');
    const results = await Promise.all([
      ...hooks.map(async (hook, i) => {
        const url = new URL(hook);
        url.searchParams.set('wait', 'true');
        return chatTarget(`webhook:${i}`, await exchange.http({ method: 'POST', url: url.toString(), json: payload }), idOf, describe);
      }),
      ...channels.map(async (channel) => {
        if (!botToken)
          return {
            target: `channel:${channel}`,
            outcome: 'failed' as const,
            retryable: false,
            code: 'invalid_settings',
            reason: 'bot_token is required for channel connections',
          };
        const outcome = await exchange.http({
          method: 'POST',
          url: `${api}/channels/${encodeURIComponent(channel)}/messages`,
          headers: { authorization: `Bot ${botToken}` },
          json: payload,
        });
        return chatTarget(`channel:${channel}`, outcome, idOf, describe);
      }),
    ]);
    return chatResult(exchange, results);
  }
}
