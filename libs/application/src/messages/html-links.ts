const HREF = /(<a\b[^>]*?\bhref\s*=\s*)(["'])(https?:\/\/[^"']+)\2/gi;

/**
 * Rewrites absolute http(s) links of HTML anchors; everything else (mailto:, relative, text)
 * stays. Email HTML, in-app blocks and chat messages in HTML (Telegram's `parse_mode: HTML`).
 */
export function rewriteHrefs(html: string, link: (url: string) => string): string {
  return html.replace(
    HREF,
    (_m, head: string, quote: string, url: string) => `${head}${quote}${link(decodeEntities(url)).replace(/&/g, '&amp;')}${quote}`,
  );
}

export const decodeEntities = (url: string) => url.replace(/&amp;/g, '&');
