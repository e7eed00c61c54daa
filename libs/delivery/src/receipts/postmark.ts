import type { ParsedReceipt, ReceiptSource } from './types';
import { digestId, isoFrom, isRecord, OK, refuse, sameText, setting, str } from './support';

/** Postmark bounce types that mean the address will never accept mail. */
const HARD = new Set(['HardBounce', 'BadEmailAddress', 'ManuallyDeactivated', 'Blocked', 'AddressChange']);

/**
 * Postmark webhooks carry no signature: the webhook URL is set with HTTP basic auth credentials
 * (`https://user:password@host/...`), checked here against the channel's settings. One event per
 * request, named by `RecordType`; the message by `MessageID` (answered at send).
 */
export const postmarkReceipts: ReceiptSource = {
  id: 'postmark',
  settings: ['webhook_username', 'webhook_password'],

  verify(request, settings) {
    const user = setting(settings, 'webhook_username');
    const password = setting(settings, 'webhook_password');
    if (!user || !password) return refuse('the channel has no webhook_username and webhook_password');
    const given = /^Basic\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (!given) return refuse('missing basic auth credentials');
    const expected = Buffer.from(`${user}:${password}`).toString('base64');
    return sameText(given, expected) ? OK : refuse('credentials mismatch');
  },

  parse(request) {
    const receipt = isRecord(request.body) ? postmarkReceipt(request.body, request.now) : null;
    return receipt ? { receipts: [receipt], ignored: 0 } : { receipts: [], ignored: 1 };
  },
};

function postmarkReceipt(e: Record<string, unknown>, now: Date): ParsedReceipt | null {
  const messageId = str(e.MessageID);
  if (!messageId) return null;
  const base = {
    receiptId: digestId(
      'postmark',
      e.RecordType,
      e.ID ?? null,
      messageId,
      e.DeliveredAt ?? e.BouncedAt ?? e.ReceivedAt ?? null,
      e.OriginalLink ?? null,
    ),
    providerMessageId: messageId,
    recipient: str(e.Recipient) ?? str(e.Email),
    payload: e,
    bounceType: null,
    reason: null,
    url: null,
  };
  switch (e.RecordType) {
    case 'Delivery':
      return { ...base, kind: 'delivered', occurredAt: isoFrom(e.DeliveredAt, now) };
    case 'Bounce':
      return {
        ...base,
        kind: 'bounced',
        bounceType: HARD.has(String(e.Type)) ? 'hard' : 'soft',
        reason: [str(e.Type), str(e.Description) ?? str(e.Details)].filter(Boolean).join(': ') || null,
        occurredAt: isoFrom(e.BouncedAt, now),
      };
    case 'SpamComplaint':
      return { ...base, kind: 'complained', occurredAt: isoFrom(e.BouncedAt, now) };
    case 'Open':
      return { ...base, kind: 'opened', occurredAt: isoFrom(e.ReceivedAt, now) };
    case 'Click':
      return { ...base, kind: 'clicked', url: str(e.OriginalLink), occurredAt: isoFrom(e.ReceivedAt, now) };
    default:
      return null;
  }
}
