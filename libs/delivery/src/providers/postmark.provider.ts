import { z } from 'zod';
import type { Exchange } from '../support/exchange';
import { isSuccess } from '../support/exchange';
import { baseUrlOf, isRecord, stringSetting } from '../support/settings';
import { settingsSchema, text } from '../support/settings-schema';
import type { DeliveryRequest, DeliveryResult, EmailContent, ProviderConfig } from '../types';
import { BaseProvider } from './base.provider';
import { formatAddress } from './email-address';
import { emailEnvelope, isEnvelope } from './email-common';

/** Postmark ErrorCodes a later try can get past (429-like throttling is answered as HTTP 429). */
const RETRYABLE_POSTMARK = new Set([100]);

/**
 * Email through Postmark's `POST /email` with the server token in `X-Postmark-Server-Token`.
 * Postmark answers 422 with an `ErrorCode` for every refusal (300 invalid email, 406 inactive
 * recipient, ...): permanent; 500 and 429 are retried. Settings: `server_token`, `from`,
 * `message_stream` (default `outbound`).
 */
export class PostmarkProvider extends BaseProvider<EmailContent> {
  readonly id = 'postmark';
  readonly channelType = 'email' as const;
  override readonly settingsSchema = settingsSchema({
    server_token: text(),
    from: z.string().optional(),
    message_stream: z.string().optional(),
  });

  protected async deliver(
    request: DeliveryRequest,
    content: EmailContent,
    config: ProviderConfig,
    exchange: Exchange,
  ): Promise<DeliveryResult> {
    const envelope = emailEnvelope(this.id, request, content, config, exchange);
    if (!isEnvelope(envelope)) return envelope;
    const outcome = await exchange.http({
      method: 'POST',
      url: `${baseUrlOf(config.baseUrl, 'https://api.postmarkapp.com')}/email`,
      headers: { 'x-postmark-server-token': stringSetting(config.settings, 'server_token')!, accept: 'application/json' },
      json: {
        From: envelope.from,
        To: formatAddress(envelope.to, request.recipient.name),
        Subject: content.subject,
        ...(envelope.cc.length ? { Cc: envelope.cc.join(', ') } : {}),
        ...(envelope.bcc.length ? { Bcc: envelope.bcc.join(', ') } : {}),
        ...(content.html_body != null ? { HtmlBody: content.html_body } : {}),
        ...(content.text_body != null ? { TextBody: content.text_body } : {}),
        ...(content.reply_to ? { ReplyTo: content.reply_to } : {}),
        ...(content.headers ? { Headers: Object.entries(content.headers).map(([Name, Value]) => ({ Name, Value })) } : {}),
        MessageStream: stringSetting(config.settings, 'message_stream') ?? 'outbound',
        Metadata: { notify_message_id: request.messageId },
      },
    });
    if (isSuccess(outcome) && isRecord(outcome.body) && (outcome.body.ErrorCode ?? 0) === 0) {
      const id = typeof outcome.body.MessageID === 'string' ? outcome.body.MessageID : undefined;
      return exchange.sent(id ? { providerMessageId: id } : {});
    }
    const result = exchange.failedFrom(outcome, (b) =>
      isRecord(b) && typeof b.ErrorCode === 'number'
        ? { code: `postmark_${b.ErrorCode}`, reason: typeof b.Message === 'string' ? b.Message : undefined }
        : {},
    );
    if (result.outcome === 'failed' && isSuccess(outcome) && isRecord(outcome.body))
      return { ...result, retryable: RETRYABLE_POSTMARK.has(Number(outcome.body.ErrorCode)) };
    return result;
  }
}
