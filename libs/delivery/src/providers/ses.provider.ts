import { z } from 'zod';
import { awsEndpoint, awsSettings, signAws } from '../support/aws-signing';
import type { Exchange } from '../support/exchange';
import { isSuccess } from '../support/exchange';
import { baseUrlOf, isRecord, stringSetting } from '../support/settings';
import { settingsSchema } from '../support/settings-schema';
import type { DeliveryRequest, DeliveryResult, EmailContent, ProviderConfig } from '../types';
import { BaseProvider } from './base.provider';
import { formatAddress } from './email-address';
import { emailEnvelope, isEnvelope } from './email-common';
import type { ProviderIo } from '../support/exchange';

/** SES v2 error types (the `x-amzn-errortype` header) worth another try besides 429 and 5xx. */
const RETRYABLE_SES = new Set(['TooManyRequestsException', 'LimitExceededException', 'InternalFailure', 'ServiceUnavailable']);

/**
 * Email through Amazon SES v2 `SendEmail` (`POST /v2/email/outbound-emails`, REST-JSON), signed
 * with AWS Signature V4 for the service `ses`. Settings: `access_key_id`, `secret_access_key`,
 * `session_token`, `region`, `from`, `configuration_set_name`.
 */
export class SesProvider extends BaseProvider<EmailContent> {
  readonly id = 'ses';
  readonly channelType = 'email' as const;
  override readonly settingsSchema = settingsSchema({
    ...awsSettings,
    from: z.string().optional(),
    configuration_set_name: z.string().optional(),
  });

  constructor(private readonly options: ProviderIo & { now?: () => number } = {}) {
    super(options);
  }

  protected async deliver(
    request: DeliveryRequest,
    content: EmailContent,
    config: ProviderConfig,
    exchange: Exchange,
  ): Promise<DeliveryResult> {
    const envelope = emailEnvelope(this.id, request, content, config, exchange);
    if (!isEnvelope(envelope)) return envelope;
    const settings = config.settings;
    const configurationSet = stringSetting(settings, 'configuration_set_name');
    const body = JSON.stringify({
      FromEmailAddress: envelope.from,
      Destination: {
        ToAddresses: [formatAddress(envelope.to, request.recipient.name)],
        ...(envelope.cc.length ? { CcAddresses: envelope.cc } : {}),
        ...(envelope.bcc.length ? { BccAddresses: envelope.bcc } : {}),
      },
      ...(content.reply_to ? { ReplyToAddresses: [content.reply_to] } : {}),
      Content: {
        Simple: {
          Subject: { Data: content.subject, Charset: 'UTF-8' },
          Body: {
            ...(content.html_body != null ? { Html: { Data: content.html_body, Charset: 'UTF-8' } } : {}),
            ...(content.text_body != null ? { Text: { Data: content.text_body, Charset: 'UTF-8' } } : {}),
          },
          ...(content.headers && Object.keys(content.headers).length
            ? { Headers: Object.entries(content.headers).map(([Name, Value]) => ({ Name, Value })) }
            : {}),
        },
      },
      EmailTags: [{ Name: 'notify_message_id', Value: request.messageId.replace(/[^A-Za-z0-9_-]/g, '_') }],
      ...(configurationSet ? { ConfigurationSetName: configurationSet } : {}),
    });
    const signed = await signAws(
      settings,
      'ses',
      {
        method: 'POST',
        url: `${baseUrlOf(config.baseUrl, awsEndpoint('email', settings))}/v2/email/outbound-emails`,
        headers: { 'content-type': 'application/json' },
        body,
      },
      new Date(this.options.now?.() ?? Date.now()),
    );
    const outcome = await exchange.http({ method: 'POST', url: signed.url, headers: signed.headers, text: signed.body });
    const type = outcome.kind === 'response' ? (outcome.headers['x-amzn-errortype'] ?? '').split(':')[0] : '';
    if (isSuccess(outcome)) {
      const id = isRecord(outcome.body) && typeof outcome.body.MessageId === 'string' ? outcome.body.MessageId : undefined;
      return exchange.sent(id ? { providerMessageId: id } : {});
    }
    const result = exchange.failedFrom(outcome, (b) => ({
      ...(type ? { code: `ses_${type}` } : {}),
      ...(isRecord(b) && typeof b.message === 'string' ? { reason: b.message } : {}),
    }));
    return result.outcome === 'failed' && RETRYABLE_SES.has(type) ? { ...result, retryable: true } : result;
  }
}
