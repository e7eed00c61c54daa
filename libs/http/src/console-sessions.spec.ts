import { ConsoleSessionSigner, consoleRole, cookieValue, permits, routeAccess, sessionCookie } from './console-sessions';

const member = '00000000-0000-4000-8000-000000000001';
const link = '00000000-0000-4000-8000-000000000002';

describe('console sessions', () => {
  let now = Date.parse('2026-01-01T00:00:00Z');
  const clock = () => now;
  const signer = new ConsoleSessionSigner(Buffer.alloc(32, 7), 3600, 900, clock);
  beforeEach(() => (now = Date.parse('2026-01-01T00:00:00Z')));

  it('verifies a session it signed, with its member and expiry', () => {
    const { value } = signer.session(member, link);
    expect(signer.verifySession(value)).toEqual({
      memberId: member,
      sessionId: link,
      issuedAt: now / 1000,
      expiresAt: now / 1000 + 3600,
    });
  });

  it('refuses an expired session (injected clock)', () => {
    const { value } = signer.session(member, link);
    now += 3599_000;
    expect(signer.verifySession(value)).toBeDefined();
    now += 1000;
    expect(signer.verifySession(value)).toBeUndefined();
  });

  it('refuses a tampered payload or signature', () => {
    const { value } = signer.session(member, link);
    const [purpose, body, mac] = value.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), sub: link })).toString(
      'base64url',
    );
    expect(signer.verifySession(`${purpose}.${forged}.${mac}`)).toBeUndefined();
    expect(signer.verifySession(`${purpose}.${body}.${mac.slice(0, -2)}AA`)).toBeUndefined();
    expect(signer.verifySession(`${purpose}.${body}`)).toBeUndefined();
    expect(signer.verifySession(undefined)).toBeUndefined();
  });

  it('refuses a value signed under another key', () => {
    const other = new ConsoleSessionSigner(Buffer.alloc(32, 8), 3600, 900, clock);
    expect(signer.verifySession(other.session(member, link).value)).toBeUndefined();
  });

  it('keeps login links and sessions apart', () => {
    const { token } = signer.loginLink(member, link);
    expect(signer.verifyLoginLink(token)).toEqual({ memberId: member, linkId: link, expiresAt: now / 1000 + 900 });
    expect(signer.verifySession(token)).toBeUndefined();
    expect(signer.verifyLoginLink(signer.session(member, link).value)).toBeUndefined();
    // Swapping the purpose label does not help: the MAC covers it.
    expect(signer.verifySession(token.replace(/^login\./, 'session.'))).toBeUndefined();
  });

  it('expires login links', () => {
    const { token } = signer.loginLink(member, link);
    now += 900_000;
    expect(signer.verifyLoginLink(token)).toBeUndefined();
  });

  it('maps member roles to console roles and routes to what they need', () => {
    expect(['owner', 'admin', 'member', 'production_only_member', 'billing', 'support'].map(consoleRole)).toEqual([
      'admin',
      'admin',
      'editor',
      'editor',
      'viewer',
      'viewer',
    ]);
    expect(routeAccess({ method: 'GET' })).toBe('read');
    expect(routeAccess({ method: 'PUT' })).toBe('write');
    expect(routeAccess({ method: 'POST', access: 'admin' })).toBe('admin');
    expect(permits('viewer', 'read')).toBe(true);
    expect(permits('viewer', 'write')).toBe(false);
    expect(permits('editor', 'write')).toBe(true);
    expect(permits('editor', 'admin')).toBe(false);
    expect(permits('admin', 'admin')).toBe(true);
  });

  it('reads and writes the cookie', () => {
    expect(cookieValue('a=1; notify_console_session=session.x.y; b=2', 'notify_console_session')).toBe('session.x.y');
    expect(cookieValue('a=1', 'notify_console_session')).toBeUndefined();
    expect(sessionCookie('v', 60, true)).toBe('notify_console_session=v; Path=/; Max-Age=60; HttpOnly; SameSite=Strict; Secure');
  });
});
