import { z } from 'zod';
import type { Exchange } from '../support/exchange';
import { baseUrlOf, isRecord, stringSetting } from '../support/settings';
import { settingsSchema, text } from '../support/settings-schema';
import type { ChatContent, DeliveryRequest, DeliveryResult, ProviderConfig } from '../types';
import { BaseProvider } from './base.provider';
import { chatResult, chatTarget, chatText, connectionField, missingConnections } from './chat-common';

/**
 * Telegram through the Bot API's `sendMessage` (`POST /bot{token}/sendMessage`), once per
 * connection `channel_id` (a chat id or `@channelusername`), else to the `chat_id` setting.
 * Telegram answers `{ok, result: {message_id}}` or `{ok: false, error_code, description,
 * parameters: {retry_after}}`. Settings: `bot_token`, `chat_id`, `parse_mode`.
 */
export class TelegramProvider extends BaseProvider<ChatContent> {
  readonly id = 'telegram';
  readonly channelType = 'chat' as const;
  override readonly settingsSchema = settingsSchema({
    bot_token: text(),
    chat_id: z.union([z.string(), z.number()]).optional(),
    parse_mode: z.enum(['MarkdownV2', 'HTML', 'Markdown'], { error: 'must be MarkdownV2, HTML or Markdown' }).optional(),
  });

  protected async deliver(
    request: DeliveryRequest,
    content: ChatContent,
    config: ProviderConfig,
    exchange: Exchange,
  ): Promise<DeliveryResult> {
    const settings = config.settings;
    const fallback = settings.chat_id !== undefined && String(settings.chat_id).trim() ? [String(settings.chat_id)] : [];
    const chats = connectionField(request.channelData, 'channel_id');
    const targets = chats.length ? chats : fallback;
    if (!targets.length) return missingConnections(exchange, request, 'Telegram chat (a channel_id connection or the chat_id setting)');
    const url = `${baseUrlOf(config.baseUrl, 'https://api.telegram.org')}/bot${stringSetting(settings, 'bot_token')}/sendMessage`;
    const parseMode = stringSetting(settings, 'parse_mode');
    const results = await Promise.all(
      targets.map(async (chat) => {
        const outcome = await exchange.http({
          method: 'POST',
          url,
          json: { chat_id: chat, text: chatText(content), ...(parseMode ? { parse_mode: parseMode } : {}), ...(content.json_body ?? {}) },
        });
        const result = chatTarget(
          `chat:${chat}`,
          outcome,
          (b) => (isRecord(b) && isRecord(b.result) && b.result.message_id !== undefined ? String(b.result.message_id) : undefined),
          (b) =>
            isRecord(b)
              ? {
                  ...(typeof b.description === 'string' ? { reason: b.description } : {}),
                  ...(typeof b.error_code === 'number' ? { code: `telegram_${b.error_code}` } : {}),
                }
              : {},
        );
        const retryAfter =
          outcome.kind === 'response' && isRecord(outcome.body) && isRecord(outcome.body.parameters)
            ? outcome.body.parameters.retry_after
            : undefined;
        return typeof retryAfter === 'number' && result.outcome === 'failed' ? { ...result, retryAfterMs: retryAfter * 1000 } : result;
      }),
    );
    return chatResult(exchange, results);
  }
}
