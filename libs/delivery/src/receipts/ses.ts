import { createPublicKey, verify } from 'node:crypto';
import type { ParsedReceipt, ReceiptDeps, ReceiptSource } from './types';
import { isoFrom, isRecord, OK, refuse, setting, str } from './support';

/** The fields of an SNS message that are signed, in order, per message type. */
const SIGNED_FIELDS: Record<string, string[]> = {
  Notification: ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'],
  SubscriptionConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
  UnsubscribeConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
};

/** The text an SNS message's signature covers: `name\nvalue\n` for each signed field present. */
export function snsStringToSign(message: Record<string, unknown>): string {
  const fields = SIGNED_FIELDS[String(message.Type)] ?? [];
  return fields
    .filter((f) => typeof message[f] === 'string')
    .map((f) => `${f}\n${message[f] as string}\n`)
    .join('');
}

/** Origins SNS signing certificates are fetched from unless configured otherwise. */
export const DEFAULT_SNS_CERTIFICATE_ORIGINS = ['https://sns.*.amazonaws.com', 'https://sns.*.amazonaws.com.cn'];

/** Whether `url` is on one of the allowed origins (`*` stands for one DNS label, or a port). */
export function snsOriginAllowed(url: string, origins: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return origins.some((pattern) => new RegExp(`^${pattern.split('*').map(escapeRegExp).join('[A-Za-z0-9-]+')}$`, 'i').test(parsed.origin));
}

/** A signing certificate URL SNS may name: a `.pem` on an allowed origin. */
export function snsCertificateAllowed(url: string, origins: readonly string[]): boolean {
  return snsOriginAllowed(url, origins) && new URL(url).pathname.endsWith('.pem');
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Amazon SES bounce types and subtypes that mean the address does not exist or refuses mail for good. */
const isHardBounce = (bounce: Record<string, unknown>) => bounce.bounceType === 'Permanent';

/**
 * Amazon SES event notifications delivered through an SNS topic: an SNS message (JSON, posted as
 * text/plain) signed with RSA (SignatureVersion 1: SHA1, 2: SHA256) by the key of the X.509
 * certificate at `SigningCertURL`, fetched only from allowed origins (SNS_CERTIFICATE_ORIGINS).
 * `Message` holds the SES notification; the message is named by `mail.messageId`.
 */
export const sesReceipts: ReceiptSource = {
  id: 'ses',
  settings: ['sns_topic_arn'],

  async verify(request, settings, deps: ReceiptDeps) {
    const m = isRecord(request.body) ? request.body : undefined;
    if (!m || typeof m.Signature !== 'string' || typeof m.SigningCertURL !== 'string') return refuse('not a signed SNS message');
    const topic = setting(settings, 'sns_topic_arn');
    if (topic && m.TopicArn !== topic) return refuse('message from another topic');
    const algorithm = m.SignatureVersion === '2' ? 'sha256' : m.SignatureVersion === '1' ? 'sha1' : undefined;
    if (!algorithm) return refuse('unknown SignatureVersion');
    if (!deps.certificate) return refuse('no certificate fetcher configured');
    let pem: string;
    try {
      pem = await deps.certificate(m.SigningCertURL);
    } catch (error) {
      return refuse(`signing certificate refused: ${error instanceof Error ? error.message : String(error)}`);
    }
    try {
      const key = createPublicKey(pem);
      return verify(algorithm, Buffer.from(snsStringToSign(m), 'utf8'), key, Buffer.from(m.Signature, 'base64'))
        ? OK
        : refuse('signature mismatch');
    } catch {
      return refuse('signature mismatch');
    }
  },

  parse(request) {
    const m = isRecord(request.body) ? request.body : {};
    if (m.Type === 'SubscriptionConfirmation' && typeof m.SubscribeURL === 'string')
      return { receipts: [], ignored: 0, subscribeUrl: m.SubscribeURL };
    if (m.Type !== 'Notification' || typeof m.Message !== 'string') return { receipts: [], ignored: 1 };
    let n: unknown;
    try {
      n = JSON.parse(m.Message);
    } catch {
      return { receipts: [], ignored: 1 };
    }
    const receipts = isRecord(n) ? sesReceipts_(n, str(m.MessageId) ?? '', request.now) : [];
    return { receipts, ignored: receipts.length ? 0 : 1 };
  },
};

function sesReceipts_(n: Record<string, unknown>, snsMessageId: string, now: Date): ParsedReceipt[] {
  const mail = isRecord(n.mail) ? n.mail : {};
  const messageId = str(mail.messageId);
  if (!messageId) return [];
  const type = str(n.eventType) ?? str(n.notificationType);
  const destination = Array.isArray(mail.destination) ? str(mail.destination[0]) : null;
  const base = {
    receiptId: `ses:${snsMessageId}`,
    providerMessageId: messageId,
    recipient: destination,
    payload: n,
    bounceType: null,
    reason: null,
    url: null,
  };
  const section = (name: string) => (isRecord(n[name]) ? (n[name] as Record<string, unknown>) : {});
  switch (type) {
    case 'Delivery':
      return [{ ...base, kind: 'delivered', occurredAt: isoFrom(section('delivery').timestamp, now) }];
    case 'Bounce': {
      const bounce = section('bounce');
      const recipients = Array.isArray(bounce.bouncedRecipients) ? bounce.bouncedRecipients.filter(isRecord) : [];
      const first = recipients[0] ?? {};
      return [
        {
          ...base,
          kind: 'bounced',
          bounceType: isHardBounce(bounce) ? 'hard' : 'soft',
          recipient: str(first.emailAddress) ?? destination,
          reason: [str(bounce.bounceType), str(bounce.bounceSubType), str(first.diagnosticCode)].filter(Boolean).join(': ') || null,
          occurredAt: isoFrom(bounce.timestamp, now),
        },
      ];
    }
    case 'Complaint': {
      const complaint = section('complaint');
      const recipients = Array.isArray(complaint.complainedRecipients) ? complaint.complainedRecipients.filter(isRecord) : [];
      return [
        {
          ...base,
          kind: 'complained',
          recipient: str(recipients[0]?.emailAddress) ?? destination,
          reason: str(complaint.complaintFeedbackType),
          occurredAt: isoFrom(complaint.timestamp, now),
        },
      ];
    }
    case 'Open':
      return [{ ...base, kind: 'opened', occurredAt: isoFrom(section('open').timestamp, now) }];
    case 'Click':
      return [{ ...base, kind: 'clicked', url: str(section('click').link), occurredAt: isoFrom(section('click').timestamp, now) }];
    default:
      return [];
  }
}
