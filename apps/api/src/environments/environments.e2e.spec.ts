import { startTestApp, TestApp } from '../../../../test/support/test-app';

/** `GET /v1/environments[/{slug}]` and `GET /v1/whoami` through @knocklabs/mgmt and raw HTTP. */
describe('environments and whoami (management API)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('lists the environments a page at a time, in their order', async () => {
    await t.newEnvironment('zz-last');
    const all = [];
    for await (const environment of t.mgmt().environments.list({ limit: 1 })) all.push(environment);
    expect(all.map((e) => e.slug)).toEqual(['development', 'zz-last', 'production']);
    expect(all[0]).toEqual({
      slug: 'development',
      name: 'Development',
      order: 0,
      owner: 'system',
      created_at: expect.any(String),
      updated_at: expect.any(String),
      last_commit_at: null,
      deleted_at: null,
      hide_pii_data: false,
      label_color: null,
    });
    expect(all[1].owner).toBe('user');
    const page = await t.http('GET', '/v1/environments?limit=2', { key: t.serviceToken });
    expect(page.body.page_info).toEqual({ after: expect.any(String), before: null, page_size: 2 });
  });

  it('shows when an environment last received a commit, and when its security mode changed', async () => {
    const env = await t.newEnvironment();
    const created = await t.mgmt().environments.retrieve(env.slug);
    expect(created.updated_at).toBe(created.created_at);
    expect(created.last_commit_at).toBeNull();

    expect(
      (await t.http('PUT', `/v1/environments/${env.slug}/security`, { key: t.serviceToken, body: { enhanced_security_mode: true } }))
        .status,
    ).toBe(200);
    const [changed] = await t.sql<{ at: string }>(
      `SELECT data->>'changed_at' AS at FROM es_events WHERE event_type = 'EnhancedSecurityModeChanged' AND metadata->>'environment' = $1`,
      [env.slug],
    );
    expect((await t.mgmt().environments.retrieve(env.slug)).updated_at).toBe(new Date(changed.at).toISOString());

    const commit = await t.http('PUT', '/v1/partials/env-footer?environment=development&commit=true', {
      key: t.serviceToken,
      body: { partial: { name: 'Footer', type: 'text', content: 'bye' } },
    });
    expect(commit.status).toBe(200);
    const [committed] = await t.sql<{ at: Date }>(`SELECT max(created_at) AS at FROM rm_commits WHERE environment = 'development'`);
    expect((await t.mgmt().environments.retrieve('development')).last_commit_at).toBe(committed.at.toISOString());
    expect((await t.mgmt().environments.retrieve('production')).last_commit_at).toBeNull();
  });

  it('answers 404 for an unknown environment and refuses API keys', async () => {
    const missing = await t.http('GET', '/v1/environments/nowhere', { key: t.serviceToken });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'environment_missing', status: 404 });
    expect((await t.http('GET', '/v1/environments', { key: null })).status).toBe(401);
    // A secret key is a key, but not one for the management API.
    expect((await t.http('GET', '/v1/environments')).status).toBe(403);
    expect((await t.http('GET', '/v1/whoami')).status).toBe(403);
  });

  it('whoami names the account and the calling service token', async () => {
    expect(await t.mgmt().auth.verify()).toMatchObject({
      account_name: 'Notify',
      account_slug: 'notify',
      type: 'service_token',
      service_token_name: 'bootstrap',
      user_id: null,
    });
  });
});
