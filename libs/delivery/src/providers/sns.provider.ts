import { z } from 'zod';
import { awsEndpoint, awsSettings, signAws } from '../support/aws-signing';
import type { Exchange, ProviderIo } from '../support/exchange';
import { isSuccess } from '../support/exchange';
import { baseUrlOf, stringSetting } from '../support/settings';
import { settingsSchema } from '../support/settings-schema';
import type { DeliveryRequest, DeliveryResult, ProviderConfig, SmsContent } from '../types';
import { BaseProvider } from './base.provider';

/** SNS error codes worth another try besides 429 and 5xx. */
const RETRYABLE_SNS = new Set(['Throttling', 'ThrottledException', 'InternalError', 'KMSThrottling']);

const xmlValue = (xml: string, tag: string) => new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml)?.[1];

/**
 * SMS through Amazon SNS `Publish` to a phone number (the Query API: form-encoded, XML answers),
 * signed with AWS Signature V4 for the service `sns`. Settings: `access_key_id`,
 * `secret_access_key`, `session_token`, `region`, `sender_id`, `sms_type`
 * (`Transactional` or `Promotional`), `origination_number`.
 */
export class SnsProvider extends BaseProvider<SmsContent> {
  readonly id = 'sns';
  readonly channelType = 'sms' as const;
  override readonly settingsSchema = settingsSchema({
    ...awsSettings,
    sender_id: z.string().max(11, 'is at most 11 characters').optional(),
    sms_type: z.enum(['Transactional', 'Promotional'], { error: 'must be Transactional or Promotional' }).optional(),
    origination_number: z.string().optional(),
  });

  constructor(private readonly options: ProviderIo & { now?: () => number } = {}) {
    super(options);
  }

  protected async deliver(
    request: DeliveryRequest,
    content: SmsContent,
    config: ProviderConfig,
    exchange: Exchange,
  ): Promise<DeliveryResult> {
    const to = typeof request.recipient.phone_number === 'string' ? request.recipient.phone_number.trim() : '';
    if (!to)
      return exchange.failed({
        retryable: false,
        code: 'missing_recipient_phone_number',
        reason: `recipient ${request.recipient.id} has no phone number`,
      });
    const settings = config.settings;
    const attributes: [string, string][] = [
      ['AWS.SNS.SMS.SMSType', stringSetting(settings, 'sms_type') ?? 'Transactional'],
      ...(stringSetting(settings, 'sender_id')
        ? [['AWS.SNS.SMS.SenderID', stringSetting(settings, 'sender_id')!] as [string, string]]
        : []),
      ...(stringSetting(settings, 'origination_number')
        ? [['AWS.MM.SMS.OriginationNumber', stringSetting(settings, 'origination_number')!] as [string, string]]
        : []),
    ];
    const form = new URLSearchParams({ Action: 'Publish', Version: '2010-03-31', PhoneNumber: to, Message: content.body });
    attributes.forEach(([name, value], i) => {
      form.set(`MessageAttributes.entry.${i + 1}.Name`, name);
      form.set(`MessageAttributes.entry.${i + 1}.Value.DataType`, 'String');
      form.set(`MessageAttributes.entry.${i + 1}.Value.StringValue`, value);
    });
    const signed = await signAws(
      settings,
      'sns',
      {
        method: 'POST',
        url: `${baseUrlOf(config.baseUrl, awsEndpoint('sns', settings))}/`,
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
        body: form.toString(),
      },
      new Date(this.options.now?.() ?? Date.now()),
    );
    const outcome = await exchange.http({ method: 'POST', url: signed.url, headers: signed.headers, text: signed.body });
    const code = outcome.kind === 'response' && typeof outcome.body === 'string' ? xmlValue(outcome.body, 'Code') : undefined;
    if (isSuccess(outcome)) {
      const id = typeof outcome.body === 'string' ? xmlValue(outcome.body, 'MessageId') : undefined;
      return exchange.sent(id ? { providerMessageId: id } : {});
    }
    const result = exchange.failedFrom(outcome, (b) => ({
      ...(code ? { code: `sns_${code}` } : {}),
      ...(typeof b === 'string' && xmlValue(b, 'Message') ? { reason: xmlValue(b, 'Message') } : {}),
    }));
    return result.outcome === 'failed' && code && RETRYABLE_SNS.has(code) ? { ...result, retryable: true } : result;
  }
}
