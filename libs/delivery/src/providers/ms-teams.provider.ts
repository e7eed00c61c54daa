import { z } from 'zod';
import type { Exchange } from '../support/exchange';
import { isSuccess } from '../support/exchange';
import { BOT_FRAMEWORK_SCOPE, microsoftAppSettings, MicrosoftTokens } from '../support/microsoft';
import type { ProviderIo } from '../support/exchange';
import { baseUrlOf, isRecord, stringSetting } from '../support/settings';
import { settingsSchema } from '../support/settings-schema';
import type { ChatContent, DeliveryRequest, DeliveryResult, DeliveryTargetResult, ProviderConfig } from '../types';
import { BaseProvider } from './base.provider';
import { chatResult, chatTarget, chatText, incomingWebhooks, missingConnections } from './chat-common';
import { slackConnections } from './slack-channel-data';

/** The Bot Connector's public service URL for Teams (the global endpoint; regional ones work too). */
const TEAMS_SERVICE_URL = 'https://smba.trafficmanager.net/teams';

/** A Teams message: the template's Adaptive Card as an attachment, else markdown text. */
export function teamsActivity(content: ChatContent): Record<string, unknown> {
  const card = content.json_body;
  if (card && card.type === 'AdaptiveCard')
    return {
      type: 'message',
      ...(content.summary ? { summary: content.summary } : {}),
      attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', content: card }],
    };
  if (card) return { type: 'message', ...card };
  return { type: 'message', text: chatText(content), textFormat: 'markdown' };
}

const idOf = (body: unknown) => (isRecord(body) && typeof body.id === 'string' ? body.id : undefined);
const describe = (body: unknown) =>
  isRecord(body) && isRecord(body.error) && typeof body.error.message === 'string'
    ? { reason: body.error.message, ...(typeof body.error.code === 'string' ? { code: `ms_teams_${body.error.code}` } : {}) }
    : {};

/**
 * Microsoft Teams through incoming webhooks: `POST` to each connection's `incoming_webhook.url`
 * (an Adaptive Card in the template's JSON goes as a message attachment). No settings.
 */
export class MsTeamsWebhookProvider extends BaseProvider<ChatContent> {
  readonly id = 'ms-teams-webhook';
  readonly channelType = 'chat' as const;
  override readonly settingsSchema = settingsSchema({});

  protected async deliver(
    request: DeliveryRequest,
    content: ChatContent,
    _config: ProviderConfig,
    exchange: Exchange,
  ): Promise<DeliveryResult> {
    const hooks = incomingWebhooks(request.channelData, exchange);
    if (!hooks.length) return missingConnections(exchange, request, 'Microsoft Teams incoming_webhook connection');
    const activity = teamsActivity(content);
    const results = await Promise.all(
      hooks.map(async (hook, i) =>
        chatTarget(`webhook:${i}`, await exchange.http({ method: 'POST', url: hook, json: activity }), () => undefined),
      ),
    );
    return chatResult(exchange, results);
  }
}

/**
 * Microsoft Teams through the Bot Framework: an app-only token by the client credentials grant
 * (scope `https://api.botframework.com/.default`), then the Bot Connector API at the service
 * URL: a channel connection (`ms_teams_channel_id`) gets a new conversation in that channel with
 * the message (`POST /v3/conversations`), a user connection (`ms_teams_user_id`) a one-to-one
 * conversation and the message in it (`POST /v3/conversations/{id}/activities`). The tenant is
 * the connection's, the channel data's or the `tenant_id` setting. Settings: `app_id`,
 * `app_password`, `tenant_id`, `service_url`, `login_url`, `graph_url` (lookups).
 */
export class MsTeamsProvider extends BaseProvider<ChatContent> {
  readonly id = 'ms-teams';
  readonly channelType = 'chat' as const;
  override readonly settingsSchema = settingsSchema({
    ...microsoftAppSettings,
    service_url: z.string().optional(),
    graph_url: z.string().optional(),
  });
  private readonly tokens: MicrosoftTokens;

  constructor(options: ProviderIo & { now?: () => number } = {}) {
    super(options);
    this.tokens = new MicrosoftTokens(options.now);
  }

  protected async deliver(
    request: DeliveryRequest,
    content: ChatContent,
    config: ProviderConfig,
    exchange: Exchange,
  ): Promise<DeliveryResult> {
    const settings = config.settings;
    const channelData = request.channelData;
    const connections = slackConnections(channelData)
      .filter(isRecord)
      .filter((c) => typeof c.ms_teams_channel_id === 'string' || typeof c.ms_teams_user_id === 'string');
    if (!connections.length) return missingConnections(exchange, request, 'Microsoft Teams channel or user connection');
    const signInTenant = stringSetting(settings, 'tenant_id') ?? 'botframework.com';
    const signIn = await this.tokens.get(exchange, settings, signInTenant, BOT_FRAMEWORK_SCOPE);
    if ('failure' in signIn) return exchange.failed(signIn.failure);
    const service = baseUrlOf(config.baseUrl ?? stringSetting(settings, 'service_url'), TEAMS_SERVICE_URL);
    const headers = { authorization: `Bearer ${signIn.token}` };
    const activity = teamsActivity(content);
    const defaultTenant =
      (channelData && typeof channelData.ms_teams_tenant_id === 'string' ? channelData.ms_teams_tenant_id : undefined) ??
      stringSetting(settings, 'tenant_id');
    const results = await Promise.all(
      connections.map(async (c): Promise<DeliveryTargetResult & { retryAfterMs?: number }> => {
        const tenant = (typeof c.ms_teams_tenant_id === 'string' ? c.ms_teams_tenant_id : undefined) ?? defaultTenant;
        const tenantData = tenant ? { tenant: { id: tenant } } : {};
        if (typeof c.ms_teams_channel_id === 'string') {
          const outcome = await exchange.http({
            method: 'POST',
            url: `${service}/v3/conversations`,
            headers,
            json: { isGroup: true, channelData: { channel: { id: c.ms_teams_channel_id }, ...tenantData }, activity },
          });
          return chatTarget(
            `channel:${c.ms_teams_channel_id}`,
            outcome,
            (b) => (isRecord(b) && typeof b.activityId === 'string' ? b.activityId : idOf(b)),
            describe,
          );
        }
        const user = c.ms_teams_user_id as string;
        const started = await exchange.http({
          method: 'POST',
          url: `${service}/v3/conversations`,
          headers,
          json: {
            bot: { id: `28:${stringSetting(settings, 'app_id')}` },
            members: [{ id: user }],
            channelData: tenantData,
            ...(tenant ? { tenantId: tenant } : {}),
          },
        });
        const conversation = isSuccess(started) ? idOf(started.body) : undefined;
        if (!conversation && isSuccess(started))
          return {
            target: `user:${user}`,
            outcome: 'failed',
            retryable: false,
            code: 'ms_teams_no_conversation',
            reason: 'the Bot Connector answered without a conversation id',
          };
        if (!conversation) return chatTarget(`user:${user}`, started, () => undefined, describe);
        const posted = await exchange.http({
          method: 'POST',
          url: `${service}/v3/conversations/${encodeURIComponent(conversation)}/activities`,
          headers,
          json: activity,
        });
        return chatTarget(`user:${user}`, posted, idOf, describe);
      }),
    );
    // A token the connector refused is forgotten: the retry signs in again.
    if (results.some((r) => r.code === 'http_401')) this.tokens.drop(settings, signInTenant, BOT_FRAMEWORK_SCOPE);
    return chatResult(
      exchange,
      results.map((r) => (r.code === 'http_401' ? { ...r, retryable: true } : r)),
    );
  }
}
