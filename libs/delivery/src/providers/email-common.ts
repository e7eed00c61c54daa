import type { Exchange } from '../support/exchange';
import { stringSetting } from '../support/settings';
import type { DeliveryRequest, DeliveryResult, EmailContent, ProviderConfig } from '../types';
import { addressList, recipientEmail } from './email-address';

export interface EmailEnvelope {
  to: string;
  from: string;
  cc: string[];
  bcc: string[];
}

/**
 * The addresses every email provider needs: the recipient's (else a permanent failure) and a
 * sender from the content or the provider's `from` setting.
 */
export function emailEnvelope(
  providerId: string,
  request: DeliveryRequest,
  content: EmailContent,
  config: ProviderConfig,
  exchange: Exchange,
): EmailEnvelope | DeliveryResult {
  const to = recipientEmail(request.recipient);
  if (!to)
    return exchange.failed({
      retryable: false,
      code: 'missing_recipient_email',
      reason: `recipient ${request.recipient.id} has no email address`,
    });
  const from = content.from ?? stringSetting(config.settings, 'from');
  if (!from)
    return exchange.failed({
      retryable: false,
      code: 'invalid_settings',
      reason: `${providerId}: from is required (in the settings or the content)`,
    });
  return { to, from, cc: addressList(content.cc), bcc: addressList(content.bcc) };
}

export const isEnvelope = (value: EmailEnvelope | DeliveryResult): value is EmailEnvelope => 'to' in value && 'from' in value;

/** `Name <a@b.c>` or `a@b.c` as `{email, name?}` (SendGrid's shape). */
export function splitAddress(address: string): { email: string; name?: string } {
  const match = /^\s*"?(.*?)"?\s*<([^>]+)>\s*$/.exec(address);
  if (!match) return { email: address.trim() };
  const name = match[1].replace(/\\(["\\])/g, '$1').trim();
  return name ? { email: match[2].trim(), name } : { email: match[2].trim() };
}
