import { performance } from 'node:perf_hooks';
import type SMTPConnection from 'nodemailer/lib/smtp-connection';
import type { Exchange } from '../support/exchange';
import { z } from 'zod';
import { isRecord, stringSetting } from '../support/settings';
import { settingsSchema, text } from '../support/settings-schema';
import type { DeliveryRequest, DeliveryResult, EmailContent, ProviderConfig } from '../types';
import { BaseProvider } from './base.provider';
import { addressList, domainOf, formatAddress, recipientEmail, stableMessageId } from './email-address';

export const IDEMPOTENCY_HEADER = 'X-Notify-Idempotency-Key';

/** Connection failures worth another try; other errors without an SMTP reply code are permanent. */
const TRANSIENT_CODES = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ETLS', 'ECONNRESET', 'ECONNREFUSED', 'EPROTOCOL']);

/**
 * Email over SMTP with nodemailer, one connection per message. Settings: `host`, `port`
 * (587, or 465 when `secure`), `secure` (TLS from the start), `auth: {user, pass}`, `from`,
 * `ignore_tls`, `require_tls`, `tls_reject_unauthorized` (default true), `message_id_domain`.
 */
export class SmtpProvider extends BaseProvider<EmailContent> {
  readonly id = 'smtp';
  readonly channelType = 'email' as const;

  override readonly settingsSchema = settingsSchema({
    host: text(),
    port: z.custom<number | string>(isPort, 'must be a number from 1 to 65535').optional(),
    auth: z
      .custom<{ user: string; pass: string }>(
        (v) => isRecord(v) && typeof v.user === 'string' && typeof v.pass === 'string',
        'must be {user, pass}',
      )
      .optional(),
  });

  protected async deliver(
    request: DeliveryRequest,
    content: EmailContent,
    config: ProviderConfig,
    exchange: Exchange,
  ): Promise<DeliveryResult> {
    const settings = config.settings;
    const to = recipientEmail(request.recipient);
    if (!to)
      return exchange.failed({
        retryable: false,
        code: 'missing_recipient_email',
        reason: `recipient ${request.recipient.id} has no email address`,
      });
    const from = content.from ?? stringSetting(settings, 'from');
    if (!from)
      return exchange.failed({
        retryable: false,
        code: 'invalid_settings',
        reason: 'smtp: from is required (in the settings or the content)',
      });

    const secure = settings.secure === true;
    const host = stringSetting(settings, 'host')!;
    const port = isPort(settings.port) ? Number(settings.port) : secure ? 465 : 587;
    const messageId = stableMessageId(
      request.idempotencyKey,
      stringSetting(settings, 'message_id_domain') ?? domainOf(from) ?? 'notify.localhost',
    );
    const headers = { ...content.headers, [IDEMPOTENCY_HEADER]: request.idempotencyKey };
    const mail = {
      from,
      to: formatAddress(to, request.recipient.name),
      cc: addressList(content.cc),
      bcc: addressList(content.bcc),
      replyTo: content.reply_to ?? undefined,
      subject: content.subject,
      text: content.text_body ?? undefined,
      html: content.html_body ?? undefined,
      messageId,
      headers,
    };
    const auth = isRecord(settings.auth) ? { user: String(settings.auth.user), pass: String(settings.auth.pass) } : undefined;
    const { default: nodemailer } = await import('nodemailer'); // loaded on first use, not at every start
    const transport = nodemailer.createTransport({
      host,
      port,
      secure,
      auth,
      ignoreTLS: settings.ignore_tls === true,
      requireTLS: settings.require_tls === true,
      tls: { rejectUnauthorized: settings.tls_reject_unauthorized !== false },
      // The exchange's deadline ends the wait; these only make sure the socket goes away after it.
      connectionTimeout: exchange.timeoutMs + 1000,
      greetingTimeout: exchange.timeoutMs + 1000,
      socketTimeout: exchange.timeoutMs + 1000,
      dnsTimeout: exchange.timeoutMs + 1000,
    });
    const logRequest = {
      method: 'SMTP',
      url: `${secure ? 'smtps' : 'smtp'}://${host}:${port}`,
      headers: {
        from,
        to: mail.to,
        ...(mail.cc.length ? { cc: mail.cc.join(', ') } : {}),
        subject: content.subject,
        'message-id': messageId,
        ...headers,
      },
      body: { text: mail.text ?? null, html: mail.html ?? null },
    };

    const deadline = exchange.deadline();
    const started = performance.now();
    try {
      const info = await new Promise<SMTPConnection.SentMessageInfo>((resolve, reject) => {
        const onAbort = () => reject(Object.assign(new Error('deadline'), { code: 'DEADLINE' }));
        if (deadline.aborted) return onAbort();
        deadline.addEventListener('abort', onAbort, { once: true });
        transport
          .sendMail(mail)
          .then(resolve, reject)
          .finally(() => deadline.removeEventListener('abort', onAbort));
      });
      exchange.record({
        request: logRequest,
        response: {
          status: replyCode(info.response) ?? 250,
          headers: {},
          body: { response: info.response, accepted: info.accepted, rejected: info.rejected },
        },
        duration_ms: Math.round(performance.now() - started),
      });
      return exchange.sent({ providerMessageId: messageId });
    } catch (caught) {
      const error = caught as SMTPConnection.SMTPError;
      const duration_ms = Math.round(performance.now() - started);
      if (error.code === 'DEADLINE') {
        const { code, reason } = exchange.abortReason();
        exchange.record({ request: logRequest, error: `${code}: ${reason}`, duration_ms });
        return exchange.failed({ retryable: true, code, reason });
      }
      const reason = error.response ?? error.message;
      exchange.record({
        request: logRequest,
        ...(error.responseCode
          ? {
              response: {
                status: error.responseCode,
                headers: {},
                body: { response: error.response ?? null, command: error.command ?? null },
              },
            }
          : {}),
        error: `${error.code ?? 'ERROR'}: ${error.message}`,
        duration_ms,
      });
      // SMTP reply codes say it: 4xx is a transient condition, 5xx a permanent one (RFC 5321 4.2.1).
      if (error.responseCode) {
        const bounced = error.command === 'RCPT TO' && MAILBOX_REFUSED.has(error.responseCode);
        return exchange.failed({
          retryable: error.responseCode < 500,
          code: `smtp_${error.responseCode}`,
          reason,
          ...(bounced ? { bounced } : {}),
        });
      }
      const transient = TRANSIENT_CODES.has(error.code ?? '');
      return exchange.failed({
        retryable: transient,
        code: transient ? 'network_error' : `smtp_${(error.code ?? 'error').toLowerCase()}`,
        reason,
      });
    } finally {
      transport.close();
    }
  }
}

/** Replies to RCPT TO that refuse the mailbox itself (RFC 5321 4.2.3): a hard bounce, reported there and then. */
const MAILBOX_REFUSED = new Set([550, 551, 553]);

function isPort(value: unknown): boolean {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 && n < 65536;
}

function replyCode(response: string | undefined): number | undefined {
  const match = /^(\d{3})/.exec(response ?? '');
  return match ? Number(match[1]) : undefined;
}
