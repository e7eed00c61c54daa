/**
 * A small gettext PO reader and writer for translations: msgctxt, msgid, msgstr and
 * continuation lines. Plural forms are not used by translations and are refused.
 * A message with a context is keyed `context.msgid`, matching the dotted keys of JSON translations.
 */

export interface PoParseResult {
  messages: Record<string, string>;
  errors: { line: number; message: string }[];
}

function unquote(literal: string): string | undefined {
  if (!/^"(?:[^"\\]|\\.)*"$/.test(literal)) return undefined;
  return literal.slice(1, -1).replace(/\\(.)/g, (_, c: string) => ({ n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\' })[c] ?? c);
}

export function parsePo(source: string): PoParseResult {
  const messages: Record<string, string> = {};
  const errors: PoParseResult['errors'] = [];
  let current: { ctxt?: string; id?: string; str?: string } = {};
  let field: 'ctxt' | 'id' | 'str' | undefined;
  const flush = () => {
    if (current.id !== undefined && current.id !== '') {
      if (current.str === undefined) errors.push({ line: 0, message: `msgid "${current.id}" has no msgstr` });
      else messages[current.ctxt ? `${current.ctxt}.${current.id}` : current.id] = current.str;
    }
    current = {};
    field = undefined;
  };
  source.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    const lineNo = index + 1;
    if (line === '' || line.startsWith('#')) {
      if (line === '' && current.str !== undefined) flush();
      return;
    }
    const match = /^(msgctxt|msgid|msgstr|msgid_plural|msgstr\[\d+\])\s+(.*)$/.exec(line);
    if (match) {
      const [, keyword, rest] = match;
      if (keyword === 'msgid_plural' || keyword.startsWith('msgstr[')) {
        errors.push({ line: lineNo, message: 'plural forms are not supported' });
        return;
      }
      const value = unquote(rest);
      if (value === undefined) {
        errors.push({ line: lineNo, message: 'expected a double-quoted string' });
        return;
      }
      if ((keyword === 'msgctxt' || keyword === 'msgid') && current.str !== undefined) flush();
      field = keyword === 'msgctxt' ? 'ctxt' : keyword === 'msgid' ? 'id' : 'str';
      if (field === 'str' && current.id === undefined) errors.push({ line: lineNo, message: 'msgstr without a msgid' });
      current[field] = value;
      return;
    }
    if (line.startsWith('"')) {
      const value = unquote(line);
      if (value === undefined || !field) {
        errors.push({
          line: lineNo,
          message: value === undefined ? 'expected a double-quoted string' : 'continuation line outside a message',
        });
        return;
      }
      current[field] = (current[field] ?? '') + value;
      return;
    }
    errors.push({ line: lineNo, message: `unexpected "${line.slice(0, 40)}"` });
  });
  flush();
  return { messages, errors };
}

const quote = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t')}"`;

export function writePo(messages: Record<string, string>): string {
  return Object.entries(messages)
    .map(([id, str]) => `msgid ${quote(id)}\nmsgstr ${quote(str)}\n`)
    .join('\n');
}

/** Nested JSON translations flattened to dotted keys, the form the PO format and the `t` filter use. */
export function flattenMessages(value: unknown, prefix = '', out: Record<string, string> = {}): Record<string, string> {
  if (typeof value === 'string') out[prefix] = value;
  else if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flattenMessages(v, prefix ? `${prefix}.${k}` : k, out);
  }
  return out;
}
