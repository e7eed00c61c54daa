import type { DeliveryLogEntry } from '../types';

export const REDACTED = '[REDACTED]';

/** Headers whose whole value is a credential (Basic auth is base64, so value search alone would miss it). */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'api-key', 'x-auth-token']);

/** Keys of settings, channel data and query strings whose values are secrets... */
const SECRET_KEY = /(pass(word)?|secret|token|api_?key|access_?key|private_?key|assertion|credential|signing_?key|^auth$)/i;
/** ...unless they name an identifier or an address (`private_key_id`, `api_key_sid`, `token_uri`). */
const NOT_SECRET_KEY = /(_id|_sid|_ur[il])$/i;
const isSecretKey = (key: string) => SECRET_KEY.test(key) && !NOT_SECRET_KEY.test(key);
/**
 * Keys of request and response bodies whose values are secrets. Narrower than SECRET_KEY: a
 * bare `token` in a body is a push device token, which the log keeps so a failure can be traced.
 */
const SECRET_FIELD =
  /(pass(word)?|secret|(access|auth|bot|refresh|id|bearer|session)_?token|api_?key|private_?key|assertion|credential|signing_?key)/i;

/** Shorter values are not collected: replacing "1" or "on" everywhere would garble the log. */
const MIN_SECRET_LENGTH = 6;

/**
 * Removes credentials from delivery logs in two ways: by name (auth headers; body, query and
 * setting keys that name a secret) and by value (every secret collected from the settings, the
 * channel data and the tokens minted during the exchange is replaced wherever it occurs, in
 * URLs, headers, bodies and error texts). The second catches what the first cannot know about,
 * e.g. a webhook URL or a custom header a customer put a key in. See ADR 0062.
 */
export class Redactor {
  private readonly secrets = new Set<string>();

  /** Collects the secret values of a settings object (nested objects and JSON strings included). */
  static forSettings(settings: Record<string, unknown>): Redactor {
    const redactor = new Redactor();
    redactor.collect(settings);
    return redactor;
  }

  add(...values: Array<string | null | undefined>): this {
    for (const value of values) if (typeof value === 'string' && value.length >= MIN_SECRET_LENGTH) this.secrets.add(value);
    return this;
  }

  /** Adds the values under secret-looking keys of any object, e.g. channel data connections. */
  collect(value: unknown, underSecretKey = false): this {
    if (typeof value === 'string') {
      // A JSON string (a service-account key file) carries its secrets inside.
      if (value.trimStart().startsWith('{')) this.collect(tryParseJson(value), underSecretKey);
      if (underSecretKey) {
        this.add(value);
        // PEM keys also appear re-wrapped or with escaped newlines; their base64 lines are secrets too.
        for (const line of value.split(/\\n|\n/)) if (!line.startsWith('-----') && line.length >= 16) this.add(line.trim());
      }
    } else if (Array.isArray(value)) {
      for (const item of value) this.collect(item, underSecretKey);
    } else if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) this.collect(item, underSecretKey || isSecretKey(key));
    }
    return this;
  }

  text(value: string): string {
    let out = value;
    // Longest first, so a secret that contains another is replaced whole.
    for (const secret of [...this.secrets].sort((a, b) => b.length - a.length)) out = out.split(secret).join(REDACTED);
    return out;
  }

  headers(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) out[name] = isSecretHeader(name) ? REDACTED : this.text(value);
    return out;
  }

  url(url: string): string {
    try {
      const parsed = new URL(url);
      if (parsed.password) parsed.password = REDACTED;
      for (const key of [...parsed.searchParams.keys()]) if (isSecretKey(key)) parsed.searchParams.set(key, REDACTED);
      return this.text(parsed.toString());
    } catch {
      return this.text(url);
    }
  }

  body(body: unknown): unknown {
    if (typeof body === 'string') return this.text(body);
    if (Array.isArray(body)) return body.map((item) => this.body(item));
    if (body && typeof body === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(body))
        out[key] = SECRET_FIELD.test(key.replace(/-/g, '_')) && value != null && typeof value !== 'object' ? REDACTED : this.body(value);
      return out;
    }
    return body;
  }

  entry(entry: DeliveryLogEntry): DeliveryLogEntry {
    return {
      request: {
        method: entry.request.method,
        url: this.url(entry.request.url),
        headers: this.headers(entry.request.headers),
        body: this.body(entry.request.body),
      },
      ...(entry.response
        ? {
            response: {
              status: entry.response.status,
              headers: this.headers(entry.response.headers),
              body: this.body(entry.response.body),
            },
          }
        : {}),
      ...(entry.error !== undefined ? { error: this.text(entry.error) } : {}),
      duration_ms: entry.duration_ms,
    };
  }
}

/** Known credential headers, and custom ones whose name says what they hold (`x-auth-token`, `x-api-key`). */
function isSecretHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return SECRET_HEADERS.has(lower) || isSecretKey(lower.replace(/-/g, '_'));
}

function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
