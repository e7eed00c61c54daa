import type { RenderedContentT } from '@notify/contracts';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { chatMarkupOf, trackChatJson, trackChatText } from './chat-link-tracking';
import { rewriteHrefs } from './html-links';

export { rewriteHrefs } from './html-links';

export interface TrackedLink {
  environment: string;
  messageId: string;
  url: string;
}

/**
 * Tracked links: `<PUBLIC_URL>/v1/links/<token>`, the token being the environment, message id and
 * target URL with an HMAC-SHA256 over them (a key derived from the secrets key), so nobody can
 * make the service record a click on someone's message or redirect to a URL of their choosing.
 */
export class LinkTracker {
  private readonly key: Buffer;

  /**
   * `defaultOn`: whether channels track links unless their settings say otherwise
   * (LINK_TRACKING_ENABLED); a channel's `link_tracking` and `open_tracking` decide for it.
   */
  constructor(
    secretsKey: Buffer,
    private readonly publicUrl: string,
    readonly defaultOn = true,
  ) {
    this.key = createHmac('sha256', secretsKey).update('notify/link-tracking/v1').digest();
  }

  /**
   * Whether a channel with these settings tracks link clicks (its `link_tracking`, else the
   * default). SMS and chat channels track only when their own setting says so: a tracked link is
   * longer and can make an SMS cost another segment, and chat messages were never rewritten
   * before chat tracking existed (ADR 0222), so the service-wide default does not apply to them.
   */
  tracksLinks(channelSettings: Record<string, unknown>, channelType?: string): boolean {
    if (channelType === 'sms' || channelType === 'chat') return channelSettings.link_tracking === true;
    return typeof channelSettings.link_tracking === 'boolean' ? channelSettings.link_tracking : this.defaultOn;
  }

  /**
   * The open-tracking pixel of a message: the same message, the same URL (a replay renders the
   * same email). Signed apart from links (`open.` prefix), so neither token passes for the other.
   */
  openPixelUrl(environment: string, messageId: string): string {
    const payload = Buffer.from(JSON.stringify([environment, messageId])).toString('base64url');
    return `${this.publicUrl.replace(/\/+$/, '')}/v1/opens/${payload}.${this.sign(`open.${payload}`)}.gif`;
  }

  /** The message an open pixel names, or undefined when it was not made here. */
  verifyOpen(token: string): { environment: string; messageId: string } | undefined {
    const [payload, signature, ext, ...rest] = token.split('.');
    if (!payload || !signature || ext !== 'gif' || rest.length) return undefined;
    const expected = Buffer.from(this.sign(`open.${payload}`));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    try {
      const [environment, messageId] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown[];
      if (typeof environment !== 'string' || typeof messageId !== 'string') return undefined;
      return { environment, messageId };
    } catch {
      return undefined;
    }
  }

  urlFor(link: TrackedLink): string {
    const payload = Buffer.from(JSON.stringify([link.environment, link.messageId, link.url])).toString('base64url');
    return `${this.publicUrl.replace(/\/+$/, '')}/v1/links/${payload}.${this.sign(payload)}`;
  }

  /** The link a token names, or undefined when it was not made here (or was altered). */
  verify(token: string): TrackedLink | undefined {
    const [payload, signature, ...rest] = token.split('.');
    if (!payload || !signature || rest.length) return undefined;
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    try {
      const [environment, messageId, url] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown[];
      if (typeof environment !== 'string' || typeof messageId !== 'string' || typeof url !== 'string') return undefined;
      return { environment, messageId, url };
    } catch {
      return undefined;
    }
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}

/** A URL in plain text, up to whitespace or a bracket; punctuation that ends a sentence is not part of it. */
const TEXT_URL = /\bhttps?:\/\/[^\s<>"'()[\]{}]+/gi;
const TRAILING = /[.,;:!?]+$/;

/** Rewrites the absolute http(s) URLs of a plain-text body. */
export function rewriteTextUrls(text: string, link: (url: string) => string): string {
  return text.replace(TEXT_URL, (found) => {
    const tail = TRAILING.exec(found)?.[0] ?? '';
    return `${link(found.slice(0, found.length - tail.length))}${tail}`;
  });
}

const ABSOLUTE = /^https?:\/\//i;
const trackUrl = (url: string | null | undefined, link: (url: string) => string) => (url && ABSOLUTE.test(url) ? link(url) : url);

/**
 * The content with its links tracked: email HTML anchors and the URLs of the text body; in-app
 * blocks' rendered HTML, button actions and `action_url` when they are absolute http(s) URLs; the
 * URLs of an SMS body; a chat message's links in its provider's markup (`provider` and
 * `settings`: the chat channel's, which tell the markup; see chat-link-tracking).
 */
export function trackContentLinks(
  content: RenderedContentT,
  link: (url: string) => string,
  options: { provider?: string; settings?: Record<string, unknown> } = {},
): RenderedContentT {
  if (content.channel_type === 'email')
    return {
      ...content,
      html_body: rewriteHrefs(content.html_body, link),
      text_body: content.text_body && rewriteTextUrls(content.text_body, link),
    };
  if (content.channel_type === 'sms') return { ...content, body: rewriteTextUrls(content.body, link) };
  if (content.channel_type === 'chat') {
    const markup = chatMarkupOf(options.provider ?? '', { ...options.settings, ...content.json });
    return {
      ...content,
      text: trackChatText(content.text, link, markup),
      // A notification's summary is shown as plain text except on Slack, where it is mrkdwn too.
      summary: content.summary && trackChatText(content.summary, link, markup === 'mrkdwn' ? markup : 'unknown'),
      json: content.json && (trackChatJson(content.json, link, markup) as Record<string, unknown>),
      ...(content.blocks ? { blocks: trackChatJson(content.blocks, link, markup) as unknown[] } : {}),
    };
  }
  if (content.channel_type === 'in_app_feed') {
    return {
      ...content,
      action_url: trackUrl(content.action_url, link),
      blocks: content.blocks.map((b) =>
        'rendered' in b
          ? { ...b, rendered: rewriteHrefs(b.rendered, link) }
          : { ...b, buttons: b.buttons.map((button) => ({ ...button, action: trackUrl(button.action, link)! })) },
      ),
    };
  }
  return content;
}

/** An email's HTML with an open-tracking pixel, before `</body>` when there is one. */
export function withOpenPixel(html: string, pixelUrl: string): string {
  const img = `<img src="${pixelUrl}" width="1" height="1" alt="" style="display:none" />`;
  const close = html.search(/<\/body\s*>/i);
  return close >= 0 ? `${html.slice(0, close)}${img}${html.slice(close)}` : `${html}${img}`;
}
