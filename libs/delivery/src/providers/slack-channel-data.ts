import { isRecord } from '../support/settings';

export interface SlackTokenConnection {
  access_token?: string | null;
  channel_id?: string | null;
  user_id?: string | null;
}

/** Chat channel data as Knock stores it: `{connections: [...], token?: {access_token}}`. */
export function slackConnections(channelData: Record<string, unknown> | null | undefined): unknown[] {
  return channelData && Array.isArray(channelData.connections) ? channelData.connections : [];
}

/** Connections that address a channel or a user through the Web API. */
export function tokenConnections(channelData: Record<string, unknown> | null | undefined): SlackTokenConnection[] {
  return slackConnections(channelData).filter(
    (c): c is SlackTokenConnection =>
      isRecord(c) && !('incoming_webhook' in c) && (typeof c.channel_id === 'string' || typeof c.user_id === 'string'),
  );
}

/** Incoming-webhook URLs. */
export function webhookUrls(channelData: Record<string, unknown> | null | undefined): string[] {
  return slackConnections(channelData)
    .map((c) => (isRecord(c) && isRecord(c.incoming_webhook) ? c.incoming_webhook.url : undefined))
    .filter((url): url is string => typeof url === 'string' && url.trim() !== '');
}

/** The channel-level token of chat channel data (`token.access_token`), if any. */
export function channelDataToken(channelData: Record<string, unknown> | null | undefined): string | undefined {
  const token = channelData && isRecord(channelData.token) ? channelData.token.access_token : undefined;
  return typeof token === 'string' && token ? token : undefined;
}

/** Slack message payload: the template's JSON (blocks, ...) or its markdown as `text`. */
export function slackPayload(content: {
  markdown_body?: string | null;
  summary?: string | null;
  json_body?: Record<string, unknown> | null;
}): Record<string, unknown> {
  if (content.json_body)
    return { ...(content.summary && content.json_body.text === undefined ? { text: content.summary } : {}), ...content.json_body };
  return { text: content.markdown_body ?? content.summary ?? '', mrkdwn: true };
}
