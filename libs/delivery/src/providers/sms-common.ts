import type { Exchange } from '../support/exchange';
import type { DeliveryRequest, DeliveryResult } from '../types';

/** The recipient's phone number, or the permanent failure of having none. */
export function recipientPhone(request: DeliveryRequest, exchange: Exchange): string | DeliveryResult {
  const to = typeof request.recipient.phone_number === 'string' ? request.recipient.phone_number.trim() : '';
  if (to) return to;
  return exchange.failed({
    retryable: false,
    code: 'missing_recipient_phone_number',
    reason: `recipient ${request.recipient.id} has no phone number`,
  });
}

/** E.164 without its `+` and separators, as Vonage and MessageBird take numbers. */
export const msisdn = (phone: string) => phone.replace(/[^\d]/g, '');
