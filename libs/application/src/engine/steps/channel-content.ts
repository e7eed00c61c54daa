import { REDACTED, type ChannelDataTraceT, type RenderedContentT } from '@notify/contracts';
import { createHash } from 'node:crypto';
import {
  renderMarkdown,
  TemplateContext,
  TemplateRenderer,
  TemplateResources,
  VisualBlock,
  visualBlocksToLiquid,
} from '@notify/templating';

export type Destination = Record<string, unknown>;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/**
 * Where a message goes, taken from the recipient and its channel data; a reason instead when the
 * recipient cannot be reached on this channel. `settings` are the channel's settings with the
 * step's overrides: an email `to_address` or an SMS `to_number` stands in for the recipient's own.
 */
export function destinationFor(
  channelType: string,
  provider: string,
  recipient: Record<string, unknown>,
  channelData: Record<string, unknown> | undefined,
  settings: { to_address?: unknown; to_number?: unknown } = {},
): { destination: Destination } | { missing: string } {
  switch (channelType) {
    case 'in_app_feed':
    case 'in_app':
      return { destination: {} };
    case 'email':
      if (nonEmpty(settings.to_address)) return { destination: {} };
      return nonEmpty(recipient.email) ? { destination: { email: recipient.email } } : { missing: 'recipient_missing_email' };
    case 'sms':
      if (nonEmpty(settings.to_number)) return { destination: {} };
      return nonEmpty(recipient.phone_number)
        ? { destination: { phone_number: recipient.phone_number } }
        : { missing: 'recipient_missing_phone_number' };
    case 'push': {
      // OneSignal addresses subscriptions by player id (its channel data shape), the others devices by token.
      if (provider === 'onesignal' && Array.isArray(channelData?.player_ids) && channelData.player_ids.some(nonEmpty))
        return { destination: { player_ids: channelData.player_ids.filter(nonEmpty) } };
      const tokens = [
        ...((channelData?.tokens as unknown[] | undefined) ?? []).filter(nonEmpty),
        ...((channelData?.devices as unknown[] | undefined) ?? []).map((d) => (isRecord(d) ? d.token : undefined)).filter(nonEmpty),
      ];
      return tokens.length ? { destination: { tokens: [...new Set(tokens)] } } : { missing: 'recipient_missing_push_tokens' };
    }
    case 'chat': {
      const connections = ((channelData?.connections as unknown[] | undefined) ?? [])
        .filter(isRecord)
        .filter((c) => reachableBy(provider, c));
      return connections.length
        ? { destination: { connections: connections.map(withoutCredentials) } }
        : { missing: 'recipient_missing_chat_connections' };
    }
    case 'http':
      return { destination: {} };
    default:
      return { missing: `unsupported_channel_type:${channelType}` };
  }
}

/** A reference to a token or connection id for the record: `sha256:` and 12 hex digits, not the value (ADR 0239). */
export const channelDataRef = (value: string): string => `sha256:${createHash('sha256').update(value).digest('hex').slice(0, 12)}`;

/** Which field of a connection names where a chat message goes. */
const CONNECTION_IDS = ['channel_id', 'user_id', 'ms_teams_channel_id', 'ms_teams_user_id', 'ms_teams_team_id'] as const;

/**
 * What a channel step looked for to reach the recipient and what it found (ADR 0239): the kind of
 * destination, present or missing, where it came from, and which entries it used, as references
 * (tokens, player ids, connections: `channelDataRef` of each; an address is never copied).
 */
export function channelDataTrace(
  channelId: string,
  channelType: string,
  provider: string,
  recipient: Record<string, unknown>,
  channelData: Record<string, unknown> | undefined,
  settings: { to_address?: unknown; to_number?: unknown } = {},
): ChannelDataTraceT {
  const found = destinationFor(channelType, provider, recipient, channelData, settings);
  const destination = 'destination' in found ? found.destination : undefined;
  const base = { channel_id: channelId, present: destination !== undefined };
  switch (channelType) {
    case 'email':
    case 'sms': {
      const override = channelType === 'email' ? nonEmpty(settings.to_address) : nonEmpty(settings.to_number);
      const kind = channelType === 'email' ? ('email' as const) : ('phone_number' as const);
      const source = override ? ('override' as const) : destination ? ('recipient' as const) : ('none' as const);
      return { ...base, kind, source, count: destination ? 1 : 0, refs: [] };
    }
    case 'push': {
      const ids = (destination?.player_ids ?? destination?.tokens ?? []) as string[];
      const kind = destination?.player_ids ? ('player_ids' as const) : ('tokens' as const);
      return { ...base, kind, source: destination ? 'channel_data' : 'none', count: ids.length, refs: ids.map(channelDataRef) };
    }
    case 'chat': {
      const connections = ((channelData?.connections as unknown[] | undefined) ?? [])
        .filter(isRecord)
        .filter((c) => reachableBy(provider, c));
      const refs = connections.map((c) => {
        if (isRecord(c.incoming_webhook) && nonEmpty(c.incoming_webhook.url))
          return `incoming_webhook:${channelDataRef(String(c.incoming_webhook.url))}`;
        const field = CONNECTION_IDS.find((f) => nonEmpty(c[f]));
        return field ? `${field}:${channelDataRef(String(c[field]))}` : `connection:${channelDataRef(JSON.stringify(c))}`;
      });
      return { ...base, kind: 'connections', source: destination ? 'channel_data' : 'none', count: refs.length, refs };
    }
    default:
      return { ...base, kind: 'none', source: 'none', count: 0, refs: [] };
  }
}

/**
 * A connection the provider can post to: an incoming webhook for `slack-webhook` and
 * `ms-teams-webhook`, a channel or user for `slack` and `ms-teams`.
 */
function reachableBy(provider: string, connection: Record<string, unknown>): boolean {
  const webhook = isRecord(connection.incoming_webhook) && nonEmpty(connection.incoming_webhook.url);
  if (provider === 'slack-webhook' || provider === 'ms-teams-webhook') return webhook;
  if (provider === 'ms-teams') return !webhook && (nonEmpty(connection.ms_teams_channel_id) || nonEmpty(connection.ms_teams_user_id));
  if (provider === 'slack') return !webhook && (nonEmpty(connection.channel_id) || nonEmpty(connection.user_id));
  return true;
}

/**
 * A connection as the message records it: no access token, and an incoming webhook URL without
 * its last path segment (Slack's secret). Delivery reads the channel data itself.
 */
function withoutCredentials(connection: Record<string, unknown>): Record<string, unknown> {
  const { access_token: _token, incoming_webhook: webhook, ...rest } = connection;
  if (!isRecord(webhook)) return { ...rest, ...('access_token' in connection ? { access_token: null } : {}) };
  let url = REDACTED;
  try {
    const parsed = new URL(String(webhook.url));
    url = `${parsed.origin}${parsed.pathname.replace(/\/[^/]*$/, '')}/${REDACTED}`;
  } catch {
    // not a URL: nothing of it is shown
  }
  return { ...rest, incoming_webhook: { url } };
}

/** `Name <address>`, quoting a name that needs it. */
function mailbox(name: string, address: string): string {
  if (!name) return address;
  return /[",;:<>@()[\]\\]/.test(name) ? `"${name.replace(/(["\\])/g, '\\$1')}" <${address}>` : `${name} <${address}>`;
}

type Rendered = { ok: true; content: RenderedContentT } | { ok: false; reason: string };

/**
 * Renders a channel step's template into the message content for its channel type.
 * `channel.settings` are the channel's settings in this environment with the step's
 * `channel_overrides` over them; their Liquid (email addresses) is rendered too.
 * `channel.defaultFrom` is the provider's `from` setting, for an email channel without a `from_address`.
 */
export async function renderChannelContent(
  engine: TemplateRenderer,
  channel: { type: string; settings: Record<string, unknown>; defaultFrom?: string | null },
  template: Record<string, unknown>,
  destination: Destination,
  context: TemplateContext,
  resources: TemplateResources,
): Promise<Rendered> {
  const fail = (field: string, message: string): { ok: false; reason: string } => ({
    ok: false,
    reason: `template_render_error: ${field}: ${message}`,
  });
  const liquid = async (
    field: string,
    source: unknown,
    escape: 'html' | 'none' = 'none',
  ): Promise<{ ok: true; value: string } | { ok: false; reason: string }> => {
    if (source === undefined || source === null) return { ok: true, value: '' };
    const result = await engine.render(String(source), context, resources, { escape });
    return result.ok ? { ok: true, value: result.output } : fail(field, result.error.message);
  };
  const text = (field: string, escape: 'html' | 'none' = 'none') => liquid(field, template[field], escape);
  /** A JSON template (push payload_overrides, chat json_body): rendered, then parsed to an object. */
  const jsonObject = async (
    field: string,
    source: unknown,
  ): Promise<{ ok: true; value: Record<string, unknown> | null } | { ok: false; reason: string }> => {
    const rendered = await liquid(field, source);
    if (!rendered.ok) return rendered;
    if (!rendered.value.trim()) return { ok: true, value: null };
    try {
      const parsed: unknown = JSON.parse(rendered.value);
      return isRecord(parsed) ? { ok: true, value: parsed } : fail(field, 'must render to a JSON object');
    } catch (error) {
      return fail(field, `is not valid JSON after rendering: ${(error as Error).message}`);
    }
  };
  const templateSettings = (isRecord(template.settings) ? template.settings : {}) as Record<string, unknown>;

  switch (channel.type) {
    case 'in_app':
    case 'in_app_feed': {
      const body = await text('markdown_body');
      if (!body.ok) return body;
      const actionUrl = await text('action_url');
      if (!actionUrl.ok) return actionUrl;
      const blocks: Extract<RenderedContentT, { channel_type: 'in_app_feed' }>['blocks'] = [
        { type: 'markdown', name: 'body', content: body.value, rendered: renderMarkdown(body.value) },
      ];
      const buttons = (template.action_buttons as { label: string; action: string }[] | undefined) ?? [];
      if (buttons.length) {
        const rendered = [];
        for (const [i, b] of buttons.entries()) {
          const action = await engine.render(b.action, context, resources);
          if (!action.ok) return fail(`action_buttons.${i}`, action.error.message);
          rendered.push({ name: i === 0 ? 'primary' : 'secondary', label: b.label, action: action.output });
        }
        blocks.push({ type: 'button_set', name: 'actions', buttons: rendered });
      }
      return { ok: true, content: { channel_type: 'in_app_feed', blocks, action_url: actionUrl.value || null } };
    }
    case 'email': {
      const email = await engine.renderEmail(
        {
          layoutKey: templateSettings.layout_key as string | null | undefined,
          subject: String(template.subject ?? ''),
          // Visual blocks (the reference's block editor) become one Liquid HTML source; else html_body.
          html: Array.isArray(template.visual_blocks)
            ? visualBlocksToLiquid(template.visual_blocks as VisualBlock[])
            : String(template.html_body ?? ''),
          text: (template.text_body as string | null) ?? null,
          precontent: templateSettings.pre_content as string | null | undefined,
        },
        context,
        resources,
      );
      if (!email.ok) return fail(email.error.field ?? 'email', email.error.message);
      // Addresses in the channel settings may use Liquid (a tenant's sender, a per-recipient reply-to).
      const addresses: Record<string, string> = {};
      for (const name of ['from_address', 'from_name', 'reply_to_address', 'cc_address', 'bcc_address', 'to_address']) {
        const value = await liquid(`channel_settings.${name}`, channel.settings[name]);
        if (!value.ok) return value;
        addresses[name] = value.value.trim();
      }
      const from = addresses.from_address ? mailbox(addresses.from_name, addresses.from_address) : (channel.defaultFrom ?? null);
      return {
        ok: true,
        content: {
          channel_type: 'email',
          from,
          to: addresses.to_address || String(destination.email),
          cc: addresses.cc_address || null,
          bcc: addresses.bcc_address || null,
          reply_to: addresses.reply_to_address || null,
          subject: email.subject,
          html_body: email.html,
          text_body: email.text,
        },
      };
    }
    case 'sms': {
      const body = await text('text_body');
      if (!body.ok) return body;
      const to = await liquid('settings.to_number', templateSettings.to_number ?? channel.settings.to_number);
      if (!to.ok) return to;
      return { ok: true, content: { channel_type: 'sms', to: to.value.trim() || String(destination.phone_number), body: body.value } };
    }
    case 'push': {
      const silent = templateSettings.delivery_type === 'silent';
      const title = await text('title');
      if (!title.ok) return title;
      const body = await text('text_body');
      if (!body.ok) return body;
      const data = await jsonObject('settings.payload_overrides', templateSettings.payload_overrides);
      if (!data.ok) return data;
      return {
        ok: true,
        content: {
          channel_type: 'push',
          tokens: destination.tokens as string[],
          title: title.value,
          body: body.value,
          data: data.value,
          ...(silent ? { silent: true } : {}),
        },
      };
    }
    case 'chat': {
      const body = await text('markdown_body');
      if (!body.ok) return body;
      const summary = await text('summary');
      if (!summary.ok) return summary;
      const json = await jsonObject('json_body', template.json_body);
      if (!json.ok) return json;
      return {
        ok: true,
        content: {
          channel_type: 'chat',
          connections: destination.connections as Record<string, unknown>[],
          text: body.value,
          summary: summary.value || null,
          json: json.value,
        },
      };
    }
    case 'http': {
      const url = await text('url');
      if (!url.ok) return url;
      const body = await text('body');
      if (!body.ok) return body;
      const headers: Record<string, string> = {};
      for (const h of (template.headers as { key: string; value: string }[] | undefined) ?? []) {
        const v = await liquid(`headers.${h.key}`, h.value);
        if (!v.ok) return v;
        headers[h.key] = v.value;
      }
      const query: Record<string, string> = {};
      for (const q of (template.query_params as { key: string; value: string }[] | undefined) ?? []) {
        const v = await liquid(`query_params.${q.key}`, q.value);
        if (!v.ok) return v;
        query[q.key] = v.value;
      }
      return {
        ok: true,
        content: {
          channel_type: 'http',
          url: url.value,
          method: String(template.method ?? 'post').toUpperCase(),
          headers,
          query,
          body: body.value || null,
        },
      };
    }
    default:
      return { ok: false, reason: `unsupported_channel_type:${channel.type}` };
  }
}
