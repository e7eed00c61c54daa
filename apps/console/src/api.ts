/**
 * The console's HTTP client. The operator signs in with a management service token (kept in
 * session storage, gone when the tab closes); management and event-log routes take it directly,
 * public API routes (users, messages, runs, explain) take the secret key that
 * POST /v1/api_keys/exchange answers for the token in the chosen environment.
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

export interface Session {
  token: string;
  environment: string;
}

const SESSION_KEY = 'notify-console-session';

export function loadSession(): Session | null {
  try {
    const raw = sessionStorage.getItem(SESSION_KEY);
    return raw ? (JSON.parse(raw) as Session) : null;
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

  constructor(
    readonly token: string,
    readonly origin = '',
  ) {}

  /** A management or event-log route, with the service token. */
  service<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    return this.send<T>(this.token, method, path, options);
  }

  /** A public API route in `environment`, with the secret key exchanged for the token there. */
  async secret<T>(environment: string, method: string, path: string, options: RequestOptions = {}): Promise<T> {
    return this.send<T>(await this.secretKey(environment), method, path, options);
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

  private async send<T>(credential: string, method: string, path: string, options: RequestOptions): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${credential}`, accept: 'application/json' };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.origin}${path}${queryString(options.query)}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
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
