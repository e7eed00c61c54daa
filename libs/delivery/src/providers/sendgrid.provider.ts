import { z } from 'zod';
import type { Exchange } from '../support/exchange';
import { isSuccess } from '../support/exchange';
import { baseUrlOf, isRecord, stringSetting } from '../support/settings';
import { settingsSchema, text } from '../support/settings-schema';
import type { DeliveryRequest, DeliveryResult, EmailContent, ProviderConfig } from '../types';
import { BaseProvider } from './base.provider';
import { formatAddress } from './email-address';
import { emailEnvelope, isEnvelope, splitAddress } from './email-common';

/**
 * Email through SendGrid's v3 Mail Send API (`POST /v3/mail/send`, answered 202 with the id in
 * `X-Message-Id`). SendGrid takes no idempotency key; the message id rides in `custom_args` so
 * its event webhook can name it.
 */
export class SendgridProvider extends BaseProvider<EmailContent> {
  readonly id = 'sendgrid';
  readonly channelType = 'email' as const;
  override readonly settingsSchema = settingsSchema({ api_key: text(), from: z.string().optional(), sandbox_mode: z.boolean().optional() });

  protected async deliver(
    request: DeliveryRequest,
    content: EmailContent,
    config: ProviderConfig,
    exchange: Exchange,
  ): Promise<DeliveryResult> {
    const envelope = emailEnvelope(this.id, request, content, config, exchange);
    if (!isEnvelope(envelope)) return envelope;
    const personalization = {
      to: [splitAddress(formatAddress(envelope.to, request.recipient.name))],
      ...(envelope.cc.length ? { cc: envelope.cc.map(splitAddress) } : {}),
      ...(envelope.bcc.length ? { bcc: envelope.bcc.map(splitAddress) } : {}),
    };
    const body = [
      ...(content.text_body != null ? [{ type: 'text/plain', value: content.text_body }] : []),
      ...(content.html_body != null ? [{ type: 'text/html', value: content.html_body }] : []),
    ];
    const outcome = await exchange.http({
      method: 'POST',
      url: `${baseUrlOf(config.baseUrl, 'https://api.sendgrid.com')}/v3/mail/send`,
      headers: { authorization: `Bearer ${stringSetting(config.settings, 'api_key')}` },
      json: {
        personalizations: [personalization],
        from: splitAddress(envelope.from),
        subject: content.subject,
        content: body.length ? body : [{ type: 'text/plain', value: ' ' }],
        ...(content.reply_to ? { reply_to: splitAddress(content.reply_to) } : {}),
        ...(content.headers && Object.keys(content.headers).length ? { headers: content.headers } : {}),
        custom_args: { notify_message_id: request.messageId },
        ...(config.settings.sandbox_mode === true ? { mail_settings: { sandbox_mode: { enable: true } } } : {}),
      },
    });
    if (isSuccess(outcome)) {
      const id = outcome.headers['x-message-id'];
      return exchange.sent(id ? { providerMessageId: id } : {});
    }
    return exchange.failedFrom(outcome, (b) => {
      const first = isRecord(b) && Array.isArray(b.errors) && isRecord(b.errors[0]) ? b.errors[0] : undefined;
      return first && typeof first.message === 'string'
        ? { reason: `${first.message}${typeof first.field === 'string' ? ` (${first.field})` : ''}` }
        : {};
    });
  }
}
