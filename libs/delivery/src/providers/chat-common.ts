import type { Exchange, HttpOutcome } from '../support/exchange';
import { failureOf, isSuccess } from '../support/exchange';
import { isRecord } from '../support/settings';
import type { ChatContent, DeliveryRequest, DeliveryResult, DeliveryTargetResult } from '../types';
import { slackConnections } from './slack-channel-data';

/**
 * Connections of chat channel data that are incoming webhooks, as their URLs. A webhook URL is a
 * credential: its last path segment and every long one (the keys and ids of Discord,
 * Mattermost and Teams URLs) are added to the exchange's redactor.
 */
export function incomingWebhooks(channelData: Record<string, unknown> | null | undefined, exchange: Exchange): string[] {
  exchange.redactor.collect(channelData);
  const urls = slackConnections(channelData)
    .map((c) => (isRecord(c) && isRecord(c.incoming_webhook) ? c.incoming_webhook.url : undefined))
    .filter((u): u is string => typeof u === 'string' && u.trim() !== '');
  for (const url of urls) {
    try {
      const segments = new URL(url).pathname.split('/').filter(Boolean);
      exchange.redactor.add(segments.at(-1), ...segments.filter((segment) => segment.length >= 20));
    } catch {
      exchange.redactor.add(url);
    }
  }
  return urls;
}

/** Values of one field of the channel data's connections (`channel_id`, `ms_teams_channel_id`, ...). */
export function connectionField(channelData: Record<string, unknown> | null | undefined, field: string): string[] {
  return slackConnections(channelData)
    .map((c) => (isRecord(c) && !('incoming_webhook' in c) ? c[field] : undefined))
    .filter((v): v is string | number => (typeof v === 'string' && v.trim() !== '') || typeof v === 'number')
    .map(String);
}

/** The message as plain text: the markdown body, else the summary. */
export const chatText = (content: ChatContent) => content.markdown_body ?? content.summary ?? '';

/** One connection's outcome: sent with the id `idOf` reads from a 2xx body, else classified like any HTTP failure. */
export function chatTarget(
  target: string,
  outcome: HttpOutcome,
  idOf: (body: unknown) => string | undefined,
  describe: (body: unknown) => { reason?: string; code?: string } = () => ({}),
): DeliveryTargetResult & { retryAfterMs?: number } {
  if (isSuccess(outcome)) {
    const id = idOf(outcome.body);
    return { target, outcome: 'sent', ...(id ? { providerMessageId: id } : {}) };
  }
  const failure = failureOf(outcome, describe);
  return {
    target,
    outcome: 'failed',
    retryable: failure.retryable,
    reason: failure.reason,
    code: failure.code,
    retryAfterMs: failure.retryAfterMs,
  };
}

/** The result of posting to every connection: sent when one got it (ADR 0064). */
export function chatResult(exchange: Exchange, results: (DeliveryTargetResult & { retryAfterMs?: number })[]): DeliveryResult {
  const retryAfter = results.map((r) => r.retryAfterMs).filter((v): v is number => v !== undefined);
  return exchange.fannedOut(
    results.map(({ retryAfterMs: _r, ...t }) => t),
    [],
    retryAfter.length ? Math.max(...retryAfter) : undefined,
  );
}

export function missingConnections(exchange: Exchange, request: DeliveryRequest, what: string): DeliveryResult {
  return exchange.failed({ retryable: false, code: 'missing_channel_data', reason: `recipient ${request.recipient.id} has no ${what}` });
}
