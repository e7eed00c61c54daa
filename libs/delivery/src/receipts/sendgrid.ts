import { createPublicKey, KeyObject, verify } from 'node:crypto';
import type { ParsedReceipt, ReceiptSource } from './types';
import { digestId, isoFrom, isRecord, OK, refuse, setting, str, withinTolerance } from './support';

export const SENDGRID_SIGNATURE_HEADER = 'x-twilio-email-event-webhook-signature';
export const SENDGRID_TIMESTAMP_HEADER = 'x-twilio-email-event-webhook-timestamp';

/** The verification key as SendGrid shows it (base64 of the DER public key), or a PEM. */
export function sendgridPublicKey(value: string): KeyObject {
  if (value.includes('-----BEGIN')) return createPublicKey(value);
  return createPublicKey({ key: Buffer.from(value, 'base64'), format: 'der', type: 'spki' });
}

/**
 * SendGrid Event Webhook (signed): an ECDSA P-256 signature (base64, DER) over the timestamp
 * header followed by the raw body, checked with the public verification key SendGrid shows.
 * The body is an array of events; `sg_message_id` starts with the X-Message-Id answered at send.
 */
export const sendgridReceipts: ReceiptSource = {
  id: 'sendgrid',
  settings: ['webhook_verification_key'],

  verify(request, settings) {
    const keyText = setting(settings, 'webhook_verification_key');
    if (!keyText) return refuse('the channel has no webhook_verification_key');
    const signature = request.headers[SENDGRID_SIGNATURE_HEADER];
    const timestamp = request.headers[SENDGRID_TIMESTAMP_HEADER];
    if (!signature || !timestamp) return refuse('missing signature or timestamp header');
    if (!withinTolerance(Number(timestamp), request.now)) return refuse('timestamp outside the tolerance');
    let key: KeyObject;
    try {
      key = sendgridPublicKey(keyText);
    } catch {
      return refuse('webhook_verification_key is not a public key');
    }
    try {
      const valid = verify(
        'sha256',
        Buffer.from(timestamp + request.rawBody, 'utf8'),
        { key, dsaEncoding: 'der' },
        Buffer.from(signature, 'base64'),
      );
      return valid ? OK : refuse('signature mismatch');
    } catch {
      return refuse('signature mismatch');
    }
  },

  parse(request) {
    const events = Array.isArray(request.body) ? request.body : [];
    const receipts: ParsedReceipt[] = [];
    let ignored = 0;
    for (const event of events) {
      const receipt = isRecord(event) ? sendgridReceipt(event, request.now) : null;
      if (receipt) receipts.push(receipt);
      else ignored++;
    }
    return { receipts, ignored };
  },
};

function sendgridReceipt(e: Record<string, unknown>, now: Date): ParsedReceipt | null {
  const messageId = str(e.sg_message_id)?.split('.')[0] ?? str(e['smtp-id']);
  if (!messageId) return null;
  const base = {
    receiptId: str(e.sg_event_id) ?? digestId('sendgrid', e),
    providerMessageId: messageId,
    recipient: str(e.email),
    occurredAt: isoFrom(e.timestamp, now),
    payload: e,
    bounceType: null,
    reason: null,
    url: null,
  };
  const reason = str(e.reason) ?? str(e.response) ?? str(e.status);
  switch (e.event) {
    case 'delivered':
      return { ...base, kind: 'delivered' };
    case 'bounce':
      // `type: blocked` is a refusal that may pass later (a soft bounce); `bounce` is the mailbox.
      return { ...base, kind: 'bounced', bounceType: e.type === 'blocked' ? 'soft' : 'hard', reason };
    case 'dropped':
      return { ...base, kind: 'failed', reason };
    case 'spamreport':
      return { ...base, kind: 'complained' };
    case 'open':
      return { ...base, kind: 'opened' };
    case 'click':
      return { ...base, kind: 'clicked', url: str(e.url) };
    default:
      return null; // processed, deferred, unsubscribe, group_*: nothing to record
  }
}
