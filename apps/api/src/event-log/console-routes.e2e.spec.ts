import { waitFor } from '@notify/testing';
import { startTestApp, TestApp } from '../../../../test/support/test-app';

/**
 * Routes the console uses (ADRs 0211, 0212): a projection rebuild with progress, the log as
 * server-sent events, a user's preference layers and audiences.
 */
describe('console routes: rebuilds, the log tail, preference layers and audiences', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    await t.knock().users.update('tail-before', { name: 'Before' });
  });
  afterAll(async () => t?.close());

  it('rebuilds a projection in the background and answers its progress', async () => {
    const started = await t.http('POST', '/v1/projections/users/rebuild', { key: t.serviceToken });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ projection: 'users', state: 'running', finished_at: null, error: null });
    const done = await waitFor(async () => {
      const res = await t.http('GET', '/v1/projections/users/rebuild', { key: t.serviceToken });
      return res.body.state === 'done' ? res.body : undefined;
    }, 'the rebuild to finish');
    expect(done.events_total).toBeGreaterThan(0);
    expect(done.events_done).toBe(done.events_total);
    expect(done.events_applied).toBeGreaterThan(0);
    expect(done.events_per_second).toBeGreaterThanOrEqual(0);
    expect(typeof done.finished_at).toBe('string');
    // The rebuilt read model answers as before.
    expect((await t.knock().users.get('tail-before')).name).toBe('Before');

    const unknown = await t.http('POST', '/v1/projections/nope/rebuild', { key: t.serviceToken });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ status: 404, type: expect.any(String), code: expect.any(String) });
    expect((await t.http('GET', '/v1/projections/tags/rebuild', { key: t.serviceToken })).status).toBe(404);
    expect((await t.http('POST', '/v1/projections/users/rebuild', { key: t.env.secretKey })).status).toBe(403);
  });

  it("answers a user's preference layers, merged as a send merges them, and its audiences", async () => {
    const knock = t.knock();
    await knock.users.update('layered', { name: 'Layered' });
    await knock.tenants.set('acme', { settings: { preference_set: { channel_types: { email: false, sms: false } } } } as never);
    await knock.users.setPreferences('layered', 'default', { channel_types: { sms: true } } as never);
    await knock.users.setPreferences('layered', 'acme', { channel_types: { chat: false } } as never);
    await knock.audiences.addMembers('vips', { members: [{ user: { id: 'layered' } }, { user: { id: 'layered' }, tenant: 'acme' }] }, {
      query: { create_audience: true },
    } as never);

    const res = await t.http('GET', '/v1/users/layered/preference_layers?tenant=acme');
    expect(res.status).toBe(200);
    expect(res.body.tenant).toBe('acme');
    expect(res.body.layers.environment_default).toBeNull();
    expect(res.body.layers.tenant_default.channel_types).toMatchObject({ email: false, sms: false });
    expect(res.body.layers.recipient_default.channel_types).toMatchObject({ sms: true });
    expect(res.body.layers.recipient_in_tenant.channel_types).toMatchObject({ chat: false });
    // The user's default wins over the tenant's for sms; email stays off from the tenant.
    expect(res.body.merged.channel_types).toMatchObject({ email: false, sms: true, chat: false });
    const noTenant = await t.http('GET', '/v1/users/layered/preference_layers');
    expect(noTenant.body.layers.tenant_default).toBeNull();
    expect(noTenant.body.merged.channel_types).toMatchObject({ sms: true });

    const audiences = await waitFor(async () => {
      const r = await t.http('GET', '/v1/users/layered/audiences');
      return r.body.entries?.length === 2 ? r.body.entries : undefined;
    }, 'both memberships');
    expect(audiences).toEqual([
      { audience_key: 'vips', kind: 'static', tenant: null, added_at: expect.any(String), until: null },
      { audience_key: 'vips', kind: 'static', tenant: 'acme', added_at: expect.any(String), until: null },
    ]);
    expect((await t.http('GET', '/v1/users/nobody-here/audiences')).status).toBe(404);
    expect((await t.http('GET', '/v1/users/layered/audiences', { key: t.env.publishableKey })).status).toBe(403);
  });

  it('pushes new events matching the filters as server-sent events', async () => {
    const abort = new AbortController();
    const res = await fetch(`${t.url}/v1/events/tail?types=UserIdentified&environment=development`, {
      headers: { authorization: `Bearer ${t.serviceToken}` },
      signal: abort.signal,
    });
    try {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/event-stream');
      const reader = res.body!.getReader();
      let text = '';
      const decoder = new TextDecoder();
      // Follows from the head: the connection is up once its first comment arrived.
      while (!text.includes('following after')) text += decoder.decode((await reader.read()).value, { stream: true });
      await t.knock().tenants.set('tail-tenant', { name: 'Not a user' });
      await t.knock().users.update('tail-live', { name: 'Live' });
      while (!text.includes('user-development-tail-live')) text += decoder.decode((await reader.read()).value, { stream: true });
      const pages = text
        .split('\n\n')
        .filter((m) => m.startsWith('event: events'))
        .map((m) => JSON.parse(m.split('\ndata: ')[1]));
      const entries = pages.flatMap((p) => p.entries);
      expect(entries.map((e: { type: string }) => e.type)).toEqual(entries.map(() => 'UserIdentified'));
      expect(entries.some((e: { stream: string }) => e.stream === 'user-development-tail-before')).toBe(false);
      expect(pages[0].page_info.after).toEqual(expect.any(String));
      expect(entries.some((e: { stream: string }) => e.stream === 'user-development-tail-live')).toBe(true);
    } finally {
      abort.abort();
    }
    const bad = await t.http('GET', '/v1/events/tail?after=nonsense', { key: t.serviceToken });
    expect(bad.status).toBe(422);
  });
});
