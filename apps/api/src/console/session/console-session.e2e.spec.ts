import { addMember, ERASURE_KEYS, removeMember } from '@notify/application';
import { ConsoleSessionSigner } from '@notify/http';
import { startTestApp, TestApp } from '../../../../../test/support/test-app';

/** Console members' sessions (ADR 0210): login link -> cookie; roles enforced by the server on every route kind. */
describe('console sessions and roles', () => {
  let t: TestApp;
  let signer: ConsoleSessionSigner;
  const members: Record<'viewer' | 'editor' | 'admin', { id: string; email: string }> = {} as never;

  const signIn = async (who: keyof typeof members) => {
    const { token } = signer.loginLink(members[who].id);
    const res = await t.http('POST', '/v1/console/session', { key: null, body: { login_token: token } });
    expect(res.status).toBe(201);
    return { cookie: res.headers.get('set-cookie')!.split(';')[0], token, res };
  };
  /** A request with the session cookie only (no bearer). */
  const asMember = (cookie: string, method: string, path: string, body?: unknown, extra: Record<string, string> = {}) =>
    t.http(method, path, {
      key: null,
      body,
      headers: { cookie, 'x-notify-console': '1', 'x-notify-environment': 'development', ...extra },
    });

  beforeAll(async () => {
    t = await startTestApp();
    signer = t.app.get(ConsoleSessionSigner);
    const roles = { viewer: 'support', editor: 'member', admin: 'owner' } as const;
    for (const [who, role] of Object.entries(roles) as [keyof typeof roles, (typeof roles)[keyof typeof roles]][]) {
      const email = `${who}@example.com`;
      const outcome = await addMember(t.store, t.app.get(ERASURE_KEYS), { email, role }, { environment: null, actor: 'test' });
      await t.runtime.waitFor(outcome.append!.position, [{ type: 'MemberAdded', streamId: outcome.streamId }], 10_000);
      members[who] = { id: outcome.state.current!.memberId, email };
    }
  });
  afterAll(async () => t?.close());

  it('exchanges a login link once for an httpOnly, expiring session cookie', async () => {
    const { cookie, token, res } = await signIn('viewer');
    expect(res.headers.get('set-cookie')).toMatch(
      /^notify_console_session=session\.[^;]+; Path=\/; Max-Age=43200; HttpOnly; SameSite=Strict$/,
    );
    expect(res.body).toEqual({
      member: { id: members.viewer.id, email: 'viewer@example.com', name: null, role: 'support' },
      console_role: 'viewer',
      expires_at: expect.any(String),
    });
    const again = await t.http('POST', '/v1/console/session', { key: null, body: { login_token: token } });
    expect(again.status).toBe(401);
    expect(again.body).toMatchObject({ code: 'login_link_used', status: 401 });
    const session = await t.http('GET', '/v1/console/session', { key: null, headers: { cookie } });
    expect(session.body.member.email).toBe('viewer@example.com');
    const whoami = await t.http('GET', '/v1/whoami', { key: null, headers: { cookie } });
    expect(whoami.body).toMatchObject({ type: 'oauth_context', user_email: 'viewer@example.com', user_id: members.viewer.id });
  });

  it("refuses a viewer's writes with 403 in the error shape, on management and public routes, and lets it read", async () => {
    const { cookie } = await signIn('viewer');
    expect((await asMember(cookie, 'GET', '/v1/workflows?environment=development')).status).toBe(200);
    expect((await asMember(cookie, 'GET', '/v1/users/nobody')).status).toBe(404);
    const write = await asMember(cookie, 'PUT', '/v1/partials/viewer-footer?environment=development', {
      partial: { name: 'Footer', type: 'text', content: 'x' },
    });
    expect(write.status).toBe(403);
    expect(write.body).toEqual({
      code: 'insufficient_role',
      message: expect.stringContaining('support'),
      status: 403,
      type: 'authentication_error',
    });
    // Checking a workflow writes nothing: a viewer may (422 names the problems, not 403).
    const check = await asMember(cookie, 'PUT', '/v1/workflows/viewer-check/validate?environment=development', { workflow: {} });
    expect(check.status).toBe(422);
    const publicWrite = await asMember(cookie, 'PUT', '/v1/users/u-viewer', { name: 'X' });
    expect(publicWrite.status).toBe(403);
    expect(publicWrite.body.code).toBe('insufficient_role');
    expect((await t.http('GET', '/v1/users/u-viewer')).status).toBe(404);
  });

  it('lets an editor write (with the console header) but not manage keys; an admin may', async () => {
    const editor = (await signIn('editor')).cookie;
    const write = await asMember(editor, 'PUT', '/v1/users/u-editor', { name: 'Edited' });
    expect(write.status).toBe(200);
    const forged = await t.http('PUT', '/v1/users/u-editor', {
      key: null,
      body: { name: 'X' },
      headers: { cookie: editor, 'x-notify-environment': 'development' },
    });
    expect(forged.status).toBe(403);
    const keys = await asMember(editor, 'POST', '/v1/api_keys?environment=development', { kind: 'secret' });
    expect(keys.status).toBe(403);
    expect(keys.body.code).toBe('insufficient_role');
    const admin = (await signIn('admin')).cookie;
    expect((await asMember(admin, 'POST', '/v1/api_keys?environment=development', { kind: 'secret' })).status).toBe(201);
  });

  it('refuses a tampered cookie, a removed member and a signed-out browser', async () => {
    const { cookie } = await signIn('editor');
    const tampered = cookie.slice(0, -3) + (cookie.endsWith('AAA') ? 'BBB' : 'AAA');
    expect((await asMember(tampered, 'GET', '/v1/workflows?environment=development')).status).toBe(401);
    const out = await t.http('DELETE', '/v1/console/session', { key: null, headers: { cookie } });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^notify_console_session=; Path=\/; Max-Age=0; HttpOnly/);

    const removed = await removeMember(t.store, t.app.get(ERASURE_KEYS), members.editor.email, { environment: null, actor: 'test' });
    await t.runtime.waitFor(removed.append!.position, [{ type: 'MemberRemoved', streamId: removed.streamId }], 10_000);
    const gone = await asMember(cookie, 'GET', '/v1/workflows?environment=development');
    expect(gone.status).toBe(401);
    expect(gone.body).toMatchObject({ status: 401, type: 'authentication_error' });
  });
});
