import fc from 'fast-check';
import { htmlToText, renderMarkdown, renderMarkdownFully } from './markdown';

describe('renderMarkdown', () => {
  it('renders common markdown', () => {
    expect(renderMarkdown('Hello **Jane**, see [the docs](https://docs.example/a?b=1&c=2).')).toBe(
      '<p>Hello <strong>Jane</strong>, see <a href="https://docs.example/a?b=1&amp;c=2" rel="noopener noreferrer">the docs</a>.</p>\n',
    );
    expect(renderMarkdown('- one\n- two\n\n`code`')).toBe('<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n<p><code>code</code></p>\n');
    expect(renderMarkdown('![logo](https://cdn.example/logo.png)')).toBe('<p><img src="https://cdn.example/logo.png" alt="logo" /></p>\n');
  });

  it('renders a source the same way again, among more sources than it remembers, and long ones too', () => {
    const sources = Array.from({ length: 700 }, (_, i) => `Hello **user ${i}**`);
    const first = sources.map(renderMarkdown);
    expect(first[5]).toBe('<p>Hello <strong>user 5</strong></p>\n');
    expect(sources.map(renderMarkdown)).toEqual(first);
    expect([...sources].reverse().map(renderMarkdown)).toEqual([...first].reverse());
    const long = `**${'x'.repeat(5000)}**`;
    expect(renderMarkdown(long)).toBe(`<p><strong>${'x'.repeat(5000)}</strong></p>\n`);
    expect(renderMarkdown(long)).toBe(renderMarkdown(long));
  });

  // Markup in the output that could run code: script-like elements, handler attributes, script URLs.
  const TAG = /<([a-z][a-z0-9]*)\b([^>]*)>/gi;
  const ATTRIBUTE = /([^\s"'=/]+)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/g;
  function dangers(html: string): string[] {
    const found: string[] = [];
    for (const [, name, attributes] of html.matchAll(TAG)) {
      if (/^(script|style|iframe|object|embed|svg|math|form|input)$/i.test(name)) found.push(`<${name}>`);
      for (const [, attribute, quoted] of attributes.matchAll(ATTRIBUTE)) {
        const value = quoted.replace(/^["']|["']$/g, '').trim();
        if (/^on/i.test(attribute)) found.push(`handler on <${name}>`);
        if (/^(href|src)$/i.test(attribute) && /^(javascript|vbscript|data):/i.test(value)) found.push(`script url on <${name}>`);
      }
    }
    return found;
  }

  it('sees dangers where there are some (the check itself can fail)', () => {
    expect(dangers('<p onclick="x()"><script></script><a href="javascript:x()">')).toEqual([
      'handler on <p>',
      '<script>',
      'script url on <a>',
    ]);
  });

  it.each([
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '[x](javascript:alert(1))',
    '[x](JaVaScRiPt:alert(1))',
    '[x](data:text/html;base64,PHNjcmlwdD4=)',
    '![x](javascript:alert(1))',
    '<a href="https://x" onclick="steal()">x</a>',
    '<iframe src="https://evil.example"></iframe>',
    '[x](https://ok.example "title\\" onmouseover=\\"alert(1)")',
  ])('neutralizes %s', (source) => {
    expect(dangers(renderMarkdown(source))).toEqual([]);
  });

  it('renders a plain line as the full path does: generated lines of words and of markdown-ish characters', () => {
    // Words, punctuation the shortcut takes, and characters that must send a line the full way
    // (markdown, HTML, entities, links, a dot inside a word, leading and trailing spaces).
    const pieces = fc.constantFrom(
      ...['Hello', 'f9999', 'Jane', 'x', '42', ' ', '  ', ',', ':', ';', '?', '!', '(', ')', '+', '=', '%', '-', '.', '. '],
      ...['*', '_', '`', '~', '#', '<', '>', '&', '"', "'", '[', ']', '\\', '/', '@', '|', '1.', '1)', 'www.example.com', 'example.com'],
      ...['http://a.example', 'mailto:a@b.example', '&amp;', '\t', 'é', '\n'],
      ...['*x*', '**x**', '_x_', '`x`', '~~x~~', '[x](y)', '<b>', 'x:y', 'a.b', 'a@b.example'],
    );
    const lines = fc.array(pieces, { minLength: 1, maxLength: 12 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(lines, (line) => renderMarkdown(line) === renderMarkdownFully(line)),
      { numRuns: 3000 },
    );
    // The shortcut is taken (a per-recipient body), and refused where it would differ.
    const plain = 'Hello f9999: 0 (1), you have 3 new messages. See you!';
    expect(renderMarkdown(plain)).toBe(`<p>${plain}</p>\n`);
    expect(renderMarkdown('See http://a.example now')).toContain('<a href="http://a.example" rel="noopener noreferrer">');
    expect(renderMarkdown('Hello **Jane**')).toBe('<p>Hello <strong>Jane</strong></p>\n');
    expect(renderMarkdown('Hello ')).toBe('<p>Hello</p>\n');
  });

  it('renders nothing for empty or non-string input', () => {
    expect(renderMarkdown('')).toBe('');
    expect(renderMarkdown(undefined as unknown as string)).toBe('');
  });
});

describe('htmlToText', () => {
  it('keeps the text and the line structure', () => {
    expect(
      htmlToText('<h1>Hi</h1><p>a &amp; b&nbsp;c<br/>next &#8364; &#x1F600;</p><script>x()</script><ul><li>1</li><li>2</li></ul>'),
    ).toBe('Hi\na & b c\nnext € 😀\n1\n2');
  });

  it('does not fail on unknown or invalid entities', () => {
    expect(htmlToText('<p>&bogus; &#99999999; &#0;</p>')).toBe('&bogus; \ufffd \ufffd');
  });
});
