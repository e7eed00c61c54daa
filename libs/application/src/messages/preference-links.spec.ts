import { randomBytes } from 'node:crypto';
import { PreferenceLinks } from './preference-links';

describe('preference links', () => {
  const links = new PreferenceLinks(randomBytes(32), 3600, 'https://notify.example/');
  const now = new Date('2026-01-01T00:00:00Z');
  const claims = { environment: 'development', userId: 'ada', tenant: 'acme' };

  it('answers the claims of a token it made, until it expires', () => {
    const token = links.token('page', claims, now);
    expect(links.pageUrl(token)).toBe(`https://notify.example/p/${token}`);
    expect(links.verify('page', token, new Date(now.getTime() + 3599_000))).toEqual({
      ok: true,
      claims: { ...claims, expiresAt: now.getTime() / 1000 + 3600 },
    });
    expect(links.verify('page', token, new Date(now.getTime() + 3600_000))).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses an altered token, one of another key, and one made for the other kind of link', () => {
    const token = links.token('unsubscribe', { ...claims, categories: ['marketing'] }, now);
    expect(links.verify('unsubscribe', token, now)).toMatchObject({ ok: true, claims: { categories: ['marketing'] } });
    expect(links.verify('page', token, now)).toEqual({ ok: false, reason: 'invalid' });

    const [h, p, s] = token.split('.');
    const body = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...body, sub: 'bob' })).toString('base64url');
    expect(links.verify('unsubscribe', `${h}.${forged}.${s}`, now)).toEqual({ ok: false, reason: 'invalid' });
    expect(links.verify('unsubscribe', `${h}.${p}.${s.slice(0, -2)}AA`, now)).toEqual({ ok: false, reason: 'invalid' });
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    expect(links.verify('unsubscribe', `${none}.${p}.`, now)).toEqual({ ok: false, reason: 'invalid' });
    expect(links.verify('unsubscribe', 'garbage', now)).toEqual({ ok: false, reason: 'invalid' });

    const other = new PreferenceLinks(randomBytes(32), 3600, null);
    expect(other.verify('unsubscribe', token, now)).toEqual({ ok: false, reason: 'invalid' });
    expect(() => other.pageUrl(token)).toThrow(/PUBLIC_URL/);
  });
});
