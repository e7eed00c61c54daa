import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

// Raw HTML in markdown is escaped by markdown-it (`html: false`) and the result is sanitized again
// against an allowlist, so markdown from trigger data cannot smuggle scripts or handlers.
const markdown = new MarkdownIt({ html: false, linkify: true, breaks: false });

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'hr',
    'strong',
    'b',
    'em',
    'i',
    's',
    'del',
    'code',
    'pre',
    'blockquote',
    'ul',
    'ol',
    'li',
    'a',
    'img',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel'],
    img: ['src', 'alt', 'title'],
    ol: ['start'],
    th: ['style'],
    td: ['style'],
  },
  allowedStyles: { '*': { 'text-align': [/^(left|right|center)$/] } },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer' }) },
};

/**
 * Markdown to HTML that is safe to show in a browser (in-app feed blocks, `from_markdown`).
 * The same body is often rendered for many recipients (a broadcast, an object's subscribers):
 * the last few hundred short sources are remembered, in two generations (the function is pure).
 */
export function renderMarkdown(source: string): string {
  if (typeof source !== 'string' || source === '') return '';
  if (PLAIN_LINE.test(source)) return `<p>${source}</p>\n`;
  if (source.length > MEMO_MAX_SOURCE) return renderMarkdownFully(source);
  const known = memo.young.get(source) ?? memo.old.get(source);
  if (known !== undefined) return known;
  const html = renderMarkdownFully(source);
  if (memo.young.size >= MEMO_GENERATION) memo = { young: new Map(), old: memo.young };
  memo.young.set(source, html);
  return html;
}

/** Markdown through markdown-it and the sanitizer, with no shortcut (exported for the spec). */
export function renderMarkdownFully(source: string): string {
  return sanitizeHtml(markdown.render(source), SANITIZE);
}

/**
 * One line of plain words, which markdown-it and the sanitizer give back as one paragraph of the
 * same text: it starts with a letter (no list, heading or indented code), holds no character that
 * markdown, HTML or the sanitizer's escaping treats specially, no `.` inside a word (a linkified
 * domain) and no `:` before a `/` (`/` is not allowed at all), and ends with no space. A message
 * body rendered per recipient ("Hello {{ recipient.name }}, ...") is often such a line; the rest
 * takes the full path. The spec checks the two paths agree on generated lines.
 */
const PLAIN_LINE = /^[A-Za-z](?:[A-Za-z0-9,;:?!()+=% -]|\.(?= |$))*(?<! )$/;

const MEMO_GENERATION = 256;
const MEMO_MAX_SOURCE = 4096;
let memo = { young: new Map<string, string>(), old: new Map<string, string>() };

const BLOCK_END = /<\/(p|div|h[1-6]|li|tr|table|blockquote|pre|ul|ol)>/gi;

/** A plain-text rendering of an HTML email body, for the text part when none is written. */
export function htmlToText(html: string): string {
  const withBreaks = html.replace(/<br\s*\/?>/gi, '\n').replace(BLOCK_END, (m) => `${m}\n`);
  const text = sanitizeHtml(withBreaks, {
    allowedTags: [],
    allowedAttributes: {},
    nonTextTags: ['style', 'script', 'textarea', 'option', 'noscript', 'head', 'title'],
  });
  return decodeEntities(text)
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', '#39': "'", '#34': '"' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    const lower = name.toLowerCase();
    if (lower in NAMED) return NAMED[lower];
    if (!lower.startsWith('#')) return whole;
    const code = lower.startsWith('#x') ? parseInt(lower.slice(2), 16) : parseInt(lower.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}
