import { decodeEntities, rewriteHrefs } from './html-links';

/**
 * Link tracking for chat messages (ADR 0222). A chat message's links are written in its
 * provider's markup, so they are found there and only their URL is replaced; labels, mentions,
 * code and the message's structure stay as they were:
 *
 * - Slack mrkdwn `<url|label>` and `<url>` (also Discord's embed-free `<url>`);
 * - Markdown `[label](url)` (Microsoft Teams, Discord, Mattermost, Google Chat cards' text);
 *   Discord's is Markdown too, except that a bare URL becomes the tracked URL itself (Discord
 *   does not render a masked link labelled with a URL);
 *   images `![alt](url)` are not links and are left alone;
 * - a bare URL, when the provider's markup is known, becomes a link labelled with the URL itself
 *   (`<tracked|url>` in mrkdwn, `[url](tracked)` in Markdown), so the reader sees what the
 *   author wrote; with a markup not known (Telegram without a parse mode or in Markdown, whose
 *   labels would need escaping) bare URLs stay;
 * - HTML (Telegram's `parse_mode: HTML`): the `href` of `<a>` anchors, as email HTML's are
 *   rewritten, and a bare URL becomes `<a href="tracked">url</a>`; tags' attributes and the
 *   contents of `<pre>` and `<code>` stay;
 * - URLs inside code spans and code blocks are text, not links, and stay.
 *
 * In a provider payload (`json_body`: Slack Block Kit and attachments, Adaptive Cards, Discord
 * embeds and link buttons, Telegram inline keyboards), the text fields are rewritten as above and
 * the URL fields of links and buttons are replaced; image URLs are not links and stay.
 */

export type ChatMarkup = 'mrkdwn' | 'markdown' | 'discord' | 'html' | 'unknown';

/**
 * The markup a chat provider's text is written in; for Telegram, the `parse_mode` of the
 * channel's settings (or of the message's payload, which is sent over them).
 */
export function chatMarkupOf(provider: string, settings: Record<string, unknown> = {}): ChatMarkup {
  const id = provider.toLowerCase();
  if (id.includes('slack')) return 'mrkdwn';
  if (id.includes('discord')) return 'discord';
  if (['teams', 'mattermost', 'google'].some((name) => id.includes(name))) return 'markdown';
  if (id.includes('telegram') && settings.parse_mode === 'HTML') return 'html';
  return 'unknown';
}

type Link = (url: string) => string;

const ABSOLUTE = /^https?:\/\//i;

/**
 * One pass over the text, alternatives tried in this order at each position: a fenced code
 * block, an inline code span, a Markdown image, a Markdown link (a label with one level of
 * nested brackets, so `[![alt](img)](url)` works; a URL with one level of parentheses; an
 * optional title), a `<http…>` link, a bare URL. What a match covers is never looked at again,
 * so a tracked URL is not tracked twice.
 */
const CHAT_LINKS = new RegExp(
  [
    /(?<fence>```[\s\S]*?```)/.source,
    /(?<code>`[^`\n]+`)/.source,
    /(?<image>!\[(?:[^[\]]|\[[^[\]]*\])*\]\([^)]*\))/.source,
    /\[(?<label>(?:[^[\]]|\[[^[\]]*\])*)\]\((?<mdUrl>https?:\/\/(?:[^\s()]|\([^\s()]*\))+)(?<title>\s+"[^"]*")?\)/.source,
    /<(?<angleUrl>https?:\/\/[^|>\s]+)(?<angleLabel>\|[^>]*)?>/.source,
    /(?<bare>\bhttps?:\/\/[^\s<>"'()[\]{}|`]+)/.source,
  ].join('|'),
  'gi',
);
const TRAILING = /[.,;:!?*_~]+$/;

/**
 * Chat text in HTML, alternatives in this order at each position: a `<pre>` or `<code>` element
 * (left whole), an `<a>` element (its `href` tracked, its text left), any other tag (attributes
 * are not text), a bare URL.
 */
const HTML_CHAT_LINKS = new RegExp(
  [
    /(?<pre><pre\b[\s\S]*?<\/pre>)/.source,
    /(?<code><code\b[\s\S]*?<\/code>)/.source,
    /(?<anchor><a\b[^>]*>[\s\S]*?<\/a>)/.source,
    /(?<tag><[^>]*>)/.source,
    /(?<bare>\bhttps?:\/\/[^\s<>"'()[\]{}|`]+)/.source,
  ].join('|'),
  'gi',
);

function trackHtmlText(text: string, link: Link): string {
  return text.replace(HTML_CHAT_LINKS, (whole: string, ...args: unknown[]) => {
    const g = args.at(-1) as Record<string, string | undefined>;
    if (g.anchor) return rewriteHrefs(g.anchor, link);
    if (!g.bare) return whole;
    const tail = TRAILING.exec(g.bare)?.[0] ?? '';
    const url = g.bare.slice(0, g.bare.length - tail.length);
    if (!url.replace(/^https?:\/\//i, '')) return whole;
    return `<a href="${link(decodeEntities(url)).replace(/&/g, '&amp;')}">${url}</a>${tail}`;
  });
}

/** The text with its links tracked, written in the given markup. */
export function trackChatText(text: string, link: Link, markup: ChatMarkup): string {
  if (markup === 'html') return trackHtmlText(text, link);
  return text.replace(CHAT_LINKS, (whole: string, ...args: unknown[]) => {
    const g = args.at(-1) as Record<string, string | undefined>;
    if (g.fence || g.code || g.image) return whole;
    if (g.mdUrl) return `[${g.label}](${link(g.mdUrl)}${g.title ?? ''})`;
    if (g.angleUrl) return `<${link(decodeEntities(g.angleUrl))}${g.angleLabel ?? ''}>`;
    const bare = g.bare!;
    if (markup === 'unknown') return bare;
    // Discord shows a masked link whose label looks like a URL as its raw Markdown (an
    // anti-phishing rule), so a bare URL there is replaced by the tracked URL, as in an SMS.
    if (markup === 'discord') {
      const tail = TRAILING.exec(bare)?.[0] ?? '';
      const url = bare.slice(0, bare.length - tail.length);
      return url.replace(/^https?:\/\//i, '') ? `${link(decodeEntities(url))}${tail}` : bare;
    }
    const tail = TRAILING.exec(bare)?.[0] ?? '';
    const url = bare.slice(0, bare.length - tail.length);
    if (!url.replace(/^https?:\/\//i, '')) return bare;
    const tracked = link(decodeEntities(url));
    return `${markup === 'mrkdwn' ? `<${tracked}|${url}>` : `[${url}](${tracked})`}${tail}`;
  });
}

/** Keys whose string value is always a link's target (Slack and Mattermost attachments). */
const LINK_KEYS = new Set(['title_link', 'author_link']);
/** Keys whose string value is message text in the provider's markup. */
const TEXT_KEYS = new Set(['text', 'content', 'description', 'pretext', 'message']);
/** Element types whose `text` is literal (not markup) or a label: left as written. */
const LITERAL_TYPES = new Set(['plain_text', 'text', 'link', 'button', 'image', 'Image', 'emoji', 'user', 'channel', 'usergroup']);
/** Element types whose `url` is where a click goes. */
const LINK_TYPES = new Set(['button', 'link', 'Action.OpenUrl']);
/** Containers whose members' `url` is where a click goes: Discord embeds and their author, Slack overflow options, Telegram keyboards. */
const LINK_CONTAINERS = new Set(['embeds', 'author', 'options', 'inline_keyboard']);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function urlIsLink(element: Record<string, unknown>, container: string | undefined): boolean {
  if (typeof element.type === 'string' && LINK_TYPES.has(element.type)) return true;
  // A Discord link button: component type 2, style 5.
  if (element.type === 2 && element.style === 5) return true;
  return container !== undefined && LINK_CONTAINERS.has(container);
}

/** A provider payload with its links tracked (see the module comment); anything else is copied as it is. */
export function trackChatJson(value: unknown, link: Link, markup: ChatMarkup, container?: string): unknown {
  if (Array.isArray(value)) return value.map((item) => trackChatJson(item, link, markup, container));
  if (!isRecord(value)) return value;
  const literal = typeof value.type === 'string' && LITERAL_TYPES.has(value.type);
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => {
      if (typeof v !== 'string') return [key, trackChatJson(v, link, markup, key)];
      const isUrl = ABSOLUTE.test(v.trim());
      if (isUrl && (LINK_KEYS.has(key) || (key === 'url' && urlIsLink(value, container)) || (key === 'uri' && container === 'targets')))
        return [key, link(v.trim())];
      const text =
        (TEXT_KEYS.has(key) && !literal && container !== 'inline_keyboard') ||
        (key === 'value' && (container === 'fields' || container === 'facts'));
      return [key, text ? trackChatText(v, link, markup) : v];
    }),
  );
}

/**
 * The robots chat apps send to fetch a preview (unfurl) of a link posted in a message: they
 * follow a tracked link like a reader would, so their requests are redirected without recording
 * a click. Slack, Discord, Microsoft Teams (Skype's previewer), Telegram, Mattermost.
 */
const LINK_PREVIEWERS = /Slackbot|Discordbot|SkypeUriPreview|TelegramBot|Mattermost-Bot/i;

export const isLinkPreviewer = (userAgent: string | undefined): boolean => !!userAgent && LINK_PREVIEWERS.test(userAgent);
