import { createHash } from 'node:crypto';
import type { DeliveryRecipient } from '../types';

/** The recipient's address, or undefined when there is none to send to. */
export function recipientEmail(recipient: DeliveryRecipient): string | undefined {
  const email = typeof recipient.email === 'string' ? recipient.email.trim() : '';
  return email === '' ? undefined : email;
}

/** `"Ada Lovelace" <ada@example.com>`, quoting the name as RFC 5322 asks. */
export function formatAddress(email: string, name?: string | null): string {
  if (!name) return email;
  return `"${name.replace(/["\\]/g, '\\$&')}" <${email}>`;
}

export function addressList(value: string | string[] | null | undefined): string[] {
  if (value == null) return [];
  const list = Array.isArray(value) ? value : value.split(',');
  return list.map((item) => item.trim()).filter(Boolean);
}

/** The domain of the address in `from` (`Name <a@b.c>` or `a@b.c`). */
export function domainOf(from: string): string | undefined {
  return /@([^>\s]+)>?\s*$/.exec(from)?.[1];
}

/**
 * A Message-ID that is the same on every attempt of one message, so that a receiving system
 * that deduplicates by Message-ID drops a retried copy. The key is used as it is when it is a
 * valid dot-atom, hashed otherwise.
 */
export function stableMessageId(idempotencyKey: string, domain: string): string {
  const left = /^[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]+(\.[A-Za-z0-9!#$%&'*+\-/=?^_`{|}~]+)*$/.test(idempotencyKey)
    ? idempotencyKey
    : createHash('sha256').update(idempotencyKey).digest('hex');
  return `<${left}@${domain}>`;
}
