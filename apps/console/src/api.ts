/**
 * The console's HTTP client. An operator signs in either with a management service token (kept
 * in session storage, gone when the tab closes; public API routes take the secret key that
 * POST /v1/api_keys/exchange answers for it, ADR 0173), or as a member with a one-time login
 * link, which sets an httpOnly session cookie the browser sends by itself (ADR 0210): then
 * writes carry `x-notify-console` and public API routes name the environment in
 * `x-notify-environment`, and the server enforces the member's role.
 */

export interface FieldError {
  field: string | null;
  message: string;
  type?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors: FieldError[] = [],
  ) {
    super(message);
  }
}

export type ConsoleRole = 'admin' | 'editor' | 'viewer';

/** GET/POST /v1/console/session */
export interface MemberSession {
  member: { id: string; email: string; name: string | null; role: string };
  console_role: ConsoleRole;
  expires_at: string;
}

/** A service token (`token`), or a member's cookie session (`member`; the cookie itself is out of the page's reach). */
export type Session = { environment: string } & ({ kind: 'token'; token: string } | { kind: 'member'; member: MemberSession });

const SESSION_KEY = 'notify-console-session';

export function loadSession(): Session | null {
  try {
    const raw = sessionStorage.getItem(SESSION_KEY);
    const session = raw ? (JSON.parse(raw) as Partial<Session> & { token?: string; environment: string }) : null;
    // A session saved before members could sign in holds a token and no kind.
    if (session && !session.kind && session.token) return { kind: 'token', token: session.token, environment: session.environment };
    return session as Session | null;
  } catch {
    return null;
  }
}

export function saveSession(session: Session): void {
  sessionStorage.setItem(SESSION_KEY, JSON.stringify(session));
}

export function clearSession(): void {
  sessionStorage.removeItem(SESSION_KEY);
}

export type Query = Record<string, string | number | boolean | string[] | undefined | null>;

export function queryString(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) value.forEach((v) => params.append(key, v));
    else params.append(key, String(value));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

interface RequestOptions {
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
}

export interface Page<T> {
  entries?: T[];
  items?: T[];
  page_info: { after: string | null; before?: string | null; page_size?: number; total_count?: number };
}

export class Api {
  private readonly secretKeys = new Map<string, Promise<string>>();

  /** `token`: a service token; null: the member's session cookie. */
  constructor(
    readonly token: string | null,
    readonly origin = '',
  ) {}

  /** A management or event-log route, with the service token or the session cookie. */
  service<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    return this.send<T>(this.credentials(), method, path, options);
  }

  /** A public API route in `environment`: the secret key exchanged for the token there, or the session cookie. */
  async secret<T>(environment: string, method: string, path: string, options: RequestOptions = {}): Promise<T> {
    if (this.token === null) return this.send<T>({ 'x-notify-environment': environment, ...this.credentials() }, method, path, options);
    return this.send<T>({ authorization: `Bearer ${await this.secretKey(environment)}` }, method, path, options);
  }

  /** Headers that authenticate a call: the bearer token, or (cookie session) the console's request header. */
  credentials(): Record<string, string> {
    return this.token === null ? { 'x-notify-console': '1' } : { authorization: `Bearer ${this.token}` };
  }

  /**
   * A server-sent event stream of a management route (the log tail, ADR 0211), read with fetch so
   * that it carries the same credentials as every call; `onMessage` hears each event's name and data.
   * Resolves when the server ends the stream; rejects when it cannot be opened.
   */
  async stream(path: string, query: Query, signal: AbortSignal, onMessage: (event: string, data: string) => void): Promise<void> {
    const response = await fetch(`${this.origin}${path}${queryString(query)}`, {
      headers: { ...this.credentials(), accept: 'text/event-stream' },
      signal,
      credentials: 'same-origin',
    });
    if (!response.ok || !response.body) throw new ApiError(response.status, 'stream_failed', `The stream answered ${response.status}`);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const message = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let event = 'message';
        const data: string[] = [];
        for (const line of message.split('\n')) {
          if (line.startsWith('event:')) event = line.slice(6).trim();
          else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
        }
        if (data.length) onMessage(event, data.join('\n'));
      }
    }
  }

  /** An unauthenticated route (/readyz). Answers the body whatever the status (readyz says 503 when not ready). */
  async open<T>(path: string): Promise<T> {
    const response = await fetch(`${this.origin}${path}`, { headers: { accept: 'application/json' } });
    return (await response.json()) as T;
  }

  private secretKey(environment: string): Promise<string> {
    let key = this.secretKeys.get(environment);
    if (!key) {
      key = this.service<{ api_key: string }>('POST', '/v1/api_keys/exchange', { query: { environment } }).then((r) => r.api_key);
      key.catch(() => this.secretKeys.delete(environment));
      this.secretKeys.set(environment, key);
    }
    return key;
  }

  private async send<T>(credentials: Record<string, string>, method: string, path: string, options: RequestOptions): Promise<T> {
    const headers: Record<string, string> = { ...credentials, accept: 'application/json' };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.origin}${path}${queryString(options.query)}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
      credentials: 'same-origin',
    });
    const text = await response.text();
    let body: any = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = { message: text };
    }
    if (!response.ok) {
      throw new ApiError(
        response.status,
        String(body?.code ?? 'http_error'),
        String(body?.message ?? `${response.status} ${response.statusText}`),
        Array.isArray(body?.errors) ? body.errors : [],
      );
    }
    return body as T;
  }
}

/** The entries of a list answer, whichever key the route uses (management: entries; public: entries or items). */
export function entriesOf<T>(page: Page<T> | { entries?: T[]; items?: T[] } | T[]): T[] {
  if (Array.isArray(page)) return page;
  return page.entries ?? page.items ?? [];
}
