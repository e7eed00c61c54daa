import { createHmac } from 'node:crypto';
import type { ParsedReceipt, ReceiptSource } from './types';
import { digestId, isoFrom, isRecord, OK, refuse, sameText, setting, str, withinTolerance } from './support';

/** Mailgun's webhook signature: hex HMAC-SHA256 of `timestamp + token`, keyed with the HTTP webhook signing key. */
export function mailgunSignature(signingKey: string, timestamp: string, token: string): string {
  return createHmac('sha256', signingKey)
    .update(timestamp + token)
    .digest('hex');
}

/**
 * Mailgun webhooks: `{signature: {timestamp, token, signature}, event-data: {...}}`, one event per
 * request. The message is named by its Message-ID header (`event-data.message.headers.message-id`).
 */
export const mailgunReceipts: ReceiptSource = {
  id: 'mailgun',
  settings: ['webhook_signing_key'],

  verify(request, settings) {
    const key = setting(settings, 'webhook_signing_key');
    if (!key) return refuse('the channel has no webhook_signing_key');
    const sig = isRecord(request.body) && isRecord(request.body.signature) ? request.body.signature : undefined;
    const timestamp = str(sig?.timestamp);
    const token = str(sig?.token);
    const signature = str(sig?.signature);
    if (!timestamp || !token || !signature) return refuse('missing signature');
    if (!withinTolerance(Number(timestamp), request.now)) return refuse('timestamp outside the tolerance');
    return sameText(mailgunSignature(key, timestamp, token), signature) ? OK : refuse('signature mismatch');
  },

  parse(request) {
    const e = isRecord(request.body) && isRecord(request.body['event-data']) ? request.body['event-data'] : undefined;
    const receipt = e ? mailgunReceipt(e, request.now) : null;
    return receipt ? { receipts: [receipt], ignored: 0 } : { receipts: [], ignored: 1 };
  },
};

function mailgunReceipt(e: Record<string, unknown>, now: Date): ParsedReceipt | null {
  const message = isRecord(e.message) ? e.message : {};
  const headers = isRecord(message.headers) ? message.headers : {};
  const messageId = str(headers['message-id']);
  if (!messageId) return null;
  const status = isRecord(e['delivery-status']) ? e['delivery-status'] : {};
  const reason = str(status.description) || str(status.message) || str(e.reason);
  const base = {
    receiptId: str(e.id) ?? digestId('mailgun', e),
    providerMessageId: messageId,
    recipient: str(e.recipient),
    occurredAt: isoFrom(e.timestamp, now),
    payload: e,
    bounceType: null,
    reason: null,
    url: null,
  };
  switch (e.event) {
    case 'delivered':
      return { ...base, kind: 'delivered' };
    case 'failed':
      return { ...base, kind: 'bounced', bounceType: e.severity === 'permanent' ? 'hard' : 'soft', reason };
    case 'complained':
      return { ...base, kind: 'complained' };
    case 'opened':
      return { ...base, kind: 'opened' };
    case 'clicked':
      return { ...base, kind: 'clicked', url: str(e.url) };
    default:
      return null;
  }
}
