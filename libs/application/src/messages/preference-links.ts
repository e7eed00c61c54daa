import { createHmac, timingSafeEqual } from 'node:crypto';

/** Who a preference link is for, and (one-click unsubscribe links) which categories it opts out of. */
export interface PreferenceLinkClaims {
  environment: string;
  userId: string;
  tenant: string | null;
  /** Set on unsubscribe links only: the categories of the message the link came with. */
  categories?: string[];
  /** Seconds since the epoch. */
  expiresAt: number;
}

export type VerifiedPreferenceLink = { ok: true; claims: PreferenceLinkClaims } | { ok: false; reason: 'invalid' | 'expired' };

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
const AUDIENCE = { page: 'notify/preference-center', unsubscribe: 'notify/unsubscribe' } as const;
export type PreferenceLinkKind = keyof typeof AUDIENCE;

/**
 * Signed, expiring links to a recipient's hosted preference page and one-click unsubscribe
 * (ADR 0190): an HS256 JWT (environment, user, tenant, categories, expiry) under a key derived
 * from the secrets key, at `<base>/p/<token>` and `<base>/p/<token>/unsubscribe`. The audience
 * claim keeps a page link from being used as an unsubscribe link and the other way round.
 */
export class PreferenceLinks {
  private readonly key: Buffer;

  constructor(
    secretsSubkey: Buffer,
    readonly ttlSeconds: number,
    /** The service's external address (PUBLIC_URL); links in messages need it, the API may pass its own. */
    readonly publicUrl: string | null,
  ) {
    this.key = createHmac('sha256', secretsSubkey).update('notify/preference-links/v1').digest();
  }

  token(kind: PreferenceLinkKind, claims: Omit<PreferenceLinkClaims, 'expiresAt'>, now: Date): string {
    const iat = Math.floor(now.getTime() / 1000);
    const body = {
      aud: AUDIENCE[kind],
      env: claims.environment,
      sub: claims.userId,
      ...(claims.tenant ? { tenant: claims.tenant } : {}),
      ...(claims.categories ? { cats: claims.categories } : {}),
      iat,
      exp: iat + this.ttlSeconds,
    };
    const payload = `${HEADER}.${Buffer.from(JSON.stringify(body)).toString('base64url')}`;
    return `${payload}.${this.sign(payload)}`;
  }

  pageUrl(token: string, base = this.publicUrl): string {
    if (!base) throw new Error('preference links need PUBLIC_URL or a request origin');
    return `${base.replace(/\/+$/, '')}/p/${token}`;
  }

  unsubscribeUrl(token: string, base = this.publicUrl): string {
    return `${this.pageUrl(token, base)}/unsubscribe`;
  }

  /** The claims of a token made here for that kind of link, unless altered or expired. */
  verify(kind: PreferenceLinkKind, token: string, now: Date): VerifiedPreferenceLink {
    const parts = token.split('.');
    if (parts.length !== 3 || parts[0] !== HEADER) return { ok: false, reason: 'invalid' };
    const expected = Buffer.from(this.sign(`${parts[0]}.${parts[1]}`));
    const given = Buffer.from(parts[2]);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: 'invalid' };
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as Record<string, unknown>;
    } catch {
      return { ok: false, reason: 'invalid' };
    }
    const { aud, env, sub, tenant, cats, exp } = body;
    if (aud !== AUDIENCE[kind] || typeof env !== 'string' || typeof sub !== 'string' || typeof exp !== 'number')
      return { ok: false, reason: 'invalid' };
    if (tenant !== undefined && typeof tenant !== 'string') return { ok: false, reason: 'invalid' };
    if (cats !== undefined && !(Array.isArray(cats) && cats.every((c) => typeof c === 'string'))) return { ok: false, reason: 'invalid' };
    if (exp * 1000 <= now.getTime()) return { ok: false, reason: 'expired' };
    return {
      ok: true,
      claims: { environment: env, userId: sub, tenant: tenant ?? null, ...(cats ? { categories: cats as string[] } : {}), expiresAt: exp },
    };
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}
