import { createHmac } from 'node:crypto';
import type { ParsedReceipt, ReceiptSource } from './types';
import { isoFrom, isRecord, OK, refuse, sameText, setting, str, withinTolerance } from './support';

/** A Svix signature (`v1,<base64>`) of `id.timestamp.body`, keyed with the `whsec_` secret's bytes. */
export function svixSignature(secret: string, id: string, timestamp: string, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/**
 * Resend webhooks, signed by Svix: `svix-id`, `svix-timestamp` and `svix-signature` (a
 * space-separated list of `v1,<base64>`; any one may match, as secrets rotate). The svix id is the
 * event's id. The message is named by `data.email_id` (the id answered at send).
 */
export const resendReceipts: ReceiptSource = {
  id: 'resend',
  settings: ['webhook_secret'],

  verify(request, settings) {
    const secret = setting(settings, 'webhook_secret');
    if (!secret) return refuse('the channel has no webhook_secret');
    const id = request.headers['svix-id'];
    const timestamp = request.headers['svix-timestamp'];
    const signatures = request.headers['svix-signature'];
    if (!id || !timestamp || !signatures) return refuse('missing svix headers');
    if (!withinTolerance(Number(timestamp), request.now)) return refuse('timestamp outside the tolerance');
    const expected = svixSignature(secret, id, timestamp, request.rawBody);
    return signatures.split(' ').some((s) => sameText(s, expected)) ? OK : refuse('signature mismatch');
  },

  parse(request) {
    const e = isRecord(request.body) ? request.body : undefined;
    const data = e && isRecord(e.data) ? e.data : undefined;
    const messageId = str(data?.email_id);
    if (!e || !data || !messageId) return { receipts: [], ignored: 1 };
    const to = Array.isArray(data.to) ? str(data.to[0]) : str(data.to);
    const base = {
      receiptId: request.headers['svix-id'] ?? `${messageId}:${String(e.type)}:${String(e.created_at)}`,
      providerMessageId: messageId,
      recipient: to,
      occurredAt: isoFrom(e.created_at, request.now),
      payload: e,
      bounceType: null,
      reason: null,
      url: null,
    };
    const bounce = isRecord(data.bounce) ? data.bounce : {};
    const click = isRecord(data.click) ? data.click : {};
    const receipt: ParsedReceipt | null =
      e.type === 'email.delivered'
        ? { ...base, kind: 'delivered' }
        : e.type === 'email.bounced'
          ? { ...base, kind: 'bounced', bounceType: bounce.type === 'Transient' ? 'soft' : 'hard', reason: str(bounce.message) }
          : e.type === 'email.complained'
            ? { ...base, kind: 'complained' }
            : e.type === 'email.opened'
              ? { ...base, kind: 'opened' }
              : e.type === 'email.clicked'
                ? { ...base, kind: 'clicked', url: str(click.link) }
                : e.type === 'email.failed'
                  ? { ...base, kind: 'failed', reason: str(isRecord(data.failed) ? data.failed.reason : null) }
                  : null;
    return receipt ? { receipts: [receipt], ignored: 0 } : { receipts: [], ignored: 1 };
  },
};
