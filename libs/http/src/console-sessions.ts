import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { RouteContract } from '@notify/contracts';

/**
 * Console sign-in for members (ADR 0210): a one-time login link printed by the CLI is exchanged
 * for a signed, expiring session cookie. Both are `<purpose>.<payload>.<mac>` with an HMAC-SHA256
 * over purpose and payload under a key derived from SECRETS_KEY, so a session value is never
 * accepted as a link nor the other way round, and nothing is stored to check them.
 */

export const CONSOLE_SESSION_COOKIE = 'notify_console_session';
/** Sent by the console on every cookie-authenticated write: a cross-site form cannot set it (CSRF). */
export const CONSOLE_REQUEST_HEADER = 'x-notify-console';
/** Cookie-authenticated public API calls name their environment here (a secret key would imply it). */
export const CONSOLE_ENVIRONMENT_HEADER = 'x-notify-environment';

export type ConsoleRole = 'admin' | 'editor' | 'viewer';
export type RouteAccess = 'read' | 'write' | 'admin';

export interface ConsoleSessionClaims {
  /** The member signed in. */
  memberId: string;
  /** The login link it came from (one session per link). */
  sessionId: string;
  issuedAt: number;
  expiresAt: number;
}

export interface LoginLinkClaims {
  memberId: string;
  /** Redeemed at most once (ADR 0210). */
  linkId: string;
  expiresAt: number;
}

type Purpose = 'session' | 'login';

export class ConsoleSessionSigner {
  private readonly key: Buffer;

  constructor(
    secretsSubkey: Buffer,
    readonly sessionTtlSeconds: number,
    readonly linkTtlSeconds: number,
    private readonly now: () => number = Date.now,
  ) {
    this.key = createHmac('sha256', secretsSubkey).update('notify/console-sessions/v1').digest();
  }

  /** A session for a member, from now for the session TTL. */
  session(memberId: string, sessionId: string): { value: string; claims: ConsoleSessionClaims } {
    const issuedAt = Math.floor(this.now() / 1000);
    const claims = { memberId, sessionId, issuedAt, expiresAt: issuedAt + this.sessionTtlSeconds };
    return { value: this.sign('session', { sub: memberId, sid: sessionId, iat: issuedAt, exp: claims.expiresAt }), claims };
  }

  verifySession(value: string | undefined): ConsoleSessionClaims | undefined {
    const p = this.verify('session', value);
    if (!p || typeof p.sub !== 'string' || typeof p.sid !== 'string' || typeof p.iat !== 'number') return undefined;
    return { memberId: p.sub, sessionId: p.sid, issuedAt: p.iat, expiresAt: p.exp as number };
  }

  /** A one-time login link token for a member. */
  loginLink(memberId: string, linkId: string = randomUUID()): { token: string; claims: LoginLinkClaims } {
    const expiresAt = Math.floor(this.now() / 1000) + this.linkTtlSeconds;
    return { token: this.sign('login', { sub: memberId, jti: linkId, exp: expiresAt }), claims: { memberId, linkId, expiresAt } };
  }

  verifyLoginLink(token: string | undefined): LoginLinkClaims | undefined {
    const p = this.verify('login', token);
    if (!p || typeof p.sub !== 'string' || typeof p.jti !== 'string') return undefined;
    return { memberId: p.sub, linkId: p.jti, expiresAt: p.exp as number };
  }

  private sign(purpose: Purpose, payload: Record<string, unknown>): string {
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${purpose}.${body}.${this.mac(purpose, body)}`;
  }

  /** The payload when the value is ours, for this purpose, unaltered and not expired. */
  private verify(purpose: Purpose, value: string | undefined): Record<string, unknown> | undefined {
    if (!value || value.length > 2048) return undefined;
    const parts = value.split('.');
    if (parts.length !== 3 || parts[0] !== purpose) return undefined;
    const expected = Buffer.from(this.mac(purpose, parts[1]));
    const given = Buffer.from(parts[2]);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    let payload: unknown;
    try {
      payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    } catch {
      return undefined;
    }
    if (!payload || typeof payload !== 'object') return undefined;
    const exp = (payload as { exp?: unknown }).exp;
    if (typeof exp !== 'number' || exp <= Math.floor(this.now() / 1000)) return undefined;
    return payload as Record<string, unknown>;
  }

  private mac(purpose: Purpose, body: string): string {
    return createHmac('sha256', this.key).update(`${purpose}.${body}`).digest('base64url');
  }
}

/** What a member's role may do in the console: owners and admins everything, members edit, billing and support read. */
export function consoleRole(memberRole: string): ConsoleRole {
  switch (memberRole) {
    case 'owner':
    case 'admin':
      return 'admin';
    case 'member':
    case 'production_only_member':
      return 'editor';
    default:
      return 'viewer';
  }
}

/** What a route needs: its contract's `access`, else reads for GET and writes for the rest. */
export function routeAccess(route: Pick<RouteContract, 'method' | 'access'>): RouteAccess {
  return route.access ?? (route.method === 'GET' ? 'read' : 'write');
}

export function permits(role: ConsoleRole, access: RouteAccess): boolean {
  if (access === 'read') return true;
  if (access === 'write') return role !== 'viewer';
  return role === 'admin';
}

/** One cookie's value from a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * The Set-Cookie value of a session: httpOnly (no script reads it), SameSite=Strict (no
 * cross-site request carries it), Secure behind https, scoped to the API and the console's paths.
 */
export function sessionCookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  return [
    `${CONSOLE_SESSION_COOKIE}=${value}`,
    'Path=/',
    `Max-Age=${maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

export function clearedSessionCookie(secure: boolean): string {
  return sessionCookie('', 0, secure);
}
