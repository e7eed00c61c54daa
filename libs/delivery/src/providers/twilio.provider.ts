import type { Exchange } from '../support/exchange';
import { isSuccess } from '../support/exchange';
import { z } from 'zod';
import { baseUrlOf, isRecord, stringSetting } from '../support/settings';
import { settingsSchema, text } from '../support/settings-schema';
import type { DeliveryRequest, DeliveryResult, ProviderConfig, SmsContent } from '../types';
import { BaseProvider } from './base.provider';

/**
 * SMS through Twilio's Messages API: `POST /2010-04-01/Accounts/{account_sid}/Messages.json`,
 * form-encoded, HTTP Basic auth. Twilio takes no idempotency key on this endpoint, so a retry
 * after a lost response can send twice (ADR 0060). Settings: `account_sid`; `auth_token`, or
 * `api_key_sid` and `api_key_secret`; `from` (an E.164 number) or `messaging_service_sid`;
 * optional `status_callback_url`, else this service's receipts endpoint for the channel (when it
 * has a PUBLIC_URL), so Twilio's status callbacks arrive without configuring them.
 */
export class TwilioProvider extends BaseProvider<SmsContent> {
  readonly id = 'twilio';
  readonly channelType = 'sms' as const;

  override readonly settingsSchema = settingsSchema({
    account_sid: text(),
    auth_token: z.string().optional(),
    api_key_sid: z.string().optional(),
    api_key_secret: z.string().optional(),
    from: z.string().optional(),
    messaging_service_sid: z.string().optional(),
  }).superRefine((settings, ctx) => {
    const has = (key: string) => !!stringSetting(settings, key);
    if (!has('auth_token') && !(has('api_key_sid') && has('api_key_secret')))
      ctx.addIssue({ code: 'custom', path: ['auth_token'], message: '(or api_key_sid and api_key_secret) is required' });
    if (!has('from') && !has('messaging_service_sid'))
      ctx.addIssue({ code: 'custom', path: ['from'], message: 'or messaging_service_sid is required' });
  });

  protected async deliver(
    request: DeliveryRequest,
    content: SmsContent,
    config: ProviderConfig,
    exchange: Exchange,
  ): Promise<DeliveryResult> {
    const settings = config.settings;
    const to = typeof request.recipient.phone_number === 'string' ? request.recipient.phone_number.trim() : '';
    if (!to)
      return exchange.failed({
        retryable: false,
        code: 'missing_recipient_phone_number',
        reason: `recipient ${request.recipient.id} has no phone number`,
      });

    const accountSid = stringSetting(settings, 'account_sid')!;
    const apiKeySid = stringSetting(settings, 'api_key_sid');
    const [user, password] =
      apiKeySid && stringSetting(settings, 'api_key_secret')
        ? [apiKeySid, stringSetting(settings, 'api_key_secret')!]
        : [accountSid, stringSetting(settings, 'auth_token')!];
    const messagingServiceSid = stringSetting(settings, 'messaging_service_sid');
    const statusCallback = stringSetting(settings, 'status_callback_url') ?? config.receiptsUrl;
    const outcome = await exchange.http({
      method: 'POST',
      url: `${baseUrlOf(config.baseUrl, 'https://api.twilio.com')}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`,
      headers: { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`, accept: 'application/json' },
      form: {
        To: to,
        Body: content.body,
        ...(messagingServiceSid ? { MessagingServiceSid: messagingServiceSid } : { From: stringSetting(settings, 'from')! }),
        ...(statusCallback ? { StatusCallback: statusCallback } : {}),
      },
    });
    if (isSuccess(outcome)) {
      const sid = isRecord(outcome.body) && typeof outcome.body.sid === 'string' ? outcome.body.sid : undefined;
      return exchange.sent(sid ? { providerMessageId: sid } : {});
    }
    return exchange.failedFrom(outcome, describeTwilioError);
  }
}

/** Twilio errors: `{code, message, more_info, status}`; `code` is Twilio's numbered error (e.g. 21211). */
function describeTwilioError(body: unknown): { reason?: string; code?: string } {
  if (!isRecord(body)) return {};
  return {
    ...(typeof body.message === 'string' ? { reason: body.message } : {}),
    ...(typeof body.code === 'number' || typeof body.code === 'string' ? { code: `twilio_${body.code}` } : {}),
  };
}
