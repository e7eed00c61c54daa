import type { Exchange } from '../support/exchange';
import { isSuccess } from '../support/exchange';
import { baseUrlOf, isRecord, stringSetting } from '../support/settings';
import { settingsSchema, text } from '../support/settings-schema';
import type { DeliveryRequest, DeliveryResult, EmailContent, ProviderConfig } from '../types';
import { BaseProvider } from './base.provider';
import { formatAddress } from './email-address';
import { emailEnvelope, isEnvelope } from './email-common';

/**
 * Email through Resend's HTTP API (`POST /emails`). The message's idempotency key goes in the
 * `Idempotency-Key` header: Resend keeps keys 24 h and answers a repeat with the first email's id
 * instead of sending again. Settings: `api_key`, `from`.
 */
export class ResendProvider extends BaseProvider<EmailContent> {
  readonly id = 'resend';
  readonly channelType = 'email' as const;

  override readonly settingsSchema = settingsSchema({ api_key: text() });

  protected async deliver(
    request: DeliveryRequest,
    content: EmailContent,
    config: ProviderConfig,
    exchange: Exchange,
  ): Promise<DeliveryResult> {
    const envelope = emailEnvelope(this.id, request, content, config, exchange);
    if (!isEnvelope(envelope)) return envelope;
    const { to, from, cc, bcc } = envelope;
    if (request.idempotencyKey.length > 256) {
      return exchange.failed({
        retryable: false,
        code: 'invalid_idempotency_key',
        reason: 'Resend takes idempotency keys of at most 256 characters',
      });
    }

    const outcome = await exchange.http({
      method: 'POST',
      url: `${baseUrlOf(config.baseUrl, 'https://api.resend.com')}/emails`,
      headers: { authorization: `Bearer ${stringSetting(config.settings, 'api_key')}`, 'idempotency-key': request.idempotencyKey },
      json: {
        from,
        to: [formatAddress(to, request.recipient.name)],
        subject: content.subject,
        ...(content.html_body != null ? { html: content.html_body } : {}),
        ...(content.text_body != null ? { text: content.text_body } : {}),
        ...(cc.length ? { cc } : {}),
        ...(bcc.length ? { bcc } : {}),
        ...(content.reply_to ? { reply_to: content.reply_to } : {}),
        ...(content.headers && Object.keys(content.headers).length ? { headers: content.headers } : {}),
      },
    });
    if (isSuccess(outcome)) {
      const id = isRecord(outcome.body) && typeof outcome.body.id === 'string' ? outcome.body.id : undefined;
      return exchange.sent(id ? { providerMessageId: id } : {});
    }
    const result = exchange.failedFrom(outcome, describeResendError);
    // A key already used with another payload can never succeed; a key whose first request is
    // still running can (409 concurrent_idempotent_requests).
    if (result.outcome === 'failed' && result.code === 'concurrent_idempotent_requests') return { ...result, retryable: true };
    return result;
  }
}

/** Resend errors: `{statusCode, name, message}`; `name` is the stable code. */
function describeResendError(body: unknown): { reason?: string; code?: string } {
  if (!isRecord(body)) return typeof body === 'string' && body ? { reason: body.slice(0, 500) } : {};
  return {
    ...(typeof body.message === 'string' ? { reason: body.message } : {}),
    ...(typeof body.name === 'string' ? { code: body.name } : {}),
  };
}
