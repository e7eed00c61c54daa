import type { RenderedContentT } from '@notify/contracts';
import { renderMarkdown, TemplateContext, TemplateEngine, TemplateResources } from '@notify/templating';

export type Destination = Record<string, unknown>;

/**
 * Where a message goes, taken from the recipient and its channel data; null with a reason when
 * the recipient cannot be reached on this channel.
 */
export function destinationFor(channelType: string, provider: string, recipient: Record<string, unknown>, channelData: Record<string, unknown> | undefined): { destination: Destination } | { missing: string } {
  switch (channelType) {
    case 'in_app_feed':
    case 'in_app':
      return { destination: {} };
    case 'email':
      return typeof recipient.email === 'string' && recipient.email ? { destination: { email: recipient.email } } : { missing: 'recipient_missing_email' };
    case 'sms':
      return typeof recipient.phone_number === 'string' && recipient.phone_number ? { destination: { phone_number: recipient.phone_number } } : { missing: 'recipient_missing_phone_number' };
    case 'push': {
      const tokens = [
        ...((channelData?.tokens as string[] | undefined) ?? []),
        ...(((channelData?.devices as { token?: string }[] | undefined) ?? []).map((d) => d.token).filter((t): t is string => typeof t === 'string')),
      ];
      return tokens.length ? { destination: { tokens: [...new Set(tokens)] } } : { missing: 'recipient_missing_push_tokens' };
    }
    case 'chat': {
      const connections = (channelData?.connections as Record<string, unknown>[] | undefined) ?? [];
      if (connections.length) return { destination: { connections } };
      return provider === 'slack' && typeof channelData?.token === 'object' ? { destination: { connections: [] } } : { missing: 'recipient_missing_chat_connections' };
    }
    case 'http':
      return { destination: {} };
    default:
      return { missing: `unsupported_channel_type:${channelType}` };
  }
}

type Rendered = { ok: true; content: RenderedContentT } | { ok: false; reason: string };

/** Renders a channel step's template into the message content for its channel type. */
export async function renderChannelContent(
  engine: TemplateEngine,
  channel: { type: string; settings: Record<string, unknown> },
  template: Record<string, unknown>,
  destination: Destination,
  context: TemplateContext,
  resources: TemplateResources,
): Promise<Rendered> {
  const fail = (field: string, message: string): { ok: false; reason: string } => ({ ok: false, reason: `template_render_error: ${field}: ${message}` });
  const text = async (field: string, escape: 'html' | 'none' = 'none'): Promise<{ ok: true; value: string } | { ok: false; reason: string }> => {
    const source = template[field];
    if (source === undefined || source === null) return { ok: true, value: '' };
    const result = await engine.render(String(source), context, resources, { escape });
    return result.ok ? { ok: true, value: result.output } : fail(field, result.error.message);
  };
  switch (channel.type) {
    case 'in_app':
    case 'in_app_feed': {
      const body = await text('markdown_body');
      if (!body.ok) return body;
      const actionUrl = await text('action_url');
      if (!actionUrl.ok) return actionUrl;
      const blocks: Extract<RenderedContentT, { channel_type: 'in_app_feed' }>['blocks'] = [{ type: 'markdown', name: 'body', content: body.value, rendered: renderMarkdown(body.value) }];
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
      const settings = (template.settings ?? {}) as { layout_key?: string | null; pre_content?: string | null };
      const email = await engine.renderEmail(
        { layoutKey: settings.layout_key, subject: String(template.subject ?? ''), html: String(template.html_body ?? ''), text: (template.text_body as string | null) ?? null, precontent: settings.pre_content },
        context,
        resources,
      );
      if (!email.ok) return fail(email.error.field ?? 'email', email.error.message);
      const from = channel.settings.from_address ? (channel.settings.from_name ? `${channel.settings.from_name} <${channel.settings.from_address}>` : String(channel.settings.from_address)) : null;
      return {
        ok: true,
        content: { channel_type: 'email', from, to: String(destination.email), reply_to: (channel.settings.reply_to_address as string | undefined) ?? null, subject: email.subject, html_body: email.html, text_body: email.text },
      };
    }
    case 'sms': {
      const body = await text('text_body');
      return body.ok ? { ok: true, content: { channel_type: 'sms', to: String(destination.phone_number), body: body.value } } : body;
    }
    case 'push': {
      const title = await text('title');
      if (!title.ok) return title;
      const body = await text('text_body');
      if (!body.ok) return body;
      return { ok: true, content: { channel_type: 'push', tokens: destination.tokens as string[], title: title.value, body: body.value, data: null } };
    }
    case 'chat': {
      const body = await text('markdown_body');
      if (!body.ok) return body;
      const json = await text('json_body');
      if (!json.ok) return json;
      let parsed: Record<string, unknown> | null = null;
      if (json.value.trim()) {
        try {
          parsed = JSON.parse(json.value) as Record<string, unknown>;
        } catch (error) {
          return fail('json_body', `is not valid JSON after rendering: ${(error as Error).message}`);
        }
      }
      return { ok: true, content: { channel_type: 'chat', connections: destination.connections as Record<string, unknown>[], text: body.value, json: parsed } };
    }
    case 'http': {
      const url = await text('url');
      if (!url.ok) return url;
      const body = await text('body');
      if (!body.ok) return body;
      const headers: Record<string, string> = {};
      for (const h of (template.headers as { key: string; value: string }[] | undefined) ?? []) {
        const v = await engine.render(h.value, context, resources);
        if (!v.ok) return fail(`headers.${h.key}`, v.error.message);
        headers[h.key] = v.output;
      }
      const query: Record<string, string> = {};
      for (const q of (template.query_params as { key: string; value: string }[] | undefined) ?? []) {
        const v = await engine.render(q.value, context, resources);
        if (!v.ok) return fail(`query_params.${q.key}`, v.error.message);
        query[q.key] = v.output;
      }
      return { ok: true, content: { channel_type: 'http', url: url.value, method: String(template.method ?? 'post').toUpperCase(), headers, query, body: body.value || null } };
    }
    default:
      return { ok: false, reason: `unsupported_channel_type:${channel.type}` };
  }
}
