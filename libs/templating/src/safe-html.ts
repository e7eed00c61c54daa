import { Drop, toValue } from 'liquidjs';

/**
 * HTML the engine produced itself and vouches for (a layout's `content`, sanitized markdown).
 * HTML escaping lets it through; any other filter applied after it sees a plain string.
 */
export class SafeHtml extends Drop {
  constructor(readonly html: string) {
    super();
  }
  override valueOf(): string {
    return this.html;
  }
  override toString(): string {
    return this.html;
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** The same string form liquidjs writes for an output value. */
export function toOutputString(value: unknown): string {
  const v = toValue(value);
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(toOutputString).join('');
  return String(v);
}

/** liquidjs `outputEscape` for HTML bodies: escapes every output except `SafeHtml`. */
export function escapeOutput(value: unknown): string {
  if (value instanceof SafeHtml) return value.html;
  return escapeHtml(toOutputString(value));
}
