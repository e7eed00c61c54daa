import type { Exchange } from '../support/exchange';
import { failureOf, isSuccess } from '../support/exchange';
import { baseUrlOf, isRecord, stringSetting } from '../support/settings';
import type { ChatContent, DeliveryRequest, DeliveryResult, DeliveryTargetResult, ProviderConfig } from '../types';
import { BaseProvider } from './base.provider';
import { channelDataToken, slackPayload, tokenConnections } from './slack-channel-data';

/** `ok: false` errors that a later try can get past; every other Slack error is permanent. */
const RETRYABLE_SLACK_ERRORS = new Set([
  'ratelimited',
  'rate_limited',
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
  'team_added_to_org',
]);

/**
 * Slack through the Web API's `chat.postMessage`, once per connection in the recipient's channel
 * data that names a `channel_id` (or a `user_id`, for a direct message). The bot token is the
 * connection's `access_token`, else the channel data's `token.access_token`, else the
 * `bot_token` setting. Slack answers HTTP 200 with `{ok: false, error}` for most failures.
 */
export class SlackProvider extends BaseProvider<ChatContent> {
  readonly id = 'slack';
  readonly channelType = 'chat' as const;

  protected async deliver(
    request: DeliveryRequest,
    content: ChatContent,
    config: ProviderConfig,
    exchange: Exchange,
  ): Promise<DeliveryResult> {
    exchange.redactor.collect(request.channelData);
    const connections = tokenConnections(request.channelData);
    if (!connections.length)
      return exchange.failed({
        retryable: false,
        code: 'missing_channel_data',
        reason: `recipient ${request.recipient.id} has no Slack connection with a channel_id or user_id`,
      });
    const url = `${baseUrlOf(config.baseUrl, 'https://slack.com/api')}/chat.postMessage`;
    const fallbackToken = channelDataToken(request.channelData) ?? stringSetting(config.settings, 'bot_token');
    let retryAfterMs: number | undefined;
    const targets = await Promise.all(
      connections.map(async (connection): Promise<DeliveryTargetResult> => {
        const channel = (connection.channel_id ?? connection.user_id)!;
        const target = `channel:${channel}`;
        const token = connection.access_token || fallbackToken;
        if (!token)
          return {
            target,
            outcome: 'failed',
            retryable: false,
            code: 'missing_slack_token',
            reason: 'no access token in the connection, the channel data or the bot_token setting',
          };
        const outcome = await exchange.http({
          method: 'POST',
          url,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=utf-8' },
          json: { ...slackPayload(content), channel },
        });
        if (isSuccess(outcome) && isRecord(outcome.body)) {
          if (outcome.body.ok === true)
            return { target, outcome: 'sent', ...(typeof outcome.body.ts === 'string' ? { providerMessageId: outcome.body.ts } : {}) };
          const error = typeof outcome.body.error === 'string' ? outcome.body.error : 'unknown_error';
          return {
            target,
            outcome: 'failed',
            retryable: RETRYABLE_SLACK_ERRORS.has(error),
            code: `slack_${error}`,
            reason: `Slack error ${error}`,
          };
        }
        const failure = isSuccess(outcome)
          ? { retryable: true, code: 'slack_unreadable_response', reason: 'Slack answered without a JSON body' }
          : failureOf(outcome);
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
