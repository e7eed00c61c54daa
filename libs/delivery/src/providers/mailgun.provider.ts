import { z } from 'zod';
import type { Exchange } from '../support/exchange';
import { isSuccess } from '../support/exchange';
import { baseUrlOf, isRecord, stringSetting } from '../support/settings';
import { settingsSchema, text } from '../support/settings-schema';
import type { DeliveryRequest, DeliveryResult, EmailContent, ProviderConfig } from '../types';
import { BaseProvider } from './base.provider';
import { formatAddress } from './email-address';
import { emailEnvelope, isEnvelope } from './email-common';

const ORIGINS = { us: 'https://api.mailgun.net', eu: 'https://api.eu.mailgun.net' };

/**
 * Email through Mailgun's Messages API: `POST /v3/{domain}/messages`, form-encoded, Basic auth
 * `api:{api_key}`; the US or EU region by `region`. The message id goes out as the `v:` variable
 * `notify_message_id`, which Mailgun's webhooks echo back.
 */
export class MailgunProvider extends BaseProvider<EmailContent> {
  readonly id = 'mailgun';
  readonly channelType = 'email' as const;
  override readonly settingsSchema = settingsSchema({
    api_key: text(),
    domain: text(),
    region: z.enum(['us', 'eu'], { error: 'must be us or eu' }).optional(),
    from: z.string().optional(),
  });

  protected async deliver(
    request: DeliveryRequest,
    content: EmailContent,
    config: ProviderConfig,
    exchange: Exchange,
  ): Promise<DeliveryResult> {
    const envelope = emailEnvelope(this.id, request, content, config, exchange);
    if (!isEnvelope(envelope)) return envelope;
    const region = config.settings.region === 'eu' ? 'eu' : 'us';
    const domain = stringSetting(config.settings, 'domain')!;
    const headers = Object.fromEntries(Object.entries(content.headers ?? {}).map(([k, v]) => [`h:${k}`, v]));
    const outcome = await exchange.http({
      method: 'POST',
      url: `${baseUrlOf(config.baseUrl, ORIGINS[region])}/v3/${encodeURIComponent(domain)}/messages`,
      headers: { authorization: `Basic ${Buffer.from(`api:${stringSetting(config.settings, 'api_key')}`).toString('base64')}` },
      form: {
        from: envelope.from,
        to: formatAddress(envelope.to, request.recipient.name),
        subject: content.subject,
        ...(envelope.cc.length ? { cc: envelope.cc.join(', ') } : {}),
        ...(envelope.bcc.length ? { bcc: envelope.bcc.join(', ') } : {}),
        ...(content.text_body != null ? { text: content.text_body } : {}),
        ...(content.html_body != null ? { html: content.html_body } : {}),
        ...(content.reply_to ? { 'h:Reply-To': content.reply_to } : {}),
        ...headers,
        'v:notify_message_id': request.messageId,
      },
    });
    if (isSuccess(outcome)) {
      const id = isRecord(outcome.body) && typeof outcome.body.id === 'string' ? outcome.body.id.replace(/^<|>$/g, '') : undefined;
      return exchange.sent(id ? { providerMessageId: id } : {});
    }
    return exchange.failedFrom(outcome, (b) =>
      isRecord(b) && typeof b.message === 'string' ? { reason: b.message } : typeof b === 'string' && b ? { reason: b.slice(0, 300) } : {},
    );
  }
}
