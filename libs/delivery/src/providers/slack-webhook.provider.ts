import type { Exchange } from '../support/exchange';
import { failureOf, isSuccess } from '../support/exchange';
import type { ChatContent, DeliveryRequest, DeliveryResult, DeliveryTargetResult, ProviderConfig } from '../types';
import { BaseProvider } from './base.provider';
import { slackPayload, webhookUrls } from './slack-channel-data';

/**
 * Slack incoming webhooks: a JSON POST to each `incoming_webhook.url` in the recipient's chat
 * channel data. The URL is the credential (its last path segment is a secret), so it is
 * redacted in logs. Slack answers `ok`, or an error word with a 4xx/5xx status.
 */
export class SlackWebhookProvider extends BaseProvider<ChatContent> {
  readonly id = 'slack-webhook';
  readonly channelType = 'chat' as const;

  protected async deliver(
    request: DeliveryRequest,
    content: ChatContent,
    _config: ProviderConfig,
    exchange: Exchange,
  ): Promise<DeliveryResult> {
    const urls = webhookUrls(request.channelData);
    if (!urls.length)
      return exchange.failed({
        retryable: false,
        code: 'missing_channel_data',
        reason: `recipient ${request.recipient.id} has no Slack incoming_webhook connection`,
      });
    for (const url of urls) exchange.redactor.add(secretOf(url));
    let retryAfterMs: number | undefined;
    const targets = await Promise.all(
      urls.map(async (url): Promise<DeliveryTargetResult> => {
        const target = `webhook:${exchange.redactor.url(url)}`;
        const outcome = await exchange.http({ method: 'POST', url, json: slackPayload(content) });
        if (isSuccess(outcome)) return { target, outcome: 'sent' };
        const failure = failureOf(outcome, (body) =>
          typeof body === 'string' && /^[a-z_]+$/.test(body.trim()) ? { code: `slack_${body.trim()}`, reason: body.trim() } : {},
        );
        if (failure.retryAfterMs !== undefined) retryAfterMs = Math.max(retryAfterMs ?? 0, failure.retryAfterMs);
        return {
          target,
          outcome: 'failed',
          retryable: failure.retryable,
          reason: failure.reason,
          ...(failure.code ? { code: failure.code } : {}),
        };
      }),
    );
    return exchange.fannedOut(targets, [], retryAfterMs);
  }
}

/** The last path segment of a webhook URL (`/services/T…/B…/<secret>`); the whole URL when unparseable. */
function secretOf(url: string): string {
  try {
    const segments = new URL(url).pathname.split('/').filter(Boolean);
    return segments.at(-1) ?? url;
  } catch {
    return url;
  }
}
