import { z } from 'zod';
import type { Exchange } from '../support/exchange';
import { isRecord, stringSetting } from '../support/settings';
import { settingsSchema, url } from '../support/settings-schema';
import type { ChatContent, DeliveryRequest, DeliveryResult, ProviderConfig } from '../types';
import { BaseProvider } from './base.provider';
import { chatResult, chatTarget, chatText, connectionField, incomingWebhooks, missingConnections } from './chat-common';

/**
 * Mattermost: each incoming-webhook connection gets `POST {url}` (`{text}`, answered `ok`), each
 * `channel_id` connection `POST {server_url}/api/v4/posts` with the bot's personal access token.
 * Settings: `server_url` and `bot_token` (for channel connections), `username`, `icon_url`.
 */
export class MattermostProvider extends BaseProvider<ChatContent> {
  readonly id = 'mattermost';
  readonly channelType = 'chat' as const;
  override readonly settingsSchema = settingsSchema({
    server_url: url().optional(),
    bot_token: z.string().optional(),
    username: z.string().optional(),
    icon_url: url().optional(),
  });

  protected async deliver(
    request: DeliveryRequest,
    content: ChatContent,
    config: ProviderConfig,
    exchange: Exchange,
  ): Promise<DeliveryResult> {
    const hooks = incomingWebhooks(request.channelData, exchange);
    const channels = connectionField(request.channelData, 'channel_id');
    if (!hooks.length && !channels.length) return missingConnections(exchange, request, 'Mattermost connection');
    const settings = config.settings;
    const message = chatText(content);
    const server = (config.baseUrl ?? stringSetting(settings, 'server_url'))?.replace(/\/+$/, '');
    const token = stringSetting(settings, 'bot_token');
    const results = await Promise.all([
      ...hooks.map(async (hook, i) => {
        const payload = {
          text: message,
          ...(content.json_body ?? {}),
          ...(stringSetting(settings, 'username') ? { username: stringSetting(settings, 'username') } : {}),
          ...(stringSetting(settings, 'icon_url') ? { icon_url: stringSetting(settings, 'icon_url') } : {}),
        };
        return chatTarget(`webhook:${i}`, await exchange.http({ method: 'POST', url: hook, json: payload }), () => undefined);
      }),
      ...channels.map(async (channel) => {
        if (!server || !token)
          return {
            target: `channel:${channel}`,
            outcome: 'failed' as const,
            retryable: false,
            code: 'invalid_settings',
            reason: 'server_url and bot_token are required for channel connections',
          };
        const outcome = await exchange.http({
          method: 'POST',
          url: `${server}/api/v4/posts`,
          headers: { authorization: `Bearer ${token}` },
          json: { channel_id: channel, message, ...(content.json_body ? { props: content.json_body } : {}) },
        });
        return chatTarget(
          `channel:${channel}`,
          outcome,
          (b) => (isRecord(b) && typeof b.id === 'string' ? b.id : undefined),
          (b) =>
            isRecord(b) && typeof b.message === 'string'
              ? { reason: b.message, ...(typeof b.id === 'string' ? { code: `mattermost_${b.id}` } : {}) }
              : {},
        );
      }),
    ]);
    return chatResult(exchange, results);
  }
}
