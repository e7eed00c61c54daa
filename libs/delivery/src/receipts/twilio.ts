import { createHmac } from 'node:crypto';
import type { ParsedReceipt, ReceiptSource } from './types';
import { isRecord, OK, refuse, sameText, setting, str } from './support';

/**
 * X-Twilio-Signature: base64 HMAC-SHA1, keyed with the account's auth token, of the full URL
 * Twilio called followed by each POST parameter's name and value, sorted by name.
 */
export function twilioSignature(authToken: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, key) => acc + key + params[key], url);
  return createHmac('sha1', authToken).update(Buffer.from(data, 'utf8')).digest('base64');
}

/**
 * Twilio message status callbacks (form-encoded, one status per request). The message is named
 * by `MessageSid`, answered at send; a status has no event id, so sid and status make one (Twilio
 * reports each status once per message).
 */
export const twilioReceipts: ReceiptSource = {
  id: 'twilio',
  settings: ['auth_token'],

  verify(request, settings) {
    const token = setting(settings, 'webhook_auth_token') ?? setting(settings, 'auth_token');
    if (!token) return refuse('the channel has no auth_token');
    const given = request.headers['x-twilio-signature'];
    if (!given) return refuse('missing X-Twilio-Signature');
    const params = isRecord(request.body) ? stringParams(request.body) : {};
    return sameText(twilioSignature(token, request.url, params), given) ? OK : refuse('signature mismatch');
  },

  parse(request) {
    const p = isRecord(request.body) ? stringParams(request.body) : {};
    const sid = str(p.MessageSid) ?? str(p.SmsSid);
    const status = str(p.MessageStatus) ?? str(p.SmsStatus);
    if (!sid || !status) return { receipts: [], ignored: 1 };
    const base = {
      receiptId: `${sid}:${status}`,
      providerMessageId: sid,
      recipient: str(p.To),
      occurredAt: request.now.toISOString(),
      payload: p,
      bounceType: null,
      reason: null,
      url: null,
    };
    const error = p.ErrorCode ? `twilio error ${p.ErrorCode}${p.ErrorMessage ? `: ${p.ErrorMessage}` : ''}` : null;
    const receipt: ParsedReceipt | null =
      status === 'delivered'
        ? { ...base, kind: 'delivered' }
        : status === 'read'
          ? { ...base, kind: 'opened' }
          : status === 'undelivered' || status === 'failed'
            ? { ...base, kind: 'failed', reason: error ?? status }
            : null;
    return receipt ? { receipts: [receipt], ignored: 0 } : { receipts: [], ignored: 1 };
  },
};

function stringParams(body: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(body).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])));
}
